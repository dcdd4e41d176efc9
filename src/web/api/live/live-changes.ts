import type { QueryClient } from '@tanstack/react-query';
import type { ChangeEvent } from '../../../shared/contract/index.ts';
import { activityQueries } from '../queries/activity-queries.ts';
import { peopleKeys } from '../queries/people-queries.ts';
import { authorizationRequestQueries, pushUserQueries } from '../queries/queries.ts';
import { requestContextQueries } from '../queries/request-context-queries.ts';
import { patchPushUser, patchRequest, pushUsersChanged, requestsChanged } from './cache-updates.ts';
import { streamChangeEvents } from './change-events.ts';
import { liveMode, setLiveMode } from './live-mode.ts';
import { isOwnEcho } from './own-changes.ts';

const RETRY_MS = 5_000;

const listeners = new Set<(event: ChangeEvent) => void>();
let requestListHolds = 0;

/** Hears every change after the cache has: for a page's own state (the queue's "N new requests"). */
export function onLiveChange(listener: (event: ChangeEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * While a page holds the request lists (the queue), a change marks them stale without refetching them: the page shows
 * what changed and brings it in on the person's word, so nothing moves under their eyes. Returns the release.
 */
export function holdRequestLists(): () => void {
  requestListHolds += 1;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    requestListHolds -= 1;
  };
}

/**
 * What one change means for the cache: a row the cache holds takes the change from the event itself (its history is
 * fetched, the rest marked stale for the next visit); a row it does not hold brings the lists and details that may
 * show it. While the queue holds the request lists, they only go stale.
 */
export function applyChange(queryClient: QueryClient, event: ChangeEvent): Promise<unknown> {
  // Every change is a security event, and may change a decision's context (a person's other devices): both are read
  // again where they are on screen.
  void queryClient.invalidateQueries({ queryKey: activityQueries.all });
  void queryClient.invalidateQueries({ queryKey: requestContextQueries.all });
  // New security events alone: the Activity pages above are all they change.
  if (event.Type === 'activity') return Promise.resolve();
  if (event.Type === 'reset') return Promise.all([requestsChanged(queryClient), pushUsersChanged(queryClient)]);
  if (event.Type === 'push-user') {
    if (!patchPushUser(queryClient, event)) return pushUsersChanged(queryClient);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: pushUserQueries.history(event.Id).queryKey }),
      queryClient.invalidateQueries({ queryKey: pushUserQueries.all, refetchType: 'none' }),
      // A person's page lists their devices and requests: it reads them again.
      queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
    ]);
  }
  if (requestListHolds === 0 && patchRequest(queryClient, event)) {
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: authorizationRequestQueries.history(event.Id).queryKey }),
      queryClient.invalidateQueries({ queryKey: authorizationRequestQueries.all, refetchType: 'none' }),
      queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
    ]);
  }
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: authorizationRequestQueries.detail(event.Id).queryKey }),
    queryClient.invalidateQueries({ queryKey: authorizationRequestQueries.history(event.Id).queryKey }),
    // A person's page lists their requests.
    queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
    queryClient.invalidateQueries({
      queryKey: authorizationRequestQueries.lists(),
      refetchType: requestListHolds > 0 ? 'none' : 'active',
    }),
  ]);
}

/**
 * Each open query's poll (pollUnlessLive) is read again whenever the stream's state changes: a query reads it only
 * when it fetches, so one loaded while the stream was connecting kept polling after the stream was up (the person
 * page asked for its events again 10 s after every load), and one loaded while live never started polling when the
 * stream went away. Nothing is fetched at once; a stream ended with the session would otherwise send the person to
 * sign-in before they do anything. Returns the unsubscribe.
 */
export function followLiveMode(queryClient: QueryClient): () => void {
  return liveMode.subscribe(() => {
    for (const query of queryClient.getQueryCache().getAll()) {
      for (const observer of query.observers) observer.setOptions(observer.options);
    }
  });
}

/**
 * The signed-in app's one subscription to the change stream: each change goes into the cache (the queue, the push
 * users, a push user's and a request's detail, the overview), then to the pages listening. Without the stream (a
 * server without the extension, a dropped connection) the pages poll, and it tries again every few seconds.
 * Returns the disconnect.
 */
export function connectLiveChanges(queryClient: QueryClient): () => void {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const unfollow = followLiveMode(queryClient);
  const lost = (retry: boolean) => {
    if (controller.signal.aborted) return;
    setLiveMode('polling');
    if (retry) timer = setTimeout(connect, RETRY_MS);
  };
  const connect = () => {
    setLiveMode('connecting');
    streamChangeEvents(
      (event) => {
        // This browser's own change is in its cache already, from the answer to its request.
        if (isOwnEcho(event)) return;
        void applyChange(queryClient, event);
        for (const listener of listeners) listener(event);
      },
      controller.signal,
      () => setLiveMode('live'),
    )
      .then((end) => lost(end === 'closed'))
      .catch(() => lost(true));
  };
  connect();
  return () => {
    controller.abort();
    clearTimeout(timer);
    unfollow();
    setLiveMode('connecting');
  };
}
