import type { QueryClient } from '@tanstack/react-query';
import type { AuthorizationRequest, PushMessageUser } from '../../shared/contract/index.ts';
import { peopleKeys } from './people-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from './queries.ts';

/**
 * The one way the cache learns that authorization requests changed: a decision made here (its answer goes into the
 * lists at once, so the row leaves the pending view without waiting), many decisions, or news from elsewhere (the
 * live stream, a conflict). Every list and detail is then refetched to confirm.
 */
export function requestsChanged(
  queryClient: QueryClient,
  decided: readonly AuthorizationRequest[] = [],
): Promise<void> {
  for (const request of decided) {
    queryClient.setQueryData(authorizationRequestQueries.detail(request.Id).queryKey, request);
    queryClient.setQueryData(
      authorizationRequestQueries.list({ view: 'pending' }).queryKey,
      (old: AuthorizationRequest[] | undefined) => old?.filter((row) => row.Id !== request.Id),
    );
    queryClient.setQueryData(
      authorizationRequestQueries.list({ view: 'all' }).queryKey,
      (old: AuthorizationRequest[] | undefined) => old?.map((row) => (row.Id === request.Id ? request : row)),
    );
  }
  // A person's counts and page are made of their requests.
  void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
  return queryClient.invalidateQueries({ queryKey: authorizationRequestQueries.all });
}

/** The same for push users: status changes made here go into the cache at once; then everything is refetched. */
export function pushUsersChanged(queryClient: QueryClient, updated: readonly PushMessageUser[] = []): Promise<void> {
  for (const user of updated) {
    // The detail keeps what only it has (its device's enrolment and last sight) until it is read again.
    queryClient.setQueryData(pushUserQueries.detail(user.Id).queryKey, (old) => ({ ...old, ...user }));
    queryClient.setQueryData(pushUserQueries.list().queryKey, (old: PushMessageUser[] | undefined) =>
      old?.map((row) => (row.Id === user.Id ? user : row)),
    );
  }
  void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
  return queryClient.invalidateQueries({ queryKey: pushUserQueries.all });
}
