import { Checkbox, Modal, Radio, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { AccountCreation, type AccountPermissions, PASSWORD_MIN_LENGTH } from '../../../shared/contract/index.ts';
import { isApiError } from '../../api/core/api-error.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { problemFieldError } from '../../api/field-problem.ts';
import { useCreateAccount } from '../../api/queries/account-queries.ts';
import { NewPasswordInput } from '../../entities/account/new-password-input.tsx';
import { checkFields, type FieldErrors, type FieldWords } from '../../lib/field-errors.ts';
import { notify } from '../../lib/notify.ts';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { GRANTS, toggled } from './account-permissions.ts';

const NO_PERMISSIONS: AccountPermissions = { Security: [], Accounts: [] };

/** The fields as this form names them: errors say "User name", never the API's `UserName`. */
export const ACCOUNT_FIELD_WORDS: FieldWords<'UserName' | 'Password' | 'Email'> = {
  labels: { UserName: 'User name', Password: 'Initial password', Email: 'Email' },
  shapes: {
    UserName: 'look like DOMAIN\\user: a domain, a backslash, then the name',
    Email: 'be an email address, like jo@acme.example',
  },
};

/** The error of one field, from a validation problem's `errors`, in the form's words. */
export function fieldError(error: unknown, path: 'UserName' | 'Password' | 'Email'): string | undefined {
  return problemFieldError(error, path, ACCOUNT_FIELD_WORDS);
}

export function CreateAccountDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (id: number) => void }) {
  const create = useCreateAccount();
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  // New accounts start with no permissions: granting any is a choice made here, on purpose.
  const [choosing, setChoosing] = useState(false);
  const [permissions, setPermissions] = useState<AccountPermissions>(NO_PERMISSIONS);
  const tooShort = password.length > 0 && [...password].length < PASSWORD_MIN_LENGTH;
  const [checked, setChecked] = useState<FieldErrors<'UserName' | 'Password' | 'Email'>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const body = {
      UserName: userName.trim(),
      Password: password,
      ...(email.trim() ? { Email: email.trim() } : {}),
      Permissions: choosing ? permissions : NO_PERMISSIONS,
      Kind: 'Person' as const,
    };
    // The contract's own schema, checked here first: the form says what is wrong in its words, beside the field.
    const errors = checkFields(AccountCreation, body, ACCOUNT_FIELD_WORDS);
    setChecked(errors);
    if (Object.keys(errors).length > 0) return;
    create.mutate(body, {
      onSuccess: (account) => {
        notify({ title: 'Account created', message: `${account.UserName} can sign in now.` });
        onClose();
        onCreated(account.Id);
      },
    });
  }
  const problem = create.error;
  const userNameError =
    checked.UserName ??
    fieldError(problem, 'UserName') ??
    (isApiError(problem) && problem.kind === 'account-exists' ? problem.detail : undefined);
  const passwordError = checked.Password ?? fieldError(problem, 'Password');
  const emailError = checked.Email ?? fieldError(problem, 'Email');
  const other = problem && !userNameError && !passwordError && !emailError ? describeError(problem) : null;

  return (
    <Modal opened onClose={onClose} title="Create a local account" size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="User name"
            description="DOMAIN\user, as the person will type it"
            placeholder="ACME\jo.helpdesk"
            required
            data-autofocus
            value={userName}
            error={userNameError}
            onChange={(event) => {
              setUserName(event.currentTarget.value);
              setChecked(({ UserName: _, ...rest }) => rest);
            }}
          />
          <TextInput
            label="Email"
            description="Optional: what their devices' authorization requests show administrators"
            type="email"
            autoComplete="off"
            placeholder="jo@acme.example"
            value={email}
            error={emailError}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setChecked(({ Email: _, ...rest }) => rest);
            }}
          />
          <NewPasswordInput
            label="Initial password"
            hint="A few unrelated words work well; they can change it after signing in."
            value={password}
            error={passwordError ?? (tooShort ? `At least ${PASSWORD_MIN_LENGTH} characters` : undefined)}
            onChange={(event) => {
              setPassword(event.currentTarget.value);
              setChecked(({ Password: _, ...rest }) => rest);
            }}
          />
          <Radio.Group
            label="Permissions"
            value={choosing ? 'choose' : 'none'}
            onChange={(value) => setChoosing(value === 'choose')}
          >
            <Stack gap="xs" mt={4}>
              <Radio
                value="none"
                label="None"
                description="A person who signs in to enrol their phone and answer codes: they see and change nothing here"
              />
              <Radio value="choose" label="Choose permissions" />
            </Stack>
          </Radio.Group>
          {choosing &&
            GRANTS.map(([entity, permission, help]) => (
              <Checkbox
                key={`${entity}-${permission}`}
                label={`${entity} ${permission}`}
                description={help}
                checked={(permissions[entity] as readonly string[]).includes(permission)}
                onChange={() => setPermissions((current) => toggled(current, entity, permission))}
              />
            ))}
          <ProblemAlert error={other ? problem : null} />
          <DialogActions
            mt="sm"
            onCancel={onClose}
            confirmLabel="Create account"
            loading={create.isPending}
            disabled={!userName.trim() || password.length === 0}
          />
        </Stack>
      </form>
    </Modal>
  );
}
