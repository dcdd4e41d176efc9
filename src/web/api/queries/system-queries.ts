import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { loadApi } from '../load-api.ts';

/** What the server says about itself; the sign-in page asks it, so the client loads on demand (load-api.ts). */
export const systemQueries = {
  all: ['system'] as const,
  version: (baseUrl: string) =>
    queryOptions({
      queryKey: [...systemQueries.all, 'version', baseUrl] as const,
      queryFn: async ({ signal }) => {
        const { api, endpoints } = await loadApi();
        return api.call(endpoints.version, { signal });
      },
      staleTime: 5 * 60_000,
    }),
  /** Whether the sign-in page offers single sign-on, and its button's name. */
  singleSignOn: (baseUrl: string) =>
    queryOptions({
      queryKey: [...systemQueries.all, 'single-sign-on', baseUrl] as const,
      queryFn: async ({ signal }) => {
        const { api, endpoints } = await loadApi();
        return api.call(endpoints.singleSignOn, { signal });
      },
      staleTime: 5 * 60_000,
    }),
};

/** On sign-in and sign-out: forget everything a person saw, but keep what the server says about itself. */
export function forgetUserData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== systemQueries.all[0] });
}
