import { Stack } from '@mantine/core';
import { PasskeyAddressAlert } from '../../entities/second-factor/passkey-address-note.tsx';
import { PageHeader } from '../../ui/page-header.tsx';

export const SIGN_IN_METHODS_TITLE = 'Sign-in methods';
export const SIGN_IN_METHODS_DESCRIPTION =
  'How you prove it is you: passkeys, recovery codes and your devices. Nobody else can see or choose them.';

/**
 * The page before its code has arrived: its header and, at an IP address, the note that passkeys do not work there (a
 * phone's largest text at such an address), laid out as the page lays them out. index.html shows it while the app
 * downloads (scripts/page-outlines.ts renders it at build time): public/boot-screen.js shows the note's variant for the
 * opened address and writes the address into it (the `data-boot-host` and `data-boot-origin` marks).
 */
export function SignInMethodsOutline() {
  return (
    <>
      <PageHeader title={SIGN_IN_METHODS_TITLE} description={SIGN_IN_METHODS_DESCRIPTION} />
      <Stack gap="lg" inert>
        <div data-boot-passkeys="loopback">
          <PasskeyAddressAlert hostname={<span data-boot-host />} elsewhere={{ origin: <span data-boot-origin /> }} />
        </div>
        <div data-boot-passkeys="ip">
          <PasskeyAddressAlert hostname={<span data-boot-host />} elsewhere={null} />
        </div>
      </Stack>
    </>
  );
}
