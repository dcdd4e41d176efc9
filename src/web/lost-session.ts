import type { QueryClient } from '@tanstack/react-query';
import { onUnauthorized } from './api/live/session-events.ts';
import { forgetUserData } from './api/queries/system-queries.ts';
import { notify } from './lib/notify.ts';
import type { AppRouter } from './router.tsx';
import { sessionStore } from './session/session-store.ts';

/**
 * A 401 anywhere ends the session here: sign-in, then back where the person was. Wired before the first page loads
 * (main.tsx), since that page's first request can already be answered 401.
 */
export function watchLostSession(router: AppRouter, queryClient: QueryClient): () => void {
  return onUnauthorized(() => {
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
  });
}
