import { Alert, Button, Divider, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconFingerprint } from '@tabler/icons-react';
import { useState } from 'react';
import type { LoginResult } from '../../../../shared/contract/index.ts';
import { isApiError } from '../../../api/core/api-error.ts';
import { loadApi } from '../../../api/load-api.ts';
import { passkeyCancelled, signInWithPasskey } from '../../../api/passkey-ceremonies.ts';
import { DeviceCodeProof } from '../../../entities/second-factor/device-code-proof.tsx';
import { PasskeyAddressNote } from '../../../entities/second-factor/passkey-address-note.tsx';
import { RecoveryCodeForm } from '../../../entities/second-factor/recovery-code-form.tsx';
import { useSecondFactorProof } from '../../../entities/second-factor/use-second-factor-proof.ts';
import { loginErrorText } from '../login-error.ts';
import { signedIn } from '../signed-in.ts';
import { SecondStepHelp } from './second-step-help.tsx';
import type { SecondStepTicket } from './second-step-ticket.ts';
import { TemporaryCodeForm } from './temporary-code-form.tsx';

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
            send={async () => {
              const { api, endpoints } = await loadApi();
              return api.call(endpoints.deviceCodeSend, { body: { Ticket: step.ticket } });
            }}
            prove={async (typed) => {
              const { api, endpoints } = await loadApi();
              const result = await api.call(endpoints.deviceCodeSignIn, { body: { Ticket: step.ticket, Code: typed } });
              signedIn(result, onSignedIn);
            }}
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
