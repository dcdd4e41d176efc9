import { Alert, Button, CopyButton, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';

/**
 * An API account's secret, as the service answered it this once: copied now or lost (it is stored only as a hash;
 * Rotate secret gives a new one). Its user name goes with it, since a script needs both.
 */
export function SecretOnce({ userName, secret, onDone }: { userName: string; secret: string; onDone: () => void }) {
  return (
    <Stack gap="sm">
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Copy the secret now">
        You won’t see this again: the service keeps only a hash of it. Put it where the script or the SDK reads its
        password, with the user name {userName}. If it is lost, rotate the secret.
      </Alert>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        {/* A text area: it wraps on a phone, and its line height keeps the underscore visible (an input clips it). */}
        <Textarea
          label="Secret"
          value={secret}
          readOnly
          autosize
          minRows={1}
          data-autofocus
          onFocus={(event) => event.currentTarget.select()}
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
          data-testid="api-secret"
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
      <Text size="xs" c="dimmed">
        It signs in like a password: at POST /Consumer/Authentication, or as HTTP Basic credentials (the SDK’s way). It
        cannot sign in to this dashboard.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>I have copied it</Button>
      </Group>
    </Stack>
  );
}
