import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { routeTree } from './route-tree.gen.ts';
import { currentSession } from './session/session-store.ts';
import { LoadingState } from './ui/states/loading-state.tsx';
import { RouteErrorState, RouteNotFoundState } from './ui/states/route-states.tsx';

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient, session: currentSession },
    defaultPreload: 'intent',
    // React Query owns caching; the router asks it every time.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: () => <LoadingState />,
    defaultErrorComponent: ({ error, reset }) => <RouteErrorState error={error} onRetry={reset} />,
    defaultNotFoundComponent: () => <RouteNotFoundState />,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
