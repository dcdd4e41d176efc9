import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import type { RouterContext } from '../session/router-context.ts';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
});
