import { Badge, Group, Menu, Text } from '@mantine/core';
import { IconDevicesOff, IconKey, IconLogout, IconSettings } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { SECURITY_ENTITY } from '../../../shared/contract/index.ts';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../session/session-context.tsx';
import type { StoredSession } from '../../session/session-store.ts';
import { type OwnAccountDialog, OwnAccountDialogs } from './own-account-dialogs.tsx';
import { UserMenuButton } from './user-menu-button.tsx';

function securityPermissions(session: StoredSession): string {
  const grant = session.permissions.find((g) => g.Entity === SECURITY_ENTITY);
  return grant && grant.Permissions.length > 0 ? grant.Permissions.join(' + ') : 'no Security permission';
}

export function UserMenuDropdown({ session, defaultOpened }: { session: StoredSession; defaultOpened: boolean }) {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<OwnAccountDialog>(null);

  async function handleSignOut() {
    await signOut();
    notify({ title: 'Signed out', message: 'Your session was ended on the server.' });
    await navigate({ to: '/login' });
  }

  return (
    <>
      <Menu position="bottom-end" width={260} shadow="md" defaultOpened={defaultOpened}>
        <Menu.Target>
          <UserMenuButton session={session} />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>Signed in as</Menu.Label>
          <Group px="sm" pb="xs" gap={6}>
            <Text size="sm" fw={600}>
              {session.userName}
            </Text>
            <Badge size="xs" variant="default">
              {securityPermissions(session)}
            </Badge>
          </Group>
          <Menu.Divider />
          <Menu.Item component={Link} to="/settings" leftSection={<IconSettings size={16} />}>
            Settings
          </Menu.Item>
          <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setDialog('change-password')}>
            Change password
          </Menu.Item>
          <Menu.Item leftSection={<IconDevicesOff size={16} />} onClick={() => setDialog('sign-out-everywhere')}>
            Sign out everywhere
          </Menu.Item>
          <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void handleSignOut()}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <OwnAccountDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}
