import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Loader,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconKey, IconLogout, IconRefresh, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type Account, type AccountHistoryEntry, endpoints } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { problemFieldError } from '../../api/field-problem.ts';
import {
  accountQueries,
  useResetAccountPassword,
  useSignOutAccount,
  useUpdateAccountEmail,
  useUpdateAccountEnabled,
} from '../../api/queries/account-queries.ts';
import { NewPasswordInput } from '../../entities/account/new-password-input.tsx';
import { ResetSignInMethodsButton } from '../../entities/account/reset-sign-in-methods.tsx';
import { ActivitySlice, useMayReadActivity } from '../../entities/activity/activity-slice.tsx';
import { PersonPageLink } from '../../entities/person/person-links.tsx';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../session/session-context.tsx';
import { DialogActions } from '../../ui/overlays/dialog-actions.tsx';
import { PermissionButton } from '../../ui/permission-button.tsx';
import { ProblemAlert } from '../../ui/problem-alert.tsx';
import { Timestamp } from '../../ui/text/timestamp.tsx';
import { AccountKindBadge, AccountSourceBadge, INSIDE_DIRECTORY_DOMAIN_NOTE } from './account-source-badge.tsx';
import { fieldError } from './create-account-dialog.tsx';
import { RotateSecretDialog } from './rotate-secret-dialog.tsx';
import { SignInMethodsNote } from './sign-in-methods-note.tsx';

const ACTION_TEXT: Record<AccountHistoryEntry['Action'], string> = {
  SignedIn: 'Signed in',
  SignInFailed: 'Failed sign-in',
  DirectoryUnavailable: 'Sign-in: directory unavailable',
  Created: 'Created',
  PermissionsChanged: 'Permissions changed',
  Disabled: 'Disabled',
  Enabled: 'Enabled',
  PasswordReset: 'Password reset',
  PasswordChanged: 'Password changed',
  PasswordChangeFailed: 'Failed password change',
  SignedOutEverywhere: 'Signed out everywhere',
  EmailChanged: 'Email changed',
  CodeReported: 'Reported a code they did not ask for',
  DeviceReported: 'Reported a new device as not theirs',
  ApiAccountCreated: 'API account created',
  SecretRotated: 'Secret rotated',
  SecondFactorAdded: 'Sign-in method added',
  SecondFactorRemoved: 'Sign-in method removed',
  SecondFactorVerified: 'Second factor verified',
  SecondFactorFailed: 'Failed second factor',
  RecoveryCodeUsed: 'Recovery code used',
  SignInMethodsReset: 'Sign-in methods reset',
  StepUp: 'Second factor verified again (step-up)',
  SecondStepAsked: 'Password accepted, second factor asked',
};

/** Failed attempts at the account's password, shown in red. */
const FAILURES: ReadonlySet<AccountHistoryEntry['Action']> = new Set([
  'SignInFailed',
  'PasswordChangeFailed',
  'SecondFactorFailed',
]);

type Pending = 'disable' | 'sign-out' | 'reset' | 'rotate' | null;

