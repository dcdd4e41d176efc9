import { Button } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { endpoints, type PushMessageUser } from '../../../shared/contract/index.ts';
import { usePushUserUpdatePending } from '../../api/queries/mutations.ts';
import { loadOnce } from '../../lib/loading/load-once.ts';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { useCompactTable } from '../../ui/lists/list-table.tsx';
import { PermissionButton } from '../../ui/permission-button.tsx';

/**
 * Mantine's Menu, with Floating UI under it (the `overlays` chunk), is not needed to paint a list: it loads when a
 * pointer first comes over a row's button, or a click or key asks for the menu. A failed fetch is tried again at the
 * next.
 */
const dropdownCode = loadOnce(() => import('./status-menu-dropdown.tsx').then((module) => module.StatusMenuDropdown));

/** The per-row status switcher; `touch` makes it a full-width, touch-sized button with touch-sized items (cards). */
export function StatusMenu({ user, touch = false }: { user: PushMessageUser; touch?: boolean }) {
  const { session } = useSession();
  // A table short of room (a tablet) shows the shorter word; the accessible name stays the same.
  const text = useCompactTable() ? 'Status' : 'Change status';
  // Lists render thousands of rows while scrolling: the menu (a floating popover) and the status change (a mutation
  // observer per row) mount only when a pointer comes near or a key asks for it.
  const [armed, setArmed] = useState<'no' | 'hover' | 'open'>('no');
  const [dropdown, setDropdown] = useState(() => dropdownCode.value);
  // A menu asked for whose code could not be fetched: the page's error boundary says so.
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const changing = usePushUserUpdatePending(user.Id);
  if (failure) throw failure.error;
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
  const open = () => {
    setArmed('open');
    if (!dropdown)
      dropdownCode.load().then(
        (arrived) => setDropdown(() => arrived),
        (error: unknown) => setFailure({ error }),
      );
  };
  // Until the menu is wanted and its code is here, the row shows this same button, so nothing is mounted anew under
  // a pointer: a hover arms the menu only when its code is already here, at once (flushSync), because a swap left
  // for later could land between a quick click's press and release, and a press on one button released on another
  // is no click. A click or key opens the menu when its code arrives.
  if (armed === 'no' || !dropdown) {
    return (
      <Button
        {...buttonProps}
        aria-haspopup="menu"
        // A touch has no hover; arming on its pointerenter would swap the button under the finger mid-tap.
        onPointerEnter={(event) => {
          if (event.pointerType !== 'mouse') return;
          const arrived = dropdownCode.value;
          if (arrived)
            flushSync(() => {
              setDropdown(() => arrived);
              setArmed('hover');
            });
          else dropdownCode.load().catch(() => undefined); // fetched ahead; a click reports a failure
        }}
        onClick={open}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            open();
          }
        }}
      >
        {text}
      </Button>
    );
  }
  const StatusMenuDropdown = dropdown;
  return (
    <StatusMenuDropdown user={user} touch={touch} text={text} buttonProps={buttonProps} opened={armed === 'open'} />
  );
}
