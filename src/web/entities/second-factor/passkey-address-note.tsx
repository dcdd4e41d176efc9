import { Alert, Anchor, type MantineSpacing, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { passkeyAddressFor } from '../../lib/devices/loopback-url.ts';
import { READABLE_TITLE } from '../../ui/text/readable-title.ts';

/** Whether passkeys can work at the address this page was opened at (never at an IP address). */
export const passkeysWorkHere = () => passkeyAddressFor(window.location.href) === undefined;

export interface PasskeyAddressAlertProps {
  /** The IP address the page was opened at. */
  hostname: ReactNode;
  /** The same page at localhost (a loopback address), or null: only the administrator knows the service's name. */
  elsewhere: { href?: string; origin: ReactNode } | null;
  mb?: MantineSpacing;
}

/**
 * The note's words, given the address. The page outline in index.html draws them before the app has run, with the
 * address left to public/boot-screen.js (scripts/page-outlines.render.tsx).
 */
export function PasskeyAddressAlert({ hostname, elsewhere, mb }: PasskeyAddressAlertProps) {
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
        Browsers make and use passkeys only at a name, not at an IP address like {hostname}.{' '}
        {elsewhere ? (
          <>
            Open <Anchor href={elsewhere.href}>{elsewhere.origin}</Anchor> instead and sign in there.
          </>
        ) : (
          'Open the service at its name instead (the address its administrator set as PUBLIC_URL).'
        )}
      </Text>
    </Alert>
  );
}

/**
 * Says where to go when the dashboard was opened at an IP address, where browsers refuse passkeys ("127.0.0.1 is an
 * invalid domain"): the same page at localhost, or the service's name. Nothing at a name.
 */
export function PasskeyAddressNote({ mb }: { mb?: MantineSpacing }) {
  const elsewhere = passkeyAddressFor(window.location.href);
  if (elsewhere === undefined) return null;
  return (
    <PasskeyAddressAlert
      mb={mb}
      hostname={window.location.hostname}
      elsewhere={elsewhere ? { href: elsewhere, origin: new URL(elsewhere).origin } : null}
    />
  );
}
