import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api/core/api-error.ts';

/** Retrying helps with a flaky network, never with a problem the server meant (4xx). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  if (isApiError(error) && (error.kind === 'unavailable-in-version' || error.kind === 'invalid-response')) return false;
  return failureCount < 2;
}

export function createAppQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 10_000, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
