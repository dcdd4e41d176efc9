import { Button, type ButtonProps, Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useRef } from 'react';
import { type PushMessageUser, statusName } from '../../../shared/contract/index.ts';
import { PUSH_USER_STATUS_LOOK, STATUS_VALUES } from '../../entities/push-user/push-user-status.ts';
import { useChangeStatus } from '../../entities/push-user/use-change-status.tsx';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';

export interface StatusMenuDropdownProps {
  user: PushMessageUser;
  touch: boolean;
  text: string;
  buttonProps: ButtonProps & { 'aria-label': string };
  opened: boolean;
}

/** A row's status menu itself, once armed (see StatusMenu): its button, with Mantine's Menu around it. */
export function StatusMenuDropdown({ user, touch, text, buttonProps, opened }: StatusMenuDropdownProps) {
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
