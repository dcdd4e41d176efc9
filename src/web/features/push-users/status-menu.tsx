import { Button, type ButtonProps, Menu } from '@mantine/core';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { endpoints, type PushMessageUser, statusName } from '../../../shared/contract/index.ts';
import { usePushUserUpdatePending } from '../../api/mutations.ts';
import { useCompactTable } from '../../components/list-table.tsx';
import { PermissionButton } from '../../components/permission-button.tsx';
import { PUSH_USER_STATUS_LOOK, STATUS_VALUES } from '../../components/push-user-status.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { useChangeStatus } from './use-change-status.tsx';

/** The per-row status switcher; `touch` makes it a full-width, touch-sized button with touch-sized items (cards). */
export function StatusMenu({ user, touch = false }: { user: PushMessageUser; touch?: boolean }) {
  const { session } = useSession();
  // A table short of room (a tablet) shows the shorter word; the accessible name stays the same.
  const text = useCompactTable() ? 'Status' : 'Change status';
  // Lists render thousands of rows while scrolling: the menu (a floating popover) and the status change (a mutation
  // observer per row) mount only when a pointer comes near or a key asks for it.
  const [armed, setArmed] = useState<'no' | 'hover' | 'open'>('no');
  const changing = usePushUserUpdatePending(user.Id);
  const label = `Change status of ${user.UserName} on ${user.DeviceType}`;
  const buttonProps = {
    size: touch ? 'md' : 'xs',
    h: touch ? TOUCH_TARGET : undefined,
    fullWidth: touch,
    variant: 'default',
    rightSection: <IconChevronDown size={touch ? 18 : 14} />,
    'aria-label': label,
    loading: changing,
  } as const;

  if (!endpointAccess(session, endpoints.updatePushMessageUser).allowed) {
    return (
      <PermissionButton endpoint={endpoints.updatePushMessageUser} {...buttonProps}>
        {text}
      </PermissionButton>
    );
  }
  if (armed === 'no') {
    return (
      <Button
        {...buttonProps}
        aria-haspopup="menu"
        // A touch has no hover; arming on its pointerenter would swap the button under the finger mid-tap. Swapped
        // at once (flushSync): a render left for later could land between a quick click's press and release, and a
        // press on one button released on another is no click.
        onPointerEnter={(event) => event.pointerType === 'mouse' && flushSync(() => setArmed('hover'))}
        onClick={() => setArmed('open')}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            setArmed('open');
          }
        }}
      >
        {text}
      </Button>
    );
  }
  return <ArmedStatusMenu user={user} touch={touch} text={text} buttonProps={buttonProps} opened={armed === 'open'} />;
}

/** The menu itself, once armed. */
function ArmedStatusMenu({
  user,
  touch,
  text,
  buttonProps,
  opened,
}: {
  user: PushMessageUser;
  touch: boolean;
  text: string;
  buttonProps: ButtonProps & { 'aria-label': string };
  opened: boolean;
}) {
  const { change } = useChangeStatus();
  const targetRef = useRef<HTMLButtonElement>(null);
  return (
    <Menu position="bottom-end" shadow="md" width={touch ? 'target' : 180} defaultOpened={opened}>
      <Menu.Target>
        <Button ref={targetRef} {...buttonProps}>
          {text}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Set status</Menu.Label>
        {STATUS_VALUES.map((status) => (
          <Menu.Item
            key={status}
            color={PUSH_USER_STATUS_LOOK[status].destructive ? 'red' : undefined}
            mih={touch ? TOUCH_TARGET : undefined}
            disabled={status === user.Status}
            leftSection={status === user.Status ? <IconCheck size={14} /> : <span style={{ width: 14 }} />}
            onClick={() => change(user, status, targetRef.current)}
          >
            {PUSH_USER_STATUS_LOOK[status].destructive
              ? `${PUSH_USER_STATUS_LOOK[status].action}…`
              : statusName(status)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
