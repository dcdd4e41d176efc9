import { Group, Text } from '@mantine/core';
import { IconDeviceMobilePlus, IconLogout, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { endpoints, type Person } from '../../../shared/contract/index.ts';
import { useSignOutAccount, useUpdateAccountEnabled } from '../../api/account-queries.ts';
import { describeError } from '../../api/describe-error.ts';
import { confirmAction } from '../../components/confirm-action.tsx';
import { PermissionButton } from '../../components/permission-button.tsx';
import { ResetSignInMethodsButton } from '../../components/reset-sign-in-methods.tsx';
import { notify } from '../../lib/notify.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { ActionsIntro } from './person-outline.tsx';
import { PersonSection } from './person-section.tsx';

const AddDeviceDialog = lazy(() =>
  import('../../components/app-shell/add-device-dialog.tsx').then((module) => ({ default: module.AddDeviceDialog })),
);

const failed = (what: string) => (error: Error) => {
  const { title, message } = describeError(error);
  notify({ color: 'red', title: `Could not ${what}: ${title}`, message });
};

/**
 * What the helpdesk does for a person, each button refused (with the reason) where the signed-in person may not:
 * enrol a phone for them (Write on Security), and with Write on Accounts sign them out everywhere or disable their
 * account. Resetting their sign-in methods is offered only to those who may (Write on Accounts), for a person whose
 * account they can see. Devices and requests have their own actions where they are listed.
 */
export function PersonActions({ person }: { person: Person }) {
  const [enrolling, setEnrolling] = useState(false);
  const signOut = useSignOutAccount();
  const setEnabled = useUpdateAccountEnabled();
  const account = person.Account;
  const enabled = account?.Enabled ?? true;
  const name = person.UserName;
  const { session } = useSession();
  const mayReset = account !== null && endpointAccess(session, endpoints.resetSignInMethods).allowed;

  return (
    <PersonSection title="Actions" id="person-actions">
      <ActionsIntro />
      <Group gap="sm">
        <PermissionButton
          endpoint={endpoints.createPersonEnrollmentLink}
          leftSection={<IconDeviceMobilePlus size={16} />}
          disabled={!person.HasAccount || !enabled}
          onClick={() => setEnrolling(true)}
        >
          Enrol a device for them
        </PermissionButton>
        {person.HasAccount && (
          <>
            <PermissionButton
              endpoint={endpoints.signOutAccount}
              variant="default"
              leftSection={<IconLogout size={16} />}
              loading={signOut.isPending}
              onClick={() =>
                account &&
                confirmAction({
                  title: `Sign ${name} out everywhere?`,
                  children: `Every session of ${name} ends now, in every browser and script. They can sign in again with their password.`,
                  confirm: 'Sign out everywhere',
                  onConfirm: () =>
                    signOut.mutate(account.Id, {
                      onSuccess: () =>
                        notify({
                          color: 'green',
                          title: 'Signed out everywhere',
                          message: `${name} has no session now.`,
                        }),
                      onError: failed('sign them out'),
                    }),
                })
              }
            >
              Sign out everywhere
            </PermissionButton>
            <PermissionButton
              endpoint={endpoints.updateAccountEnabled}
              variant={enabled ? 'filled' : 'default'}
              color={enabled ? 'red.9' : undefined}
              leftSection={enabled ? <IconUserOff size={16} /> : <IconUserCheck size={16} />}
              loading={setEnabled.isPending}
              onClick={() =>
                account &&
                confirmAction({
                  title: enabled ? `Disable ${name}'s account?` : `Enable ${name}'s account?`,
                  children: enabled
                    ? `${name} can no longer sign in; their sessions end and their enrolled devices stop working for good (they enrol again once enabled).`
                    : `${name} can sign in again with their password.`,
                  confirm: enabled ? 'Disable account' : 'Enable account',
                  destructive: enabled,
                  onConfirm: () =>
                    setEnabled.mutate(
                      { id: account.Id, enabled: !enabled },
                      {
                        onSuccess: () =>
                          notify({
                            color: enabled ? 'orange' : 'green',
                            title: enabled ? 'Account disabled' : 'Account enabled',
                            message: `${name} ${enabled ? 'can no longer sign in' : 'can sign in again'}.`,
                          }),
                        onError: failed(enabled ? 'disable the account' : 'enable the account'),
                      },
                    ),
                })
              }
            >
              {enabled ? 'Disable account' : 'Enable account'}
            </PermissionButton>
          </>
        )}
        {mayReset && <ResetSignInMethodsButton account={account} />}
      </Group>
      {!person.HasAccount && (
        <Text size="sm" c="dimmed" mt="sm">
          {name} has no account here, so no device can be enrolled for them: create their account on the Accounts page,
          or connect the directory they sign in with.
        </Text>
      )}
      {person.HasAccount && !enabled && (
        <Text size="sm" c="dimmed" mt="sm">
          Their account is disabled: enable it before enrolling a device for them.
        </Text>
      )}
      {enrolling && (
        <Suspense fallback={null}>
          <AddDeviceDialog forPerson={name} onClose={() => setEnrolling(false)} />
        </Suspense>
      )}
    </PersonSection>
  );
}
