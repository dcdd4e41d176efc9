import { Alert, Button, Divider, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconFingerprint } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { type LoginResult, RECOVERY_CODES_LOW } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { sendSignInDeviceCode, signInWithDeviceCode } from '../../api/device-code-proofs.ts';
import { loadApi } from '../../api/load-api.ts';
import { passkeyCancelled, passkeySupport, signInWithPasskey } from '../../api/passkey-ceremonies.ts';
import { DeviceCodeProof } from '../../entities/second-factor/device-code-proof.tsx';
import { PasskeyAddressNote } from '../../entities/second-factor/passkey-address-note.tsx';
import { RecoveryCodeForm } from '../../entities/second-factor/recovery-code-form.tsx';
import { useSecondFactorProof } from '../../entities/second-factor/use-second-factor-proof.ts';
import { notify } from '../../lib/notify.ts';
import { loginErrorText } from './login-error.ts';
import { SecondStepHelp } from './second-step/second-step-help.tsx';

/** What a password step that needs a second step answered (401 second-factor-required). */
export interface SecondStepTicket {
  ticket: string;
  methods: string[];
}

/** The ticket and methods of a second-factor-required problem, or null for any other failure. */
export function secondStepOf(error: unknown): SecondStepTicket | null {
  if (!isApiError(error) || error.kind !== 'second-factor-required') return null;
  const { ticket, methods } = error.problem ?? {};
  return ticket ? { ticket, methods: methods ?? [] } : null;
}

/** A sign-in that went through: its session, and a warning when recovery codes run low. */
function signedIn(result: LoginResult, onSignedIn: (result: LoginResult) => void) {
  if (result.RecoveryCodesLeft !== undefined && result.RecoveryCodesLeft <= RECOVERY_CODES_LOW) {
    notify({
      title: `${result.RecoveryCodesLeft} recovery code${result.RecoveryCodesLeft === 1 ? '' : 's'} left`,
      message: 'Make new ones in Sign-in methods before they run out.',
      color: 'orange',
    });
  }
  onSignedIn(result);
}

/**
 * Offers passkeys in the user-name field's suggestions (conditional mediation), where the browser supports it: the
 * person picks one there instead of typing. Waits quietly until then; any other sign-in cancels it.
 */
export function usePasskeyAutofill(enabled: boolean, onSignedIn: (result: LoginResult) => void): void {
  const latest = useRef(onSignedIn);
  latest.current = onSignedIn;
  useEffect(() => {
    if (!enabled) return;
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

/** The second step after a right password: one of the person's passkeys, a code sent to their phone, or a recovery code. */
export function SecondStep({
  step,
  onSignedIn,
  onRestart,
  afterSingleSignOn = false,
}: {
  step: SecondStepTicket;
  onSignedIn: (result: LoginResult) => void;
  onRestart: () => void;
  /** The first step was single sign-on, not a password. */
  afterSingleSignOn?: boolean;
}) {
  const proof = useSecondFactorProof();
  const { busy, error } = proof;
  const prove = (how: () => Promise<LoginResult>) => proof.prove(async () => signedIn(await how(), onSignedIn));
  // A closed or failed prompt is no error worth a red box, but the person is told, and pointed at the other ways.
  const [promptClosed, setPromptClosed] = useState(false);
  const tryPasskey = () =>
    prove(async () => {
      setPromptClosed(false);
      try {
        return await signInWithPasskey({ ticket: step.ticket });
      } catch (failure) {
        if (passkeyCancelled(failure)) setPromptClosed(true);
        throw failure;
      }
    });

  const submitCode = (typed: string) =>
    void prove(async () => {
      const { api, endpoints } = await loadApi();
      return api.call(endpoints.recoveryCodeSignIn, { body: { Ticket: step.ticket, Code: typed } });
    });

  const submitTemporaryCode = (typed: string) =>
    void prove(async () => {
      const { api, endpoints } = await loadApi();
      return api.call(endpoints.temporaryCodeSignIn, { body: { Ticket: step.ticket, Code: typed } });
    });

  const expired = isApiError(error) && error.kind === 'ticket-invalid';
  const text = error ? loginErrorText(error) : null;
  return (
    <Stack gap="md">
      <Text size="sm">
        {afterSingleSignOn ? 'Single sign-on recognised you.' : 'Your password was right.'} Now confirm it is you with
        your second factor.
      </Text>
      {step.methods.includes('Passkey') && <PasskeyAddressNote />}
      {step.methods.includes('Passkey') && (
        <Button
          size="md"
          fullWidth
          leftSection={<IconFingerprint size={18} />}
          loading={busy}
          onClick={() => void tryPasskey()}
          data-autofocus
        >
          Use your passkey
        </Button>
      )}
      {step.methods.includes('DeviceCode') && (
        <>
          {step.methods.includes('Passkey') && <Divider label="or" labelPosition="center" />}
          <DeviceCodeProof
            send={() => sendSignInDeviceCode(step.ticket)}
            prove={async (typed) => signedIn(await signInWithDeviceCode(step.ticket, typed), onSignedIn)}
            disabled={busy}
            endsWithSignIn
          />
        </>
      )}
      {step.methods.includes('RecoveryCode') && step.methods.length > 1 && (
        <Divider label="or" labelPosition="center" />
      )}
      {step.methods.includes('RecoveryCode') && <RecoveryCodeForm busy={busy} onSubmit={submitCode} fullWidth />}
      {promptClosed && !text && (
        <Alert color="blue" title="No passkey was used" role="status">
          The passkey prompt closed without one. Try again, or use another way on this page.
        </Alert>
      )}
      <TemporaryCodeForm busy={busy} onSubmit={submitTemporaryCode} opened={step.methods.length === 0} />
      {text && (
        <Alert color="red" icon={<IconAlertTriangle />} title={text.title} role="alert">
          {text.message}
        </Alert>
      )}
      <SecondStepHelp methods={step.methods} />
      <Button variant="subtle" onClick={onRestart}>
        {expired ? 'Sign in again' : 'Start over'}
      </Button>
    </Stack>
  );
}

/**
 * A temporary code from the helpdesk, for a person whose phone and passkey are out of reach: folded away behind a
 * link unless it is all they have.
 */
function TemporaryCodeForm({
  busy,
  onSubmit,
  opened,
}: {
  busy: boolean;
  onSubmit: (code: string) => void;
  opened: boolean;
}) {
  const [open, setOpen] = useState(opened);
  const [code, setCode] = useState('');
  const typed = code.trim();
  if (!open) {
    return (
      <Button variant="subtle" size="compact-sm" onClick={() => setOpen(true)}>
        I have a temporary code from the helpdesk
      </Button>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (typed) onSubmit(typed);
      }}
    >
      <Stack gap="xs">
        <TextInput
          label="Temporary code"
          description="The 12 digits the helpdesk gave you; spaces do not matter."
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          data-autofocus={opened || undefined}
          onChange={(event) => setCode(event.currentTarget.value)}
        />
        <Button type="submit" variant="default" fullWidth disabled={!typed || busy}>
          Use the temporary code
        </Button>
      </Stack>
    </form>
  );
}
