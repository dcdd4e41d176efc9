import { Badge, Burger, VisuallyHidden } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import type { CSSProperties } from 'react';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import type { SessionIdentity } from '../../session/session-store.ts';
import { BADGE_RADIUS_VALUE } from '../../theme.ts';
import { BrandMark } from '../../ui/brand-mark.tsx';
import { LazyTooltip } from '../../ui/overlays/lazy-tooltip.tsx';
import { UserMenu } from '../user-menu/user-menu.tsx';
import classes from './app-header.module.css';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import { FindButton } from './find-button.tsx';

export interface AppHeaderProps {
  session: SessionIdentity;
  navbarOpened: boolean;
  onToggleNavbar: () => void;
}

const BADGE_CLASS = `mantine-focus-auto ${Badge.classes.root} ${classes.badge}`;
const BADGE_RADIUS_STYLE = { '--badge-radius': BADGE_RADIUS_VALUE } as CSSProperties;

/**
 * The signed-in header. Plain elements with Mantine's classes where a component would resolve its styles on every
 * render: every signed-in page renders the header in its first render.
 */
export function AppHeader({ session, navbarOpened, onToggleNavbar }: AppHeaderProps) {
  const { demo } = useDemoMode();
  return (
    <div className={classes.header}>
      <div className={classes.group}>
        <Burger
          opened={navbarOpened}
          onClick={onToggleNavbar}
          hiddenFrom="md"
          size="sm"
          aria-label={navbarOpened ? 'Close navigation' : 'Open navigation'}
        />
        {/* Named by its content (WCAG 2.5.3 Label in Name); "home" is for screen readers and narrow screens. */}
        <Link to="/" preload="intent" className={`mantine-focus-auto ${classes.home}`}>
          <BrandMark compact />
          <VisuallyHidden>home</VisuallyHidden>
        </Link>
      </div>
      <div className={classes.group}>
        <FindButton />
        {demo && (
          <LazyTooltip label="Demo mode: made-up data, demo accounts and the demo console">
            <Link
              to="/demo"
              className={`${BADGE_CLASS} ${classes.demo}`}
              data-variant="filled"
              style={BADGE_RADIUS_STYLE}
              data-testid="demo-badge"
            >
              <span className={Badge.classes.label}>Demo</span>
            </Link>
          </LazyTooltip>
        )}
        {/* A phone keeps the header on one line without it; Settings shows the version. */}
        <LazyTooltip label="API version in use; change it in Settings">
          <Link
            to="/settings"
            className={`${BADGE_CLASS} ${classes.version} mantine-visible-from-xs`}
            data-variant="outline"
            style={BADGE_RADIUS_STYLE}
            data-testid="api-version"
          >
            <span className={Badge.classes.label}>API {session.apiVersion}</span>
          </Link>
        </LazyTooltip>
        <ColorSchemeToggle />
        <UserMenu session={session} />
      </div>
    </div>
  );
}
