import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { onUnauthorized } from './api/session-events.ts';
import { forgetUserData } from './api/system-queries.ts';
import { LazyHosts } from './components/lazy-hosts.tsx';
import { LiveRegion } from './components/live-region.tsx';
import { notify } from './lib/notify.ts';
import { createAppQueryClient } from './query-client.ts';
import { createAppRouter } from './router.tsx';
import { SessionProvider } from './session/session-context.tsx';
import { sessionStore } from './session/session-store.ts';
import { cssVariablesResolver, theme } from './theme.ts';

export function App() {
  const [queryClient] = useState(createAppQueryClient);
  const [router] = useState(() => createAppRouter(queryClient));

  useEffect(
    () =>
      onUnauthorized(() => {
        if (!sessionStore.get()) return;
        sessionStore.set(null);
        notify({
          id: 'session-ended',
          color: 'yellow',
          title: 'Signed out',
          message: 'Your session has ended. Sign in again to continue where you were.',
        });
        const { href, pathname } = router.state.location;
        forgetUserData(queryClient);
        void router.navigate({ to: '/login', search: pathname === '/login' ? {} : { redirect: href } });
      }),
    [router, queryClient],
  );

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
