import { Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useCreateAccount } from '../../api/queries/account-queries.ts';
import { peopleKeys } from '../../api/queries/people-queries.ts';
import { NewPasswordInput } from '../../entities/account/new-password-input.tsx';
import { notify } from '../../lib/notify.ts';
import { sheetProps, usePhone } from '../../lib/use-phone.ts';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { UserText } from '../../ui/text/user-text.tsx';

/**
 * The helpdesk creates the account of a person the service does not know yet, with no permissions, so that a phone
 * can be enrolled for them: nothing here grants anything (that is the Accounts page's, with Write on Accounts).
 */
export function CreatePersonAccountDialog({ userName, onClose }: { userName: string; onClose: () => void }) {
  const phone = usePhone();
  const create = useCreateAccount();
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { UserName: userName, Password: password, Permissions: { Security: [], Accounts: [] }, Kind: 'Person' },
      {
        onSuccess: (account) => {
          notify({ title: 'Account created', message: `${account.UserName} can sign in now, with no permissions.` });
          void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
          onClose();
        },
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title="Create their account" size="md" {...sheetProps(phone)}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            <UserText>{userName}</UserText> gets an account with no permissions: they can sign in, enrol their phone and
            answer codes, and see or change nothing else.
          </Text>
          <NewPasswordInput
            label="Initial password"
            hint="Tell it to them; they can change it after signing in."
            value={password}
            data-autofocus
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <ProblemAlert error={create.error} />
          <DialogActions
            onCancel={onClose}
            confirmLabel="Create account"
            loading={create.isPending}
            disabled={password.length === 0}
          />
        </Stack>
      </form>
    </Modal>
  );
}
