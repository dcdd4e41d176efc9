import { type Query, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/core/api-error.ts';

/** Retrying helps with a flaky network, never with a problem the server meant (4xx). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  if (isApiError(error) && (error.kind === 'unavailable-in-version' || error.kind === 'invalid-response')) return false;
  return failureCount < 2;
}

/** How recent an answer is when it was asked for on the way to the page: by its loader, or a link's preload. */
export const JUST_ANSWERED_MS = 2_000;

/**
 * A page's loader fetches its data, then the page mounts and reads it. A query that is stale at once (`staleTime: 0`,
 * for data that changes without anything done here) would be asked for a second time on that mount, a request and
 * its parsing for an answer a moment old. Consulted only for stale data; an invalidated answer is always fetched again.
 */
export function refetchOnMount(query: Query): boolean {
  return query.state.isInvalidated || Date.now() - query.state.dataUpdatedAt >= JUST_ANSWERED_MS;
}

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 10_000, retry: shouldRetry, refetchOnMount },
      mutations: { retry: false },
    },
  });
}
