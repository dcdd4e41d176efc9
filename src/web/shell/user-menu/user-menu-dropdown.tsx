import { Badge, Group, Menu, Text } from '@mantine/core';
import {
  IconDeviceMobile,
  IconDevicesOff,
  IconFingerprint,
  IconKey,
  IconLogout,
  IconSettings,
} from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { SECURITY_ENTITY } from '../../../shared/contract/index.ts';
import { notify } from '../../lib/notify.ts';
import { formatClock } from '../../lib/time/time-format.ts';
import { useSession, useSessionDeadlines } from '../../session/session-context.tsx';
import { deadlineOf, type SessionIdentity } from '../../session/session-store.ts';
import { signOutNotice } from '../../session/sign-out-notice.ts';
import type { OwnAccountDialog } from './own-account-dialogs.tsx';
import { UserMenuButton } from './user-menu-button.tsx';

// The three dialogs (change password, add a device with its code and QR link, sign out everywhere) load when one is
// first chosen: the menu itself loads after every signed-in page's first paint, and with them its preload was some
// thirty modules, one <link rel=modulepreload> each, most of a long task on a phone's CPU.
const OwnAccountDialogs = lazy(() =>
  import('./own-account-dialogs.tsx').then((module) => ({ default: module.OwnAccountDialogs })),
);

function securityPermissions(session: SessionIdentity): string {
  const grant = session.permissions.find((g) => g.Entity === SECURITY_ENTITY);
  return grant && grant.Permissions.length > 0 ? grant.Permissions.join(' + ') : 'no Security permission';
}

export function UserMenuDropdown({ session, defaultOpened }: { session: SessionIdentity; defaultOpened: boolean }) {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<OwnAccountDialog>(null);

  async function handleSignOut() {
    notify(signOutNotice(await signOut()));
    await navigate({ to: '/login' });
  }

  return (
    <>
      {/*
        A menu may hold only items (ARIA required children): the account facts are a label of generic elements, and
        the focus placeholder (a role=presentation child) is left out; opening focuses the first item.
      */}
      <Menu
        position="bottom-end"
        width={260}
        shadow="md"
        defaultOpened={defaultOpened}
        withinPortal={false}
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <UserMenuButton session={session} />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label data-testid="account-facts">
            <Text component="span" display="block" size="xs" c="dimmed">
              Signed in as
            </Text>
            <Group component="span" gap={6}>
              <Text component="span" size="sm" fw={600} c="var(--mantine-color-text)">
                {session.userName}
              </Text>
              <Badge size="xs" variant="default">
                {securityPermissions(session)}
              </Badge>
            </Group>
            <SessionEnds />
          </Menu.Label>
          <Menu.Divider />
          <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
            Settings
          </Menu.Item>
          <Menu.Item component={Link} to="/sign-in-methods" leftSection={<IconFingerprint size={16} />}>
            Sign-in methods
          </Menu.Item>
          <Menu.Item leftSection={<IconDeviceMobile size={16} />} onClick={() => setDialog('add-device')}>
            Add a device
          </Menu.Item>
          <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setDialog('change-password')}>
            Change password
          </Menu.Item>
          <Menu.Item leftSection={<IconDevicesOff size={16} />} onClick={() => setDialog('sign-out-everywhere')}>
            Sign out everywhere
          </Menu.Item>
          <Menu.Item
            leftSection={<IconLogout size={16} color="var(--mantine-color-red-filled)" />}
            onClick={() => void handleSignOut()}
          >
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {dialog !== null && (
        <Suspense fallback={null}>
          <OwnAccountDialogs dialog={dialog} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </>
  );
}

/** When the session ends if nothing more is done, and at the latest. */
function SessionEnds() {
  const session = useSessionDeadlines();
  if (!session) return null;
  const deadline = deadlineOf(session);
  const absolute = session.absoluteExpires ? new Date(session.absoluteExpires) : null;
  if (!deadline) return null;
  return (
    <Text component="span" display="block" size="xs" c="dimmed" mt={4} data-testid="session-ends">
      Session ends at {formatClock(deadline)} if idle
      {absolute && absolute.getTime() > deadline.getTime() ? `, at the latest at ${formatClock(absolute)}` : ''}.
    </Text>
  );
}
