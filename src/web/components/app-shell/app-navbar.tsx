import { Badge, Stack, Text } from '@mantine/core';
import { useMatchRoute } from '@tanstack/react-router';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { listedPages, PAGES } from '../../wiring/pages.tsx';
import { RouterNavLink } from '../router-nav-link.tsx';
import { NavPendingBadge } from './nav-pending-badge.tsx';

export function AppNavbar({ onNavigate }: { onNavigate: () => void }) {
  const { session } = useSession();
  const matchRoute = useMatchRoute();
  const { demo } = useDemoMode();
  const items = listedPages(session, demo);
  return (
    <Stack gap={4} component="nav" aria-label="Main">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pb={4}>
        Manage
      </Text>
      {items.map((item) => {
        const access = item.query ? endpointAccess(session, item.query.endpoint) : { allowed: true as const };
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
              ) : item === PAGES.authorizationRequests ? (
                <NavPendingBadge />
              ) : null
            }
            styles={{ label: { fontWeight: 500, whiteSpace: 'nowrap' } }}
          />
        );
      })}
    </Stack>
  );
}
