import { Alert, Anchor, type MantineSpacing, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { passkeyAddressFor } from '../../lib/devices/loopback-url.ts';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';

/** Whether passkeys can work at the address this page was opened at (never at an IP address). */
export const passkeysWorkHere = () => passkeyAddressFor(window.location.href) === undefined;

/**
 * Says where to go when the dashboard was opened at an IP address, where browsers refuse passkeys ("127.0.0.1 is an
 * invalid domain"): the same page at localhost, or the service's name. Nothing at a name.
 */
export function PasskeyAddressNote({ mb }: { mb?: MantineSpacing }) {
  const elsewhere = passkeyAddressFor(window.location.href);
  if (elsewhere === undefined) return null;
  return (
    <Alert
      mb={mb}
      color="yellow"
      icon={<IconAlertTriangle />}
      title="Passkeys do not work at this address"
      role="note"
      styles={READABLE_TITLE}
    >
      <Text size="sm">
        Browsers make and use passkeys only at a name, not at an IP address like {window.location.hostname}.{' '}
        {elsewhere ? (
          <>
            Open <Anchor href={elsewhere}>{new URL(elsewhere).origin}</Anchor> instead and sign in there.
          </>
        ) : (
          'Open the service at its name instead (the address its administrator set as PUBLIC_URL).'
        )}
      </Text>
    </Alert>
  );
}