/** One account: its state, what an account administrator can do to it, and its sign-in activity. */
export function AccountDrawer({ account, onClose }: { account: Account; onClose: () => void }) {
  const { session } = useSession();
  const [pending, setPending] = useState<Pending>(null);
  const enabled = useUpdateAccountEnabled();
  const signOut = useSignOutAccount();
  const own = session?.userName.toLowerCase() === account.UserName.toLowerCase();
  const directory = account.Source === 'Directory';
  const api = account.Kind === 'Api';
  const singleSignOn = account.Source === 'Oidc';

  function setEnabled(next: boolean) {
    enabled.mutate(
      { id: account.Id, enabled: next },
      {
        onSuccess: () => {
          setPending(null);
          notify({
            title: next ? 'Account enabled' : 'Account disabled',
            message: next ? `${account.UserName} can sign in again.` : `${account.UserName} was signed out everywhere.`,
          });
        },
        onError: (error) => notify({ color: 'red', ...describeError(error) }),
      },
    );
  }

  return (
    <Drawer
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      position="right"
      size="lg"
      title={
        // The drawer's title is its heading (an h2) already: a heading inside it would nest one h2 in another.
        <Text component="span" fz="lg" fw={700}>
          {account.UserName}
        </Text>
      }
    >
      <Stack gap="md">
        <Group gap="xs">
          <AccountSourceBadge account={account} long />
          <AccountKindBadge account={account} />
          <Badge variant="dot" color={account.Enabled ? 'teal' : 'red'} tt="none">
            {account.Enabled ? 'Enabled' : 'Disabled'}
          </Badge>
          <Badge variant="default" tt="none">
            {account.ActiveSessions} active session{account.ActiveSessions === 1 ? '' : 's'}
          </Badge>
          <SignInMethodsNote account={account} />
        </Group>
        {account.InsideDirectoryDomain && (
          <Alert color="orange" title="Inside the directory’s domain">
            {INSIDE_DIRECTORY_DOMAIN_NOTE}
          </Alert>
        )}
        {api && (
          <Text size="sm">
            For scripts and the SDK: it signs in with a secret the service generated, cannot sign in to this dashboard
            and never holds Accounts permissions.{' '}
            <Text span fw={500}>
              Last used:
            </Text>{' '}
            {account.LastUsedUtc ? <Timestamp value={account.LastUsedUtc} /> : 'never'}
          </Text>
        )}
        {!api && <AccountEmail account={account} />}
        {!api && <PersonPageLink userName={account.UserName} />}
        {directory && (
          <Text size="sm" c="dimmed">
            Its password and Security permissions come from the directory and its groups, read again at every sign-in.
            Disabling it here refuses it even when the directory says yes.
          </Text>
        )}
        {singleSignOn && (
          <Text size="sm" c="dimmed">
            It signs in with single sign-on: its password is the identity provider’s, and its permissions come from its
            groups there, read again at every sign-in. Disabling it here refuses it even when the provider says yes.
          </Text>
        )}
        <Group gap="xs">
          {account.Enabled ? (
            <DisabledWhen reason={own ? 'You cannot disable your own account' : null}>
              <PermissionButton
                endpoint={endpoints.updateAccountEnabled}
                color="red"
                variant="light"
                leftSection={<IconUserOff size={16} />}
                onClick={() => setPending('disable')}
              >
                Disable
              </PermissionButton>
            </DisabledWhen>
          ) : (
            <PermissionButton
              endpoint={endpoints.updateAccountEnabled}
              variant="light"
              leftSection={<IconUserCheck size={16} />}
              loading={enabled.isPending}
              onClick={() => setEnabled(true)}
            >
              Enable
            </PermissionButton>
          )}
          {api ? (
            <PermissionButton
              endpoint={endpoints.rotateAccountSecret}
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => setPending('rotate')}
            >
              Rotate secret
            </PermissionButton>
          ) : (
            <DisabledWhen
              reason={
                directory
                  ? 'Directory passwords are changed in the directory'
                  : singleSignOn
                    ? 'Single sign-on passwords are changed at the identity provider'
                    : null
              }
            >
              <PermissionButton
                endpoint={endpoints.resetAccountPassword}
                variant="default"
                leftSection={<IconKey size={16} />}
                onClick={() => setPending('reset')}
              >
                Reset password
              </PermissionButton>
            </DisabledWhen>
          )}
          <PermissionButton
            endpoint={endpoints.signOutAccount}
            variant="default"
            leftSection={<IconLogout size={16} />}
            onClick={() => setPending('sign-out')}
          >
            Sign out everywhere
          </PermissionButton>
          <ResetSignInMethodsButton account={account} />
        </Group>
        <AccountActivity id={account.Id} />
        <AccountSecurityEvents userName={account.UserName} />
      </Stack>
      <Modal opened={pending === 'disable'} onClose={() => setPending(null)} title={`Disable ${account.UserName}?`}>
        <Text size="sm" mb="md">
          Their sessions end at once and they cannot sign in until the account is enabled again.
        </Text>
        <DialogActions
          onCancel={() => setPending(null)}
          confirmLabel="Disable account"
          danger
          loading={enabled.isPending}
          onConfirm={() => setEnabled(false)}
        />
      </Modal>
      <Modal
        opened={pending === 'sign-out'}
        onClose={() => setPending(null)}
        title={`Sign ${account.UserName} out everywhere?`}
      >
        <Text size="sm" mb="md">
          Every session of this account ends at once, in every browser and client. They can sign in again.
        </Text>
        <DialogActions
          onCancel={() => setPending(null)}
          confirmLabel="Sign out everywhere"
          danger
          loading={signOut.isPending}
          onConfirm={() =>
            signOut.mutate(account.Id, {
              onSuccess: () => {
                setPending(null);
                notify({ title: 'Signed out everywhere', message: account.UserName });
              },
              onError: (error) => notify({ color: 'red', ...describeError(error) }),
            })
          }
        />
      </Modal>
      {pending === 'reset' && <ResetPasswordDialog account={account} onClose={() => setPending(null)} />}
      {pending === 'rotate' && <RotateSecretDialog account={account} onClose={() => setPending(null)} />}
    </Drawer>
  );
}

