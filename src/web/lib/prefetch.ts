import type { QueryClient } from '@tanstack/react-query';
import type { Endpoint } from '../../shared/contract/index.ts';
import { endpointAccess } from '../session/permissions.ts';
import type { RouterContext } from '../session/router-context.ts';

/**
 * Loader helper: warm the cache with the same options the page reads, but only for endpoints the person may call
 * in their version. Failures are left for the page to show with a retry, not the router's error screen.
 */
export async function prefetchIfAllowed(
  context: RouterContext,
  endpoint: Endpoint,
  load: (queryClient: QueryClient) => Promise<unknown>,
): Promise<void> {
  if (!endpointAccess(context.session(), endpoint).allowed) return;
  await load(context.queryClient).catch(() => undefined);
}
