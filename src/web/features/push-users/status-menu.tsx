import { Button, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { endpoints, type PushMessageUser } from '../../../shared/contract/index.ts';
import { PermissionButton } from '../../components/permission-button.tsx';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { STATUS_VALUES, statusName } from './push-user-status.ts';
import { useChangeStatus } from './use-change-status.tsx';

/** The per-row status switcher. */
export function StatusMenu({ user }: { user: PushMessageUser }) {
  const { session } = useSession();
  const { change, pendingId } = useChangeStatus();
  const label = `Change status of ${user.UserName} on ${user.DeviceType}`;
  const buttonProps = {
    size: 'xs',
    variant: 'default',
    rightSection: <IconChevronDown size={14} />,
    'aria-label': label,
  } as const;

  if (!endpointAccess(session, endpoints.updatePushMessageUser).allowed) {
    return (
      <PermissionButton endpoint={endpoints.updatePushMessageUser} {...buttonProps}>
        Change status
      </PermissionButton>
    );
  }
  return (
    <Menu position="bottom-end" shadow="md" width={180}>
      <Menu.Target>
        <Button {...buttonProps} loading={pendingId === user.Id}>
          Change status
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Set status</Menu.Label>
        {STATUS_VALUES.map((status) => (
          <Menu.Item
            key={status}
            color={status === 3 ? 'red' : undefined}
            disabled={status === user.Status}
            leftSection={status === user.Status ? <IconCheck size={14} /> : <span style={{ width: 14 }} />}
            onClick={() => change(user, status)}
          >
            {status === 3 ? 'Delete…' : statusName(status)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
