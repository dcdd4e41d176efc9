import { Button } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { flushSync } from 'react-dom';
import { endpoints, type PushMessageUser } from '../../../shared/contract/index.ts';
import { usePushUserUpdatePending } from '../../api/mutations.ts';
import { useCompactTable } from '../../components/list-table.tsx';
import { PermissionButton } from '../../components/permission-button.tsx';
import { TOUCH_TARGET } from '../../lib/use-phone.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';

let dropdownLoaded = false;
const loadDropdown = () =>
  import('./status-menu-dropdown.tsx').then((module) => {
    dropdownLoaded = true;
    return { default: module.StatusMenuDropdown };
  });
// Mantine's Menu, with Floating UI under it (~25 KB gzip), is not needed to paint a list: it loads when a pointer
// first comes over a row's button, or a click or key asks for the menu.
const StatusMenuDropdown = lazy(loadDropdown);

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
  // Armed by a hover only once the menu's code is here: swapped under the pointer later, the button could change
  // between a quick click's press and release (see below). A click or key arms it in any case; the menu opens when
  // its code arrives.
  if (armed === 'no' || (armed === 'hover' && !dropdownLoaded)) {
    return (
      <Button
        {...buttonProps}
        aria-haspopup="menu"
        // A touch has no hover; arming on its pointerenter would swap the button under the finger mid-tap. Swapped
        // at once (flushSync): a render left for later could land between a quick click's press and release, and a
        // press on one button released on another is no click.
        onPointerEnter={(event) => {
          if (event.pointerType !== 'mouse') return;
          if (dropdownLoaded) flushSync(() => setArmed('hover'));
          else void loadDropdown();
        }}
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
  return (
    <Suspense
      fallback={
        <Button {...buttonProps} aria-haspopup="menu">
          {text}
        </Button>
      }
    >
      <StatusMenuDropdown user={user} touch={touch} text={text} buttonProps={buttonProps} opened={armed === 'open'} />
    </Suspense>
  );
}
