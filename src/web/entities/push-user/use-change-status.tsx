import { Text } from '@mantine/core';
import { type PushMessageUser, type PushUserStatus, statusName } from '../../../shared/contract/index.ts';
import { describeError } from '../../api/core/describe-error.ts';
import { useUpdatePushUser } from '../../api/queries/mutations.ts';
import { whenModalsHostMounted } from '../../lib/modals-host.ts';
import { notify } from '../../lib/notify.ts';
import { focusedElement, giveFocusBack } from '../../lib/use-focus-return.ts';
import { isPhone, sheetProps } from '../../lib/use-phone.ts';
import { UserText } from '../../ui/text/user-text.tsx';
import { PUSH_USER_STATUS_LOOK } from './push-user-status.ts';

/** Applies a status at once with a toast; Delete asks first, naming the user and device. */
export function useChangeStatus() {
  const mutation = useUpdatePushUser({
    onSuccess: (updated) =>
      notify({
        color: 'green',
        title: `Status set to ${statusName(updated.Status)}`,
        message: `${updated.UserName} on ${updated.DeviceType} is now ${statusName(updated.Status).toLowerCase()}.`,
      }),
    onError: (error) => {
      const { title, message } = describeError(error);
      notify({ color: 'red', title: `Could not change status: ${title}`, message });
    },
  });

  function apply(user: PushMessageUser, status: PushUserStatus) {
    mutation.mutate({ Id: user.Id, Status: status });
  }

  /**
   * `returnFocusTo`: where focus goes when the Delete confirmation closes (confirmed or not). By default the element
   * focused now; a menu passes its button, since the item it was chosen from is gone by then.
   */
  function change(user: PushMessageUser, status: PushUserStatus, returnFocusTo?: HTMLElement | null) {
    if (status === user.Status) return;
    const opener = returnFocusTo ?? focusedElement();
    if (!PUSH_USER_STATUS_LOOK[status].destructive) {
      apply(user, status);
      return;
    }
    // On demand, like the toasts (lib/notify.ts): the modals package stays out of the list's first download. A click
    // made before the modals host has loaded waits for it (lib/modals-host.ts).
    void Promise.all([import('@mantine/modals'), whenModalsHostMounted()]).then(([{ modals }]) =>
      modals.openConfirmModal({
        title: <Text fw={650}>Delete this push user?</Text>,
        children: (
          <Text size="sm">
            <Text span fw={600}>
              <UserText>{user.UserName}</UserText>
            </Text>{' '}
            on{' '}
            <Text span fw={600}>
              <UserText>{user.DeviceType}</UserText>
            </Text>{' '}
            (registration #{user.Id}) will stop receiving push messages, including two-factor tokens. The registration
            stays listed as Deleted and can be made active again.
          </Text>
        ),
        labels: { confirm: 'Delete', cancel: 'Cancel' },
        // red.9: white on the default red misses AA contrast.
        confirmProps: { color: 'red.9' },
        ...sheetProps(isPhone()),
        onConfirm: () => apply(user, status),
        returnFocus: false,
        onClose: () => giveFocusBack(opener),
      }),
    );
  }

  return { change };
}
