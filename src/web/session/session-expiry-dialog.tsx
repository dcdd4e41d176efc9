import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export interface SessionExpiryDialogProps {
  /** Idle: acting extends the session. Absolute: it reaches its maximum length and cannot be extended. */
  kind: 'idle' | 'absolute';
  /** "1:05" */
  countdown: string;
  onStaySignedIn: () => void;
  onSignOut: () => void;
  /** The absolute warning only: the person has read it and goes on working. */
  onContinue: () => void;
}

/** The warning before a session deadline; session-keeper.tsx decides when it shows. */
export function SessionExpiryDialog({
  kind,
  countdown,
  onStaySignedIn,
  onSignOut,
  onContinue,
}: SessionExpiryDialogProps) {
  return (
    <Modal
      opened
      onClose={kind === 'absolute' ? onContinue : onStaySignedIn}
      title={<Text fw={650}>Your session is about to end</Text>}
      size="md"
      data-testid="session-expiry-dialog"
    >
      <Stack gap="md">
        {kind === 'idle' ? (
          <Text size="sm">
            Nothing was done here for a while. You will be signed out in{' '}
            <Text span fw={700} data-testid="session-countdown">
              {countdown}
            </Text>
            .
          </Text>
        ) : (
          <Text size="sm">
            Your session reaches its maximum length and ends in{' '}
            <Text span fw={700} data-testid="session-countdown">
              {countdown}
            </Text>
            . It cannot be extended: finish what you are typing, then sign in again.
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onSignOut}>
            Sign out
          </Button>
          {kind === 'idle' ? (
            <Button onClick={onStaySignedIn} data-autofocus>
              Stay signed in
            </Button>
          ) : (
            <Button onClick={onContinue} data-autofocus>
              Continue
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
