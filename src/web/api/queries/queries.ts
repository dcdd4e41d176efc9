import { endpoints } from '../../../shared/contract/index.ts';
import { isApiError } from '../core/api-error.ts';
import { pollUnlessLive } from '../live/live-mode.ts';
import { ASKED_BY_LOADER, endpointQuery } from './endpoint-query.ts';

/** A 404 from an extension endpoint means "this server has no such extension": asking again will not help. */
function retryUnlessMissing(failures: number, error: Error): boolean {
  return !(isApiError(error) && error.kind === 'not-found') && failures < 2;
}

export type RequestView = 'pending' | 'all';

/**
 * How often the pending queue (and the nav badge, which shares its key) refreshes while the tab is visible; the push
 * users and the detail pages poll as often, but only while the live stream is not there.
 */
export const PENDING_POLL_MS = 15_000;

const requestKeys = {
  all: ['authorization-requests'] as const,
  lists: () => [...requestKeys.all, 'list'] as const,
  details: () => [...requestKeys.all, 'detail'] as const,
};

export const authorizationRequestQueries = {
  ...requestKeys,
  list: endpointQuery(endpoints.listAuthorizationRequests, ({ view }: { view: RequestView }) => ({
    queryKey: [...requestKeys.lists(), { view }] as const,
    call: { query: { getall: String(view === 'all') } },
    options: { refetchInterval: view === 'pending' ? PENDING_POLL_MS : false },
  })),
  detail: endpointQuery(endpoints.getAuthorizationRequest, (id: number) => ({
    queryKey: [...requestKeys.details(), id] as const,
    call: { params: { id } },
    options: { ...ASKED_BY_LOADER, refetchInterval: pollUnlessLive(PENDING_POLL_MS) },
  })),
  /** Under this entity's key, so a decision's invalidation of `all` refreshes the timeline too. */
  history: endpointQuery(endpoints.history, (id: number) => ({
    queryKey: [...requestKeys.all, 'history', id] as const,
    call: { query: { entity: 'AuthorizationRequest', id: String(id) } },
    options: { retry: retryUnlessMissing },
  })),
};

const pushUserKeys = {
  all: ['push-users'] as const,
  lists: () => [...pushUserKeys.all, 'list'] as const,
  details: () => [...pushUserKeys.all, 'detail'] as const,
};

export const pushUserQueries = {
  ...pushUserKeys,
  list: endpointQuery(endpoints.listPushMessageUsers, () => ({
    queryKey: pushUserKeys.lists(),
    options: { refetchInterval: pollUnlessLive(PENDING_POLL_MS) },
  })),
  detail: endpointQuery(endpoints.getPushMessageUser, (id: number) => ({
    queryKey: [...pushUserKeys.details(), id] as const,
    call: { params: { id } },
    options: { ...ASKED_BY_LOADER, refetchInterval: pollUnlessLive(PENDING_POLL_MS) },
  })),
  /** Under this entity's key, so a status change's invalidation of `all` refreshes the timeline too. */
  history: endpointQuery(endpoints.history, (id: number) => ({
    queryKey: [...pushUserKeys.all, 'history', id] as const,
    call: { query: { entity: 'PushMessageUser', id: String(id) } },
    options: { retry: retryUnlessMissing },
  })),
};

/** How often the demo device inbox looks for new pushes. */
export const DEMO_INBOX_POLL_MS = 3_000;

const demoKeys = { all: ['demo'] as const };

export const demoQueries = {
  ...demoKeys,
  pushes: endpointQuery(endpoints.demoListPushes, () => ({
    queryKey: [...demoKeys.all, 'pushes'] as const,
    options: { refetchInterval: DEMO_INBOX_POLL_MS },
  })),
};

/** A new organisation's set-up steps (the overview's first-run checklist): asked again on each visit. */
export const setupQueries = {
  progress: endpointQuery(endpoints.setupProgress, () => ({
    queryKey: ['setup', 'progress'] as const,
    options: { staleTime: 0, retry: retryUnlessMissing },
  })),
};
