import { Button, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useState } from 'react';
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
  // Lists render thousands of rows while scrolling: the menu (a floating popover) mounts only when a pointer comes
  // near or a key asks for it.
  const [armed, setArmed] = useState<'no' | 'hover' | 'open'>('no');
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
  if (armed === 'no') {
    return (
      <Button
        {...buttonProps}
        loading={pendingId === user.Id}
        aria-haspopup="menu"
        onPointerEnter={() => setArmed('hover')}
        onClick={() => setArmed('open')}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setArmed('open');
          }
        }}
      >
        Change status
      </Button>
    );
  }
  return (
    <Menu position="bottom-end" shadow="md" width={180} defaultOpened={armed === 'open'}>
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
