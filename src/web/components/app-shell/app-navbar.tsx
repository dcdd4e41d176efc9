import { Badge, Stack, Text } from '@mantine/core';
import {
  IconDeviceMobileCheck,
  IconFlask,
  IconKey,
  IconLayoutDashboard,
  IconSettings,
  IconUsers,
} from '@tabler/icons-react';
import { useMatchRoute } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { type Endpoint, endpoints } from '../../../shared/contract/index.ts';
import { useDemoMode } from '../../features/demo/use-demo-mode.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { RouterNavLink } from '../router-nav-link.tsx';
import { NavPendingBadge } from './nav-pending-badge.tsx';

interface NavItem {
  to: '/' | '/authorization-requests' | '/push-users' | '/two-factor' | '/settings' | '/demo';
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

const DEMO_ITEM: NavItem = { to: '/demo', label: 'Demo console', icon: <IconFlask size={18} /> };

export function AppNavbar({ onNavigate }: { onNavigate: () => void }) {
  const { session } = useSession();
  const matchRoute = useMatchRoute();
  const { demo } = useDemoMode();
  const items = demo ? [...ITEMS, DEMO_ITEM] : ITEMS;
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
