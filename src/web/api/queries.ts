import { queryOptions } from '@tanstack/react-query';
import { isApiError } from './api-error.ts';
import { api } from './instance.ts';

/** A 404 from an extension endpoint means "this server has no such extension": asking again will not help. */
function retryUnlessMissing(failures: number, error: Error): boolean {
  return !(isApiError(error) && error.kind === 'not-found') && failures < 2;
}

export type RequestView = 'pending' | 'all';

/** How often the pending queue (and the nav badge, which shares its key) refreshes while the tab is visible. */
export const PENDING_POLL_MS = 15_000;

export const authorizationRequestQueries = {
  all: ['authorization-requests'] as const,
  lists: () => [...authorizationRequestQueries.all, 'list'] as const,
  list: ({ view }: { view: RequestView }) =>
    queryOptions({
      queryKey: [...authorizationRequestQueries.lists(), { view }] as const,
      queryFn: ({ signal }) => api.listAuthorizationRequests(view === 'all', signal),
      refetchInterval: view === 'pending' ? PENDING_POLL_MS : false,
    }),
  details: () => [...authorizationRequestQueries.all, 'detail'] as const,
  detail: (id: number) =>
    queryOptions({
      queryKey: [...authorizationRequestQueries.details(), id] as const,
      queryFn: ({ signal }) => api.getAuthorizationRequest(id, signal),
    }),
  /** Under this entity's key, so a decision's invalidation of `all` refreshes the timeline too. */
  history: (id: number) =>
    queryOptions({
      queryKey: [...authorizationRequestQueries.all, 'history', id] as const,
      queryFn: ({ signal }) => api.history('AuthorizationRequest', id, signal),
      retry: retryUnlessMissing,
    }),
};

export const pushUserQueries = {
  all: ['push-users'] as const,
  lists: () => [...pushUserQueries.all, 'list'] as const,
  list: () =>
    queryOptions({
      queryKey: pushUserQueries.lists(),
      queryFn: ({ signal }) => api.listPushUsers(signal),
    }),
  details: () => [...pushUserQueries.all, 'detail'] as const,
  detail: (id: number) =>
    queryOptions({
      queryKey: [...pushUserQueries.details(), id] as const,
      queryFn: ({ signal }) => api.getPushUser(id, signal),
    }),
  /** Under this entity's key, so a status change's invalidation of `all` refreshes the timeline too. */
  history: (id: number) =>
    queryOptions({
      queryKey: [...pushUserQueries.all, 'history', id] as const,
      queryFn: ({ signal }) => api.history('PushMessageUser', id, signal),
      retry: retryUnlessMissing,
    }),
};

/** How often the demo device inbox looks for new pushes. */
export const DEMO_INBOX_POLL_MS = 3_000;

export const demoQueries = {
  all: ['demo'] as const,
  pushes: () =>
    queryOptions({
      queryKey: [...demoQueries.all, 'pushes'] as const,
      queryFn: ({ signal }) => api.demoPushes(signal),
      refetchInterval: DEMO_INBOX_POLL_MS,
    }),
};
