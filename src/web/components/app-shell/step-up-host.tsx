import { Button, Divider, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { sendStepUpDeviceCode, stepUpWithDeviceCode } from '../../api/device-code-proofs.ts';
import { stepUpWithPasskey, stepUpWithRecoveryCode } from '../../api/passkey-ceremonies.ts';
import { handleStepUp } from '../../api/step-up.ts';
import { DeviceCodeProof } from '../device-code-proof.tsx';
import { ProblemAlert } from '../problem-alert.tsx';
import { useSecondFactorProof } from '../use-second-factor-proof.ts';

/**
 * Asks for a second factor in place when an action needs a recent one (403 step-up-required): a passkey, a code
 * sent to the person's phone, or a recovery code. The action's call waits meanwhile and goes again once it is proved, so its dialog and what was typed
 * in it stay as they were.
 */
export function StepUpHost() {
  const [pending, setPending] = useState(false);
  const settle = useRef<((proved: boolean) => void) | null>(null);
  useEffect(
    () =>
      handleStepUp(
        () =>
          new Promise<boolean>((resolve) => {
            settle.current?.(false);
            settle.current = resolve;
            setPending(true);
          }),
      ),
    [],
  );
  const finish = (proved: boolean) => {
    settle.current?.(proved);
    settle.current = null;
    setPending(false);
  };
  if (!pending) return null;
  return <StepUpDialog onDone={finish} />;
}

function StepUpDialog({ onDone }: { onDone: (proved: boolean) => void }) {
  const [code, setCode] = useState('');
  const proof = useSecondFactorProof();
  const { busy, error } = proof;
  const prove = (how: () => Promise<unknown>) =>
    proof.prove(async () => {
      await how();
      onDone(true);
    });

  function submitCode(event: FormEvent) {
    event.preventDefault();
    if (code.trim()) void prove(() => stepUpWithRecoveryCode(code.trim()));
  }

  return (
    <Modal opened onClose={() => onDone(false)} title="Confirm it is you" zIndex={400}>
      <Stack gap="sm">
        <Text size="sm">This action needs your second factor again. Then it goes ahead as you asked.</Text>
        <Button
          leftSection={<IconFingerprint size={18} />}
          onClick={() => void prove(stepUpWithPasskey)}
          loading={busy}
          data-autofocus
        >
          Use a passkey
        </Button>
        <Divider label="or" labelPosition="center" />
        <DeviceCodeProof
          send={sendStepUpDeviceCode}
          prove={async (typed) => {
            await stepUpWithDeviceCode(typed);
            onDone(true);
          }}
          disabled={busy}
        />
        <Divider label="or" labelPosition="center" />
        <form onSubmit={submitCode}>
          <Stack gap="xs">
            <TextInput
              label="Recovery code"
              autoComplete="one-time-code"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Button type="submit" variant="default" disabled={!code.trim() || busy}>
              Use the recovery code
            </Button>
          </Stack>
        </form>
        <ProblemAlert error={error} />
      </Stack>
    </Modal>
  );
}
