import type { EnsureQueryDataOptions } from '@tanstack/react-query';
import type { HasEndpoint } from '../api/queries/endpoint-query.ts';
import { systemQueries } from '../api/queries/system-queries.ts';
import { endpointAccess } from '../session/permissions.ts';
import type { RouterContext } from '../session/router-context.ts';
import { settingsStore } from '../settings/settings-store.ts';

/** A query as a loader gets it from a query factory (api/queries.ts): its options and its catalogue entry. */
export type PrefetchQuery = HasEndpoint & { queryKey: readonly unknown[] };

/**
 * Loader helper: warm the cache with the same options the page reads, but only the queries whose endpoint (read from
 * the query) the person may call in their version. Failures are left for the page to show with a retry, not the
 * router's error screen.
 */
export async function prefetchIfAllowed(context: RouterContext, ...queries: PrefetchQuery[]): Promise<void> {
  const session = context.session();
  await Promise.all(
    queries
      .filter((query) => endpointAccess(session, query.endpoint).allowed)
      // Each query's own types were checked where it was made; here any query's options will do.
      .map((query) => context.queryClient.ensureQueryData(query as EnsureQueryDataOptions).catch(() => undefined)),
  );
}

/**
 * Loader helper: the server's version answer (its API versions, whether it is in demo mode), which the header, the
 * navigation and Settings read. Asked by them once mounted, its answer re-rendered the header and the navigation in
 * one synchronous render after the first paint, and a demo's badge appeared late. Unanswered, the page renders anyway.
 */
export async function prefetchServerVersion(context: RouterContext): Promise<void> {
  await context.queryClient.ensureQueryData(systemQueries.version(settingsStore.get().baseUrl)).catch(() => undefined);
}
