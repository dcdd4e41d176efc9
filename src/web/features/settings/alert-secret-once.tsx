import { Alert, Button, CopyButton, Group, Stack, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

/** A webhook's whsec_ signing secret as the service answered it this once: copied now, or rotated later. */
export function AlertSecretOnce({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Copy the secret now">
        You won’t see it again. Give it to the receiver of {name}, which checks each alert’s webhook-signature with it
        (any Standard Webhooks library does). If it is lost, rotate it.
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Textarea
          label="Signing secret"
          value={secret}
          readOnly
          autosize
          minRows={1}
          data-autofocus
          onFocus={(event) => event.currentTarget.select()}
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
          data-testid="webhook-secret"
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
      <Group justify="flex-end">
        <Button onClick={onDone}>I have copied it</Button>
      </Group>
    </Stack>
  );
}
