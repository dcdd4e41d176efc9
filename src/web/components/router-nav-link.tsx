import { NavLink, type NavLinkProps } from '@mantine/core';
import { createLink, type LinkComponent } from '@tanstack/react-router';
import type { AnchorAttributes } from './router-links.tsx';

// Apart from router-links.tsx: NavLink brings its collapse animation, which only the signed-in navigation needs,
// while the other links are part of every page (the sign-in page and the error pages use them).
function NavLinkBase(props: NavLinkProps & AnchorAttributes) {
  return <NavLink component="a" {...props} />;
}

const CreatedNavLink = createLink(NavLinkBase);

export const RouterNavLink: LinkComponent<typeof NavLinkBase> = (props) => (
  <CreatedNavLink preload="intent" {...props} />
);
