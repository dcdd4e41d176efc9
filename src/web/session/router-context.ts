import type { QueryClient } from '@tanstack/react-query';
import type { StoredSession } from './session-store.ts';

/** What every route's guard and loader sees. */
export interface RouterContext {
  queryClient: QueryClient;
  /** Read at navigation time, so guards always see the latest sign-in. */
  session: () => StoredSession | null;
}
