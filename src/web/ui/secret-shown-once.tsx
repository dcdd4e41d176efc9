import { Alert, Button, CopyButton, Group, Stack, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface SecretShownOnceProps {
  /** The field's label ("Secret", "Signing secret"). */
  label: string;
  secret: string;
  /** What to do with it, under "Copy the secret now". */
  warning: ReactNode;
  /** Said under the field, when there is more to say. */
  footnote?: ReactNode;
  testId: string;
  onDone: () => void;
}

/** A secret the service answered this once (an API account's, a webhook's): copied now, or rotated later. */
export function SecretShownOnce({ label, secret, warning, footnote, testId, onDone }: SecretShownOnceProps) {
  return (
    <Stack gap="sm">
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Copy the secret now">
        {warning}
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        {/* A text area: it wraps on a phone, and its line height keeps the underscore visible (an input clips it). */}
        <Textarea
          label={label}
          value={secret}
          readOnly
          autosize
          minRows={1}
          data-autofocus
          onFocus={(event) => event.currentTarget.select()}
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
          data-testid={testId}
        />
        <CopyButton value={secret} timeout={2000}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              aria-label={copied ? 'Copied' : 'Copy the secret'}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
      {footnote}
      <Group justify="flex-end">
        <Button onClick={onDone}>I have copied it</Button>
      </Group>
    </Stack>
  );
}
