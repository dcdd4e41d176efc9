import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle, IconFingerprint } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import type { LoginResult } from '../../../shared/contract/index.ts';
import { passkeySupport, signInWithPasskey } from '../../api/passkey-ceremonies.ts';
import { useSecondFactorProof } from '../../entities/second-factor/use-second-factor-proof.ts';
import { passkeyAddressFor } from '../../lib/devices/loopback-url.ts';
import { loginErrorText } from './login-error.ts';
import { signedIn } from './signed-in.ts';

/**
 * Offers passkeys in the user-name field's suggestions (conditional mediation), where the browser supports it: the
 * person picks one there instead of typing. Waits quietly until then; any other sign-in cancels it.
 */
export function usePasskeyAutofill(enabled: boolean, onSignedIn: (result: LoginResult) => void): void {
  const latest = useRef(onSignedIn);
  latest.current = onSignedIn;
  useEffect(() => {
    // At an IP address browsers refuse passkeys and the service says so (409): asking would only log a failed request
    // in the console (the page's note says where passkeys work instead).
    if (!enabled || passkeyAddressFor(window.location.href) !== undefined) return;
    let live = true;
    void (async () => {
      const support = await passkeySupport().catch(() => ({ autofill: false }));
      if (!live || !support.autofill) return;
      try {
        const result = await signInWithPasskey({ autofill: true });
        if (live) signedIn(result, latest.current);
      } catch {
        // Cancelled by another sign-in, or refused: the buttons say what went wrong when the person uses them.
      }
    })();
    return () => {
      live = false;
    };
  }, [enabled]);
}

/** "Sign in with a passkey": a discoverable passkey, verified by the person, no name or password typed. */
export function PasskeySignInButton({ onSignedIn }: { onSignedIn: (result: LoginResult) => void }) {
  const { busy, error, prove } = useSecondFactorProof();
  const start = () => prove(async () => signedIn(await signInWithPasskey(), onSignedIn));
  const text = error ? loginErrorText(error) : null;
  return (
    <Stack gap="xs">
      <Button
        variant="default"
        size="md"
        fullWidth
        leftSection={<IconFingerprint size={18} />}
        loading={busy}
        onClick={() => void start()}
      >
        Sign in with a passkey
      </Button>
      {text && (
        <Alert color="red" icon={<IconAlertTriangle />} title={text.title} role="alert">
          {text.message}
        </Alert>
      )}
    </Stack>
  );
}
