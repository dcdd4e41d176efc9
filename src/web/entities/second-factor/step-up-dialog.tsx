import { Button, Divider, Modal, Stack, Text } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { loadApi } from '../../api/load-api.ts';
import { stepUpWithPasskey } from '../../api/passkey-ceremonies.ts';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { DeviceCodeProof } from './device-code-proof.tsx';
import { RecoveryCodeForm } from './recovery-code-form.tsx';
import { useSecondFactorProof } from './use-second-factor-proof.ts';

/** The step-up's proofs, each of which settles the waiting action's call (StepUpHost). */
export function StepUpDialog({ onDone }: { onDone: (proved: boolean) => void }) {
  const proof = useSecondFactorProof();
  const { busy, error } = proof;
  const prove = (how: () => Promise<unknown>) =>
    proof.prove(async () => {
      await how();
      onDone(true);
    });

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
          send={async () => {
            const { api, endpoints } = await loadApi();
            return api.call(endpoints.stepUpDeviceCode);
          }}
          prove={async (typed) => {
            const { api, endpoints } = await loadApi();
            await api.call(endpoints.stepUp, { body: { DeviceCode: typed } });
            onDone(true);
          }}
          disabled={busy}
        />
        <Divider label="or" labelPosition="center" />
        <RecoveryCodeForm
          busy={busy}
          onSubmit={(typed) =>
            void prove(async () => {
              const { api, endpoints } = await loadApi();
              return api.call(endpoints.stepUp, { body: { RecoveryCode: typed } });
            })
          }
        />
        <ProblemAlert error={error} />
      </Stack>
    </Modal>
  );
}
