import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import type { AppRouter } from './router.tsx';
import { SessionProvider } from './session/session-context.tsx';
import { cssVariablesResolver, theme } from './theme.ts';
import { LiveRegion } from './ui/live-region.tsx';
import { LazyHosts } from './ui/overlays/lazy-hosts.tsx';

/**
 * A build's index.html already carries the theme's CSS variables and Mantine's global classes, written by this same
 * provider at build time (scripts/page-outlines.ts). Written again at run time they are ~25 KB of style added in the
 * first commit, for which the browser restyles the whole page. The development server's index.html has no outlines:
 * there the provider writes them.
 */
const STYLES_IN_HTML = import.meta.env.PROD;

/** The providers around the router; main.tsx makes the query client and the router (and starts loading). */
export function App({ queryClient, router }: { queryClient: QueryClient; router: AppRouter }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
      withCssVariables={!STYLES_IN_HTML}
      withGlobalClasses={!STYLES_IN_HTML}
    >
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