/** Wraps a permission button that is also off for a reason of this account (own account, directory account). */
function DisabledWhen({ reason, children }: { reason: string | null; children: React.ReactNode }) {
  if (reason === null) return children;
  return (
    <Button
      variant="default"
      data-disabled
      aria-disabled="true"
      title={reason}
      aria-description={reason}
      onClick={(event) => event.preventDefault()}
    >
      {(children as React.ReactElement<{ children: React.ReactNode }>).props.children}
    </Button>
  );
}

/**
 * The account's email address: what its devices' authorization requests carry as UserEmail. A local account's is set
 * here; a directory account's comes from the directory at each sign-in.
 */
function AccountEmail({ account }: { account: Account }) {
  const update = useUpdateAccountEmail();
  const current = account.Email ?? '';
  const [value, setValue] = useState(current);
  const changed = value.trim() !== current;
  if (account.Source !== 'Local') {
    return (
      <Text size="sm">
        <Text span fw={500}>
          Email:
        </Text>{' '}
        {current || (
          <Text span c="dimmed">
            {account.Source === 'Directory' ? 'none in the directory' : 'none from the identity provider'}
          </Text>
        )}
      </Text>
    );
  }
  function save() {
    if (!changed) return;
    const email = value.trim() || null;
    update.mutate(
      { id: account.Id, email },
      {
        onSuccess: () =>
          notify({
            title: email ? 'Email changed' : 'Email removed',
            message: email ? `${account.UserName}: ${email}` : account.UserName,
          }),
      },
    );
  }
  const emailError = fieldError(update.error, 'Email');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      noValidate
      aria-label="Email"
    >
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <TextInput
          label="Email"
          description="Shown with their devices' requests; leave empty for none"
          type="email"
          autoComplete="off"
          value={value}
          error={emailError}
          onChange={(event) => setValue(event.currentTarget.value)}
          style={{ flex: 1 }}
        />
        <PermissionButton
          endpoint={endpoints.updateAccountEmail}
          onClick={save}
          variant="default"
          mt={46}
          loading={update.isPending}
          disabled={!changed}
        >
          Save
        </PermissionButton>
      </Group>
      {update.error && !emailError && <ProblemAlert error={update.error} />}
    </form>
  );
}

function ResetPasswordDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const reset = useResetAccountPassword();
  const [password, setPassword] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    reset.mutate(
      { id: account.Id, password },
      {
        onSuccess: () => {
          notify({ title: 'Password reset', message: `${account.UserName} was signed out everywhere.` });
          onClose();
        },
      },
    );
  }
  const passwordError = problemFieldError(reset.error, 'Password', {
    labels: { Password: 'New password' },
  });
  const other = reset.error && !passwordError ? describeError(reset.error) : null;
  return (
    <Modal opened onClose={onClose} title={`Reset the password of ${account.UserName}`}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <NewPasswordInput
            label="New password"
            hint="Their sessions end."
            data-autofocus
            value={password}
            error={passwordError}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <ProblemAlert error={other ? reset.error : null} />
          <DialogActions
            onCancel={onClose}
            confirmLabel="Reset password"
            loading={reset.isPending}
            disabled={password.length === 0}
          />
        </Stack>
      </form>
    </Modal>
  );
}

function AccountActivity({ id }: { id: number }) {
  const query = useQuery(accountQueries.history(id));
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Sign-in activity and changes
      </Title>
      {query.isPending ? (
        <Loader size="sm" aria-label="Loading activity" />
      ) : query.isError ? (
        <Alert color="red" title={describeError(query.error).title}>
          {describeError(query.error).message}
        </Alert>
      ) : query.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing yet: no sign-in and no change.
        </Text>
      ) : (
        <Table striped verticalSpacing={4} fz="sm" aria-label="Account activity">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>What</Table.Th>
              <Table.Th>Details</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {query.data.map((entry) => (
              <Table.Tr key={entry.Id}>
                <Table.Td>
                  <Timestamp value={entry.ChangedTimestampUtc} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={FAILURES.has(entry.Action) ? 'red' : undefined} fw={500}>
                    {ACTION_TEXT[entry.Action]}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {[
                      entry.Detail,
                      entry.ChangedBy && entry.Action !== 'SignedIn' && entry.Action !== 'SignInFailed'
                        ? `by ${entry.ChangedBy}`
                        : null,
                      entry.ClientAddress ? `from ${entry.ClientAddress}` : null,
                      entry.Consumer ? `via ${entry.Consumer}` : null,
                      entry.Action === 'SignInFailed' || entry.Action === 'SignedIn' ? `as "${entry.UserName}"` : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** The newest security events that concern this account's person (their sign-ins, changes made to them, devices). */
function AccountSecurityEvents({ userName }: { userName: string }) {
  if (!useMayReadActivity()) return null;
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        Security events
      </Title>
      <ActivitySlice filter={{ person: userName }} what="this account" />
    </Stack>
  );
}
