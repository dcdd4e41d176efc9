import type { UseQueryResult } from '@tanstack/react-query';
import { isApiError } from '../../api/core/api-error.ts';
import type { Page } from '../../wiring/pages.tsx';
import { ErrorState } from './error-state.tsx';
import { LoadingState } from './loading-state.tsx';
import { NotFoundState } from './not-found-state.tsx';

export interface QueryStateProps {
  query: UseQueryResult<unknown>;
  /** What the spinner says, e.g. "Loading push user…". */
  loading: string;
  /** What a 404 names, e.g. "push user". */
  what: string;
  /** The list page a missing one belongs to: "No such push user" leads back to Push users. */
  back?: Page;
}

/**
 * What a screen shows until its query has data: loading, not found, or failed with a retry. Use it as
 * `if (!query.isSuccess) return <QueryState query={query} … />`, after which `query.data` is there.
 */
export function QueryState({ query, loading, what, back }: QueryStateProps) {
  if (query.isError) {
    if (isApiError(query.error) && query.error.kind === 'not-found') return <NotFoundState what={what} back={back} />;
    return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  }
  return <LoadingState label={loading} />;
}
