import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authorizationRequestQueries, pushUserQueries } from '../queries/queries.ts';
import { applyChange, followLiveMode, holdRequestLists } from './live-changes.ts';
import { pollUnlessLive, setLiveMode } from './live-mode.ts';

/** A cache with the lists and details the pages show, each already loaded. */
function loadedCache() {
  const queryClient = new QueryClient();
  const keys = [
    pushUserQueries.list().queryKey,
    pushUserQueries.detail(3).queryKey,
    pushUserQueries.detail(4).queryKey,
    authorizationRequestQueries.list({ view: 'pending' }).queryKey,
    authorizationRequestQueries.detail(7).queryKey,
    authorizationRequestQueries.detail(8).queryKey,
  ];
  for (const key of keys) queryClient.setQueryData(key, []);
  const stale = () =>
    keys.filter((key) => queryClient.getQueryState(key)?.isInvalidated).map((key) => JSON.stringify(key));
  return { queryClient, stale };
}

describe('a live change and the cache', () => {
  it('a push user’s status change refreshes the push users list and details', async () => {
    const { queryClient, stale } = loadedCache();
    await applyChange(queryClient, { Type: 'push-user', Id: 3, Status: 2, ChangedBy: 'DEMO\\admin' });
    expect(stale()).toEqual([
      JSON.stringify(pushUserQueries.list().queryKey),
      JSON.stringify(pushUserQueries.detail(3).queryKey),
      JSON.stringify(pushUserQueries.detail(4).queryKey),
    ]);
  });

  it('a request’s change refreshes its detail and the request lists, and nothing of the push users', async () => {
    const { queryClient, stale } = loadedCache();
    await applyChange(queryClient, {
      Type: 'authorization-request',
      Id: 7,
      Status: 'Authorized',
      ChangedBy: 'DEMO\\admin',
    });
    expect(stale()).toEqual([
      JSON.stringify(authorizationRequestQueries.list({ view: 'pending' }).queryKey),
      JSON.stringify(authorizationRequestQueries.detail(7).queryKey),
    ]);
  });

  it('while the queue holds the request lists, they are marked stale but not refetched', async () => {
    const { queryClient } = loadedCache();
    let fetched = 0;
    const listKey = authorizationRequestQueries.list({ view: 'pending' }).queryKey;
    // An observer makes the list active, as the open queue does.
    const observer = new QueryObserver(queryClient, {
      queryKey: listKey,
      queryFn: () => {
        fetched += 1;
        return [];
      },
      staleTime: Number.POSITIVE_INFINITY,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    const release = holdRequestLists();
    await applyChange(queryClient, { Type: 'authorization-request', Id: 9, Status: 'Pending', ChangedBy: null });
    expect(queryClient.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(fetched).toBe(0);
    release();
    await applyChange(queryClient, { Type: 'authorization-request', Id: 10, Status: 'Pending', ChangedBy: null });
    expect(fetched).toBe(1);
    unsubscribe();
  });
});

describe('a poll and the stream’s state', () => {
  afterEach(() => {
    vi.useRealTimers();
    setLiveMode('connecting');
  });

  it('a query loaded while the stream connects stops polling once it is live, and polls again when it drops', async () => {
    vi.useFakeTimers();
    setLiveMode('connecting');
    const queryClient = new QueryClient();
    const unfollow = followLiveMode(queryClient);
    let fetched = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: ['polled'],
      queryFn: () => {
        fetched += 1;
        return fetched;
      },
      refetchInterval: pollUnlessLive(1_000),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(fetched).toBe(1);

    setLiveMode('live');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(fetched).toBe(1);

    setLiveMode('polling');
    // Nothing at once: the first poll comes a whole interval later.
    await vi.advanceTimersByTimeAsync(0);
    expect(fetched).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetched).toBe(2);

    unsubscribe();
    unfollow();
  });
});
