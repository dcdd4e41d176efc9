import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import type { RouterContext } from '../session/router-context.ts';
import { useSession } from '../session/session-context.tsx';
import { RouteNotFoundState } from '../ui/states/route-states.tsx';

// The root route's code is in every page's entry, the sign-in page's too: the signed-in frame (and the API client
// under it) loads only when an unknown address is shown in it.
const FramedNotFound = lazy(() =>
  import('../shell/framed-not-found.tsx').then((module) => ({ default: module.FramedNotFound })),
);

export const Route = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: RootNotFound,
});

/** An unknown address keeps the app's frame (header, navigation) for a signed-in person, so the way on is in view. */
function RootNotFound() {
  const { session } = useSession();
  if (!session) return <RouteNotFoundState />;
  return (
    <Suspense fallback={null}>
      <FramedNotFound />
    </Suspense>
  );
}
