import { Modal, Text } from '@mantine/core';
import { IconFingerprintOff } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Account, endpoints } from '../../shared/contract/index.ts';
import { accountQueries } from '../api/account-queries.ts';
import { peopleKeys } from '../api/people-queries.ts';
import { resetSignInMethods } from '../api/sign-in-method-queries.ts';
import { notify } from '../lib/notify.ts';
import { DialogActions } from './dialog-actions.tsx';
import { PermissionButton } from './permission-button.tsx';
import { ProblemAlert } from './problem-alert.tsx';

/**
 * The helpdesk's recovery for a person who lost their passkeys or recovery codes, or whose password someone else
 * knows: removes them all and ends the person's sessions; they add a method at their next sign-in. Nobody sees or
 * chooses the person's new factor. On the Accounts page and on the person's page; the server asks for a recent
 * second factor (step-up), which the app asks for in place while the dialog waits.
 */
export function ResetSignInMethodsButton({ account }: { account: Pick<Account, 'Id' | 'UserName'> }) {
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const reset = useMutation({
    ...resetSignInMethods,
    onSuccess: () => {
      setConfirming(false);
      notify({
        title: 'Sign-in methods reset',
        message: `${account.UserName} adds a new second factor at their next sign-in.`,
      });
      void queryClient.invalidateQueries({ queryKey: accountQueries.all });
      // The person's page shows their open sessions, which the reset ended.
      void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
    },
  });
  const close = () => {
    setConfirming(false);
    reset.reset();
  };
  return (
    <>
      <PermissionButton
        endpoint={endpoints.resetSignInMethods}
        variant="default"
        leftSection={<IconFingerprintOff size={16} />}
        onClick={() => setConfirming(true)}
      >
        Reset sign-in methods
      </PermissionButton>
      <Modal opened={confirming} onClose={close} title={`Reset the sign-in methods of ${account.UserName}?`}>
        <Text size="sm" mb="md">
          Their passkeys and recovery codes are removed and their sessions end. Their password and devices stay. They
          add a new second factor at their next sign-in.
        </Text>
        <ProblemAlert error={reset.error} mb="sm" />
        <DialogActions
          onCancel={close}
          confirmLabel="Reset sign-in methods"
          danger
          loading={reset.isPending}
          onConfirm={() => reset.mutate(account.Id)}
        />
      </Modal>
    </>
  );
}
