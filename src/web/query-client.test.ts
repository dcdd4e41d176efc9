import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAppQueryClient, JUST_ANSWERED_MS } from './query-client.ts';

/** A query as a page with `staleTime: 0` reads it, counting the requests it makes. */
function alwaysStaleQuery() {
  const queryClient = createAppQueryClient();
  const queryFn = vi.fn(async () => ({ asked: queryFn.mock.calls.length }));
  const options = { queryKey: ['accounts', 'list'], queryFn, staleTime: 0 };
  /** What a page does when it mounts: subscribe an observer, as useQuery does. */
  const mount = async () => {
    const observer = new QueryObserver(queryClient, options);
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(observer.getCurrentResult().isFetching).toBe(false));
    unsubscribe();
  };
  return { queryClient, queryFn, options, mount };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a page mounting right after its loader fetched', () => {
  it('does not ask again for the answer its loader just got', async () => {
    const { queryClient, queryFn, options, mount } = alwaysStaleQuery();
    await queryClient.ensureQueryData(options);
    await mount();
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('asks again once the answer is older than a moment, as staleTime 0 means', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { queryClient, queryFn, options, mount } = alwaysStaleQuery();
    await queryClient.ensureQueryData(options);
    vi.setSystemTime(Date.now() + JUST_ANSWERED_MS);
    await mount();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });

  it('asks again for an answer a change invalidated, however young', async () => {
    const { queryClient, queryFn, options, mount } = alwaysStaleQuery();
    await queryClient.ensureQueryData(options);
    await queryClient.invalidateQueries({ queryKey: options.queryKey });
    await mount();
    expect(queryFn).toHaveBeenCalledTimes(2);
  });
});
