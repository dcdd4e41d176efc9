import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { AppLayout } from '../components/app-shell/app-layout.tsx';
import { RouteNotFoundState } from '../components/route-states.tsx';
import type { RouterContext } from '../session/router-context.ts';
import { useSession } from '../session/session-context.tsx';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: RootNotFound,
});

/** An unknown address keeps the app's frame (header, navigation) for a signed-in person, so the way on is in view. */
function RootNotFound() {
  const { session } = useSession();
  if (!session) return <RouteNotFoundState />;
  return (
    <AppLayout>
      <RouteNotFoundState />
    </AppLayout>
  );
}
