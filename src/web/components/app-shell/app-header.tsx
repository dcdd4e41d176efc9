import { Badge, Burger, Group, VisuallyHidden } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import type { StoredSession } from '../../session/session-store.ts';
import { HoverTooltip } from '../hover-tooltip.tsx';
import { RouterAnchor } from '../router-links.tsx';
import { BrandMark } from './brand-mark.tsx';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import { UserMenu } from './user-menu.tsx';

export interface AppHeaderProps {
  session: StoredSession;
  navbarOpened: boolean;
  onToggleNavbar: () => void;
}

export function AppHeader({ session, navbarOpened, onToggleNavbar }: AppHeaderProps) {
  const { demo } = useDemoMode();
  return (
    <Group h="100%" px={{ base: 'sm', xs: 'md' }} justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={navbarOpened}
          onClick={onToggleNavbar}
          hiddenFrom="md"
          size="sm"
          aria-label={navbarOpened ? 'Close navigation' : 'Open navigation'}
        />
        {/* Named by its content (WCAG 2.5.3 Label in Name); "home" is for screen readers and narrow screens. */}
        <RouterAnchor to="/" underline="never" c="inherit">
          <BrandMark compact />
          <VisuallyHidden>home</VisuallyHidden>
        </RouterAnchor>
      </Group>
      <Group gap="sm" wrap="nowrap">
        {demo && (
          <HoverTooltip label="Demo mode: made-up data, demo accounts and the demo console">
            <Badge
              component={Link}
              to="/demo"
              color="grape"
              variant="filled"
              size="lg"
              style={{ cursor: 'pointer', minWidth: 'max-content' }}
              data-testid="demo-badge"
            >
              Demo
            </Badge>
          </HoverTooltip>
        )}
        {/* A phone keeps the header on one line without it; Settings shows the version. */}
        <HoverTooltip label="API version in use; change it in Settings">
          <Badge
            visibleFrom="xs"
            component={Link}
            to="/settings"
            variant="outline"
            color="gray"
            size="lg"
            tt="none"
            style={{ cursor: 'pointer', minWidth: 'max-content' }}
            data-testid="api-version"
          >
            API {session.apiVersion}
          </Badge>
        </HoverTooltip>
        <ColorSchemeToggle />
        <UserMenu session={session} />
      </Group>
    </Group>
  );
}
