import type { QueryClient } from '@tanstack/react-query';
import type { AuthorizationRequest, ChangeEvent, PushMessageUser } from '../../../shared/contract/index.ts';
import { peopleKeys } from '../queries/people-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../queries/queries.ts';
import { rememberOwnChange } from './own-changes.ts';

type RequestChange = Extract<ChangeEvent, { Type: 'authorization-request' }>;
type PushUserChange = Extract<ChangeEvent, { Type: 'push-user' }>;

/**
 * A request's change from elsewhere, written into the cached rows that show it: its status and who decided, and out
 * of the pending views once decided. False when no cached list holds the row (a new request): then the lists are
 * fetched.
 */
export function patchRequest(queryClient: QueryClient, change: RequestChange): boolean {
  const lists = queryClient.getQueriesData<AuthorizationRequest[]>({ queryKey: authorizationRequestQueries.lists() });
  if (!lists.some(([, rows]) => rows?.some((row) => row.Id === change.Id))) return false;
  const patch = (row: AuthorizationRequest): AuthorizationRequest =>
    row.Id === change.Id ? { ...row, Status: change.Status, DecidedBy: change.ChangedBy ?? row.DecidedBy } : row;
  for (const [key, rows] of lists) {
    if (!rows) continue;
    const pendingView = (key.at(-1) as { view?: string } | undefined)?.view === 'pending';
    const kept = pendingView && change.Status !== 'Pending' ? rows.filter((row) => row.Id !== change.Id) : rows;
    queryClient.setQueryData(key, kept.map(patch));
  }
  queryClient.setQueryData(
    authorizationRequestQueries.detail(change.Id).queryKey,
    (old: AuthorizationRequest | undefined) => (old ? patch(old) : old),
  );
  return true;
}

/** A push user's status change from elsewhere, written into the cached rows; false when no cached list holds it. */
export function patchPushUser(queryClient: QueryClient, change: PushUserChange): boolean {
  const list = queryClient.getQueryData<PushMessageUser[]>(pushUserQueries.list().queryKey);
  if (!list?.some((row) => row.Id === change.Id)) return false;
  const patch = (row: PushMessageUser): PushMessageUser =>
    row.Id === change.Id ? { ...row, Status: change.Status } : row;
  queryClient.setQueryData(pushUserQueries.list().queryKey, list.map(patch));
  queryClient.setQueryData(pushUserQueries.detail(change.Id).queryKey, (old: PushMessageUser | undefined) =>
    old ? patch(old) : old,
  );
  return true;
}

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
    if (request.Status) rememberOwnChange({ Type: 'authorization-request', Id: request.Id, Status: request.Status });
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
    rememberOwnChange({ Type: 'push-user', Id: user.Id, Status: user.Status });
    // The detail keeps what only it has (its device's enrolment and last sight) until it is read again.
    queryClient.setQueryData(pushUserQueries.detail(user.Id).queryKey, (old) => ({ ...old, ...user }));
    queryClient.setQueryData(pushUserQueries.list().queryKey, (old: PushMessageUser[] | undefined) =>
      old?.map((row) => (row.Id === user.Id ? user : row)),
    );
  }
  void queryClient.invalidateQueries({ queryKey: peopleKeys.all });
  return queryClient.invalidateQueries({ queryKey: pushUserQueries.all });
}
