import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  type PushMessageUser,
  type PushUserStatus,
  PushUserStatusCode,
  statusName,
} from '../../../../shared/contract/index.ts';
import { pushUsersChanged } from '../../../api/live/cache-updates.ts';
import { updatePushUser } from '../../../api/queries/mutations.ts';
import { PUSH_USER_STATUS_LOOK } from '../../../entities/push-user/push-user-status.ts';
import { deviceName } from '../../../lib/devices/device-name.ts';
import { BulkDialog } from '../../../ui/lists/bulk/bulk-dialog.tsx';

export function BulkStatusDialog({
  users,
  status,
  unchanged = 0,
  onClose,
  onFinished,
}: {
  users: PushMessageUser[];
  status: PushUserStatus;
  /** Selected push users already in `status`, left out. */
  unchanged?: number;
  onClose: () => void;
  onFinished: () => void;
}) {
  const queryClient = useQueryClient();
  const count = `${users.length} push ${users.length === 1 ? 'user' : 'users'}`;
  return (
    <BulkDialog
      title={`Set ${count} to ${statusName(status)}?`}
      confirmLabel={`Set ${count} to ${statusName(status)}`}
      confirmColor={PUSH_USER_STATUS_LOOK[status].destructive ? 'red.9' : undefined}
      items={users.map((user) => ({ id: user.Id, label: `#${user.Id} ${user.UserName} · ${deviceName(user)}` }))}
      runOne={(id) => updatePushUser.mutationFn({ Id: id, Status: status })}
      onClose={onClose}
      onFinished={() => {
        void pushUsersChanged(queryClient);
        onFinished();
      }}
    >
      <Text size="sm">
        {status === PushUserStatusCode.Deleted
          ? 'Deleted registrations stop receiving push messages, including two-factor tokens. They stay listed and can be made active again.'
          : `Each registration is set to ${statusName(status).toLowerCase()}.`}
        {unchanged > 0 &&
          ` ${unchanged} of the selected ${unchanged === 1 ? 'is' : 'are'} already ${statusName(status).toLowerCase()} and ${unchanged === 1 ? 'stays' : 'stay'} as ${unchanged === 1 ? 'it is' : 'they are'}.`}
      </Text>
    </BulkDialog>
  );
}
