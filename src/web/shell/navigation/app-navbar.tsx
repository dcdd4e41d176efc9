import { Badge, NavLink, UnstyledButton } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useDemoMode } from '../../api/use-demo-mode.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { listedPages, PAGES } from '../../wiring/pages.tsx';
import classes from './app-navbar.module.css';
import { NavPendingBadge } from './nav-pending-badge.tsx';
import { NavReportsBadge } from './nav-reports-badge.tsx';

const LINK_CLASS = `mantine-focus-auto ${UnstyledButton.classes.root} ${NavLink.classes.root}`;

/**
 * The signed-in pages, from PAGES. The links are router links with Mantine's NavLink classes rather than NavLink
 * components: every signed-in page renders them in its first render, and a NavLink resolves its styles (and those
 * of the button under it) on each render. The router marks the current page (aria-current), under its sub-pages too.
 */
export function AppNavbar({ onNavigate }: { onNavigate: () => void }) {
  const { session } = useSession();
  const { demo } = useDemoMode();
  const items = listedPages(session, demo);
  return (
    <nav className={classes.nav} aria-label="Main">
      <p className={classes.heading}>Manage</p>
      {items.map((item) => {
        const access = item.query ? endpointAccess(session, item.query.endpoint) : { allowed: true as const };
        const unavailable = !access.allowed && access.reason === 'unavailable';
        return (
          <Link
            key={item.to}
            to={item.to}
            preload="intent"
            activeOptions={{ exact: item.to === '/', includeSearch: false }}
            onClick={onNavigate}
            className={LINK_CLASS}
          >
            <span className={NavLink.classes.section} data-position="left">
              {item.icon}
            </span>
            <div className={NavLink.classes.body}>
              <span className={`${NavLink.classes.label} ${classes.label}`}>{item.label}</span>
            </div>
            <span className={NavLink.classes.section} data-position="right">
              {unavailable ? (
                <Badge size="xs" variant="default" tt="none" title={access.message}>
                  n/a
                </Badge>
              ) : item === PAGES.authorizationRequests ? (
                <NavPendingBadge />
              ) : item === PAGES.people ? (
                <NavReportsBadge />
              ) : null}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
