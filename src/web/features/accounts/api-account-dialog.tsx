import { Checkbox, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { CreatedAccount, Permission } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useCreateAccount } from '../../api/queries/account-queries.ts';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { fieldError } from './create-account-dialog.tsx';
import { SecretOnce } from './secret-once.tsx';

const SECURITY: ReadonlyArray<[Permission, string]> = [
  ['Read', 'See authorization requests and push users'],
  ['Write', 'Decide requests, change push users'],
];

/**
 * Adds an API account for a script or the SDK: a name and Security permissions (never Accounts ones). The service
 * generates its secret, shown here once.
 */
export function ApiAccountDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: number) => void }) {
  const create = useCreateAccount();
  const [userName, setUserName] = useState('');
  const [security, setSecurity] = useState<Permission[]>(['Read']);
  const [created, setCreated] = useState<CreatedAccount | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { UserName: userName.trim(), Kind: 'Api', Permissions: { Security: security, Accounts: [] } },
      { onSuccess: (account) => setCreated(account) },
    );
  }
  function done() {
    onClose();
    if (created) onCreated(created.Id);
  }
  const problem = create.error;
  const userNameError =
    fieldError(problem, 'UserName') ??
    (isApiError(problem) && problem.kind === 'account-exists' ? problem.detail : undefined);
  const other = problem && !userNameError ? describeError(problem) : null;

  if (created?.Secret) {
    return (
      // Closing by Escape or the backdrop would lose the secret unseen: only the button closes it.
      <Modal
        opened
        onClose={done}
        closeOnEscape={false}
        closeOnClickOutside={false}
        withCloseButton={false}
        title={`API account ${created.UserName} created`}
        size="lg"
      >
        <SecretOnce userName={created.UserName} secret={created.Secret} onDone={done} />
      </Modal>
    );
  }
  return (
    <Modal opened onClose={onClose} title="Add an API account" size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            For a script or the published SDK. The service generates its secret and shows it once. An API account cannot
            sign in to this dashboard and never holds Accounts permissions.
          </Text>
          <TextInput
            label="User name"
            description="DOMAIN\name, as the script will send it"
            placeholder="SVC\nightly-sync"
            required
            data-autofocus
            value={userName}
            error={userNameError}
            onChange={(event) => setUserName(event.currentTarget.value)}
          />
          <Text size="sm" fw={500}>
            Security permissions
          </Text>
          {SECURITY.map(([permission, help]) => (
            <Checkbox
              key={permission}
              label={`Security ${permission}`}
              description={help}
              checked={security.includes(permission)}
              onChange={() =>
                setSecurity((current) =>
                  current.includes(permission)
                    ? current.filter((item) => item !== permission)
                    : [...current, permission],
                )
              }
            />
          ))}
          <ProblemAlert error={other ? problem : null} />
          <DialogActions
            mt="sm"
            onCancel={onClose}
            confirmLabel="Create API account"
            loading={create.isPending}
            disabled={!userName.trim()}
          />
        </Stack>
      </form>
    </Modal>
  );
}
