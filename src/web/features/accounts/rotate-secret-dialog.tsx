import { Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Account } from '../../../shared/contract/index.ts';
import { useRotateAccountSecret } from '../../api/queries/account-queries.ts';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { SecretOnce } from './secret-once.tsx';

/** Asks before an API account's secret is replaced, then shows the new one once. */
export function RotateSecretDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const rotate = useRotateAccountSecret();
  const [secret, setSecret] = useState<string | null>(null);
  if (secret !== null) {
    return (
      <Modal
        opened
        onClose={onClose}
        closeOnEscape={false}
        closeOnClickOutside={false}
        withCloseButton={false}
        title={`New secret for ${account.UserName}`}
        size="lg"
      >
        <SecretOnce userName={account.UserName} secret={secret} onDone={onClose} />
      </Modal>
    );
  }
  return (
    <Modal opened onClose={onClose} title={`Rotate the secret of ${account.UserName}?`}>
      <Stack gap="sm">
        <Text size="sm">
          The current secret stops working at once and every session it opened ends. Scripts and SDK clients that use it
          fail until they are given the new one.
        </Text>
        <ProblemAlert error={rotate.error} />
        <DialogActions
          onCancel={onClose}
          confirmLabel="Rotate secret"
          danger
          loading={rotate.isPending}
          onConfirm={() => rotate.mutate(account.Id, { onSuccess: (answer) => setSecret(answer.Secret) })}
        />
      </Stack>
    </Modal>
  );
}
