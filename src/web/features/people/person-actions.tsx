import { Group, Text } from '@mantine/core';
import {
  IconDeviceMobileOff,
  IconDeviceMobilePlus,
  IconKey,
  IconLogout,
  IconUserCheck,
  IconUserOff,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { type Endpoint, endpoints, type Person, permissionAccess } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useSignOutAccount, useUpdateAccountEnabled } from '../../api/queries/account-queries.ts';
import { peopleKeys, useDisablePersonDevices } from '../../api/queries/people-queries.ts';
import { ResetSignInMethodsButton } from '../../entities/account/reset-sign-in-methods.tsx';
import { notify } from '../../lib/notify.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { confirmAction } from '../../ui/overlays/confirm-action.tsx';
import { PermissionButton } from '../../ui/permission-button.tsx';
import { ActionsIntro } from './person-outline.tsx';
import { PersonSection } from './person-section.tsx';

const AddDeviceDialog = lazy(() =>
  import('../../entities/device/add-device-dialog.tsx').then((module) => ({ default: module.AddDeviceDialog })),
);

const TemporaryCodeDialog = lazy(() =>
  import('./temporary-codes/temporary-code-dialog.tsx').then((module) => ({ default: module.TemporaryCodeDialog })),
);

const failed = (what: string) => (error: Error) => {
  const { title, message } = describeError(error);
  notify({ color: 'red', title: `Could not ${what}: ${title}`, message });
};

/**
 * What the helpdesk does for a person, each button refused (with the reason) where the signed-in person may not:
 * enrol a phone for them, disable their devices (Write on Security), and with Write on Accounts, or Contain for a
 * person who holds no Accounts permission, sign them out everywhere, disable their account, reset their sign-in
 * methods and give them a temporary code. Devices and requests have their own actions where they are listed.
 */
export function PersonActions({ person }: { person: Person }) {
  const [enrolling, setEnrolling] = useState(false);
  const [issuing, setIssuing] = useState(false);
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
  const signOut = useSignOutAccount();
  const setEnabled = useUpdateAccountEnabled();
  const disableDevices = useDisablePersonDevices(person.UserName);
  // What containment needs of the account comes to every reader; the full account only with Read on Accounts.
  const account = person.AccountState ?? (person.Account && { ...person.Account, Protected: false });
  const enabled = account?.Enabled ?? true;
  const name = person.UserName;
  const { session } = useSession();
  const activeDevices = person.Devices.filter((device) => device.Status === 1).length;
  /** An administrator's account is out of reach of those who act on it by Contain alone. */
  const outOfReach = (endpoint: Endpoint) =>
    account?.Protected === true && permissionAccess(session?.permissions ?? [], endpoint.access) === 'containment';
  const protectedAccount = outOfReach(endpoints.signOutAccount);
  const mayReset =
    account !== null && endpointAccess(session, endpoints.resetSignInMethods).allowed && !protectedAccount;

  return (
    <PersonSection title="Actions" id="person-actions">
      <ActionsIntro />
      <Group gap="sm">
        <PermissionButton
          endpoint={endpoints.createPersonEnrollmentLink}
          leftSection={<IconDeviceMobilePlus size={16} />}
          disabled={!person.HasAccount || !enabled || outOfReach(endpoints.createPersonEnrollmentLink)}
          onClick={() => setEnrolling(true)}
        >
          Enrol a device for them
        </PermissionButton>
        {person.Devices.length > 0 && (
          <PermissionButton
            endpoint={endpoints.disablePersonDevices}
            variant="default"
            leftSection={<IconDeviceMobileOff size={16} />}
            loading={disableDevices.isPending}
            disabled={activeDevices === 0 || outOfReach(endpoints.disablePersonDevices)}
            onClick={() =>
              confirmAction({
                title: `Disable ${name}'s devices?`,
                children: `Their ${activeDevices} active device${activeDevices === 1 ? '' : 's'} stop receiving codes now. Each can be made Active again from its own page.`,
                confirm: 'Disable devices',
                onConfirm: () =>
                  disableDevices.mutate(undefined, {
                    onSuccess: ({ Disabled }) =>
                      notify({
                        color: 'orange',
                        title: 'Devices disabled',
                        message: `${Disabled} device${Disabled === 1 ? '' : 's'} of ${name} disabled.`,
                      }),
                    onError: failed('disable their devices'),
                  }),
              })
            }
          >
            Disable devices
          </PermissionButton>
        )}
        {person.HasAccount && (
          <>
            <PermissionButton
              endpoint={endpoints.signOutAccount}
              variant="default"
              leftSection={<IconLogout size={16} />}
              loading={signOut.isPending}
              disabled={protectedAccount}
              onClick={() =>
                account &&
                confirmAction({
                  title: `Sign ${name} out everywhere?`,
                  children: `Every session of ${name} ends now, in every browser and script. They can sign in again with their password.`,
                  confirm: 'Sign out everywhere',
                  onConfirm: () =>
                    signOut.mutate(account.Id, {
                      onSuccess: () => {
                        refresh();
                        notify({
                          color: 'green',
                          title: 'Signed out everywhere',
                          message: `${name} has no session now.`,
                        });
                      },
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
              disabled={protectedAccount}
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
                        onSuccess: () => {
                          refresh();
                          notify({
                            color: enabled ? 'orange' : 'green',
                            title: enabled ? 'Account disabled' : 'Account enabled',
                            message: `${name} ${enabled ? 'can no longer sign in' : 'can sign in again'}.`,
                          });
                        },
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
        {mayReset && <ResetSignInMethodsButton account={{ Id: account.Id, UserName: name }} />}
        {person.HasAccount && account?.Kind !== 'Api' && (
          <PermissionButton
            endpoint={endpoints.issueTemporaryCode}
            variant="default"
            leftSection={<IconKey size={16} />}
            disabled={!enabled || outOfReach(endpoints.issueTemporaryCode)}
            onClick={() => setIssuing(true)}
          >
            Temporary code
          </PermissionButton>
        )}
      </Group>
      {protectedAccount && (
        <Text size="sm" c="dimmed" mt="sm">
          {name} holds Accounts permissions: only someone with Write on Accounts signs them out, disables their account
          or gives them a temporary code.
        </Text>
      )}
      {!person.HasAccount && (
        <Text size="sm" c="dimmed" mt="sm">
          {name} has no account here, so no device can be enrolled for them: create their account on the Accounts page,
          or connect the directory they sign in with.
        </Text>
      )}
      {person.HasAccount && !enabled && (
        <Text size="sm" c="dimmed" mt="sm">
          Their account is disabled: enable it before enrolling a device for them or giving them a temporary code.
        </Text>
      )}
      {issuing && (
        <Suspense fallback={null}>
          <TemporaryCodeDialog userName={name} onClose={() => setIssuing(false)} />
        </Suspense>
      )}
      {enrolling && (
        <Suspense fallback={null}>
          <AddDeviceDialog forPerson={name} onClose={() => setEnrolling(false)} />
        </Suspense>
      )}
    </PersonSection>
  );
}
