import { Badge, Stack, Text } from '@mantine/core';
import {
  IconDeviceMobileCheck,
  IconFlask,
  IconKey,
  IconLayoutDashboard,
  IconSettings,
  IconUserShield,
  IconUsers,
} from '@tabler/icons-react';
import { useMatchRoute } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { type Endpoint, endpoints } from '../../../shared/contract/index.ts';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { RouterNavLink } from '../router-nav-link.tsx';
import { NavPendingBadge } from './nav-pending-badge.tsx';

interface NavItem {
  to: '/' | '/authorization-requests' | '/push-users' | '/two-factor' | '/settings' | '/demo' | '/accounts';
  label: string;
  icon: ReactNode;
  endpoint?: Endpoint;
  badge?: ReactNode;
}

const ITEMS: NavItem[] = [
  { to: '/', label: 'Overview', icon: <IconLayoutDashboard size={18} /> },
  {
    to: '/authorization-requests',
    label: 'Authorization requests',
    icon: <IconDeviceMobileCheck size={18} />,
    endpoint: endpoints.listAuthorizationRequests,
    badge: <NavPendingBadge />,
  },
  { to: '/push-users', label: 'Push users', icon: <IconUsers size={18} />, endpoint: endpoints.listPushMessageUsers },
  { to: '/two-factor', label: 'Two-factor tokens', icon: <IconKey size={18} /> },
  { to: '/settings', label: 'Settings', icon: <IconSettings size={18} /> },
];

/** Shown only to people with Accounts Read (issue 10): the page is administration, not everyone's work. */
const ACCOUNTS_ITEM: NavItem = {
  to: '/accounts',
  label: 'Accounts',
  icon: <IconUserShield size={18} />,
  endpoint: endpoints.listAccounts,
};

const DEMO_ITEM: NavItem = { to: '/demo', label: 'Demo console', icon: <IconFlask size={18} /> };

export function AppNavbar({ onNavigate }: { onNavigate: () => void }) {
  const { session } = useSession();
  const matchRoute = useMatchRoute();
  const { demo } = useDemoMode();
  const accounts = endpointAccess(session, endpoints.listAccounts).allowed;
  const base = accounts ? [...ITEMS.slice(0, -1), ACCOUNTS_ITEM, ...ITEMS.slice(-1)] : ITEMS;
  const items = demo ? [...base, DEMO_ITEM] : base;
  return (
    <Stack gap={4} component="nav" aria-label="Main">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4}>
        Manage
      </Text>
      {items.map((item) => {
        const access = item.endpoint ? endpointAccess(session, item.endpoint) : { allowed: true as const };
        const unavailable = !access.allowed && access.reason === 'unavailable';
        return (
          <RouterNavLink
            key={item.to}
            to={item.to}
            label={item.label}
            leftSection={item.icon}
            active={Boolean(matchRoute({ to: item.to, fuzzy: item.to !== '/' }))}
            onClick={onNavigate}
            rightSection={
              unavailable ? (
                <Badge size="xs" variant="default" tt="none" title={access.message}>
                  n/a
                </Badge>
              ) : (
                item.badge
              )
            }
            styles={{ label: { fontWeight: 500, whiteSpace: 'nowrap' } }}
          />
        );
      })}
    </Stack>
  );
}
