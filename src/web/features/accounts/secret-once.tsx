import { Text } from '@mantine/core';
import { SecretShownOnce } from '../../ui/secret-shown-once.tsx';

/**
 * An API account's secret, as the service answered it this once: copied now or lost (it is stored only as a hash;
 * Rotate secret gives a new one). Its user name goes with it, since a script needs both.
 */
export function SecretOnce({ userName, secret, onDone }: { userName: string; secret: string; onDone: () => void }) {
  return (
    <SecretShownOnce
      label="Secret"
      secret={secret}
      testId="api-secret"
      onDone={onDone}
      warning={
        <>
          You won’t see this again: the service keeps only a hash of it. Put it where the script or the SDK reads its
          password, with the user name {userName}. If it is lost, rotate the secret.
        </>
      }
      footnote={
        <Text size="xs" c="dimmed">
          It signs in like a password: at POST /Consumer/Authentication, or as HTTP Basic credentials (the SDK’s way).
          It cannot sign in to this dashboard.
        </Text>
      }
    />
  );
}
