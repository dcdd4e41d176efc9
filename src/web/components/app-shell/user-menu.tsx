import { Avatar, Badge, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings } from '@tabler/icons-react';
import { Link, useNavigate } from '@tanstack/react-router';
import { SECURITY_ENTITY } from '../../../shared/contract/index.ts';
import { notify } from '../../lib/notify.ts';
import { useSession } from '../../session/session-context.tsx';
import type { StoredSession } from '../../session/session-store.ts';

function initials(userName: string): string {
  const name = userName.split('\\').pop() ?? userName;
  return name.slice(0, 2).toUpperCase();
}

function securityPermissions(session: StoredSession): string {
  const grant = session.permissions.find((g) => g.Entity === SECURITY_ENTITY);
  return grant && grant.Permissions.length > 0 ? grant.Permissions.join(' + ') : 'no Security permission';
}

export function UserMenu({ session }: { session: StoredSession }) {
  const { signOut } = useSession();
  const navigate = useNavigate();

  async function handleSignOut() {
    await signOut();
    notify({ title: 'Signed out', message: 'Your session was ended on the server.' });
    await navigate({ to: '/login' });
  }

  return (
    <Menu position="bottom-end" width={260} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Account menu for ${session.userName}`} data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar size={32} radius="xl" color="brand" variant="filled">
              {initials(session.userName)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="sm">
              {session.userName}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
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
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void handleSignOut()}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
