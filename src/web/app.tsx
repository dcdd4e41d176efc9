import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { LazyHosts } from './components/lazy-hosts.tsx';
import { LiveRegion } from './components/live-region.tsx';
import type { AppRouter } from './router.tsx';
import { SessionProvider } from './session/session-context.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

/** The providers around the router; main.tsx makes the query client and the router (and starts loading). */
export function App({ queryClient, router }: { queryClient: QueryClient; router: AppRouter }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <LazyHosts />
          <LiveRegion />
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
