import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest, PushMessageUser } from '../../../shared/contract/index.ts';
import { authorizationRequestQueries, pushUserQueries } from '../queries/queries.ts';
import { pushUsersChanged, requestsChanged } from './cache-updates.ts';
import { applyChange } from './live-changes.ts';
import { isOwnEcho } from './own-changes.ts';

const request = (Id: number, Status?: AuthorizationRequest['Status']): AuthorizationRequest => ({
  Id,
  UserName: `ACME\\user${Id}`,
  UserEmail: `user${Id}@acme.example`,
  RequestGuid: '00000000-0000-4000-8000-000000000000',
  DeviceType: 'iOS',
  CreatedTimestampUtc: '2026-01-01 10:00:00.000',
  ModifiedTimestampUtc: '2026-01-01 10:00:00.000',
  Manufacturer: 'Apple',
  Model: 'iPhone',
  OsVersion: '18.0',
  ...(Status ? { Status } : {}),
});

const user = (Id: number, Status: PushMessageUser['Status']): PushMessageUser => ({
  Id,
  DeviceType: 'iOS',
  UserName: `ACME\\user${Id}`,
  CreatedTimeStampUtc: '2026-01-01 10:00:00.000',
  ModifiedTimestampUtc: '2026-01-01 10:00:00.000',
  Status,
});

// No query functions run: nothing observes these queries, so invalidation only marks them stale.
describe('cache updates', () => {
  it('a decision leaves the pending list, replaces its row in the full list and its detail, then everything is stale', async () => {
    const client = new QueryClient();
    const pending = authorizationRequestQueries.list({ view: 'pending' }).queryKey;
    const all = authorizationRequestQueries.list({ view: 'all' }).queryKey;
    client.setQueryData(pending, [request(1), request(2)]);
    client.setQueryData(all, [request(1), request(2)]);
    const decided = request(2, 'Authorized');
    await requestsChanged(client, [decided]);
    expect(client.getQueryData<AuthorizationRequest[]>(pending)?.map((row) => row.Id)).toEqual([1]);
    expect(client.getQueryData<AuthorizationRequest[]>(all)?.[1]).toEqual(decided);
    expect(client.getQueryData(authorizationRequestQueries.detail(2).queryKey)).toEqual(decided);
    expect(client.getQueryState(pending)?.isInvalidated).toBe(true);
    expect(client.getQueryState(all)?.isInvalidated).toBe(true);
  });

  it('news from elsewhere only marks the lists stale', async () => {
    const client = new QueryClient();
    const pending = authorizationRequestQueries.list({ view: 'pending' }).queryKey;
    client.setQueryData(pending, [request(1)]);
    await requestsChanged(client);
    expect(client.getQueryData<AuthorizationRequest[]>(pending)?.map((row) => row.Id)).toEqual([1]);
    expect(client.getQueryState(pending)?.isInvalidated).toBe(true);
  });

  it('a status change replaces the push user in the list and its detail', async () => {
    const client = new QueryClient();
    const list = pushUserQueries.list().queryKey;
    client.setQueryData(list, [user(1, 1), user(2, 1)]);
    const disabled = user(1, 2);
    await pushUsersChanged(client, [disabled]);
    expect(client.getQueryData<PushMessageUser[]>(list)).toEqual([disabled, user(2, 1)]);
    expect(client.getQueryData(pushUserQueries.detail(1).queryKey)).toEqual(disabled);
    expect(client.getQueryState(list)?.isInvalidated).toBe(true);
  });
});

/** Counts the fetches of an active list, as an open page's observer would make them. */
function watch(client: QueryClient, queryKey: readonly unknown[]) {
  const fetched = { count: 0 };
  const observer = new QueryObserver(client, {
    queryKey,
    queryFn: () => {
      fetched.count += 1;
      return [];
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { fetched, stop: observer.subscribe(() => undefined) };
}

describe('a live change to a row the cache holds', () => {
  it('writes a request’s new status into its rows, takes it out of the pending view, and fetches no list', async () => {
    const client = new QueryClient();
    const pending = authorizationRequestQueries.list({ view: 'pending' }).queryKey;
    const all = authorizationRequestQueries.list({ view: 'all' }).queryKey;
    client.setQueryData(pending, [request(1, 'Pending'), request(2, 'Pending')]);
    client.setQueryData(all, [request(1, 'Pending'), request(2, 'Pending')]);
    client.setQueryData(authorizationRequestQueries.detail(2).queryKey, request(2, 'Pending'));
    const { fetched, stop } = watch(client, pending);
    await applyChange(client, { Type: 'authorization-request', Id: 2, Status: 'Rejected', ChangedBy: 'ACME\\lead' });
    expect(client.getQueryData<AuthorizationRequest[]>(pending)?.map((row) => row.Id)).toEqual([1]);
    expect(client.getQueryData<AuthorizationRequest[]>(all)?.[1]).toMatchObject({
      Status: 'Rejected',
      DecidedBy: 'ACME\\lead',
    });
    expect(client.getQueryData(authorizationRequestQueries.detail(2).queryKey)).toMatchObject({ Status: 'Rejected' });
    expect(fetched.count).toBe(0);
    stop();
  });

  it('writes a push user’s new status into the list and its detail, and fetches no list', async () => {
    const client = new QueryClient();
    const list = pushUserQueries.list().queryKey;
    client.setQueryData(list, [user(1, 1), user(2, 1)]);
    client.setQueryData(pushUserQueries.detail(2).queryKey, user(2, 1));
    const { fetched, stop } = watch(client, list);
    await applyChange(client, { Type: 'push-user', Id: 2, Status: 2, ChangedBy: 'ACME\\lead' });
    expect(client.getQueryData<PushMessageUser[]>(list)?.map((row) => row.Status)).toEqual([1, 2]);
    expect(client.getQueryData(pushUserQueries.detail(2).queryKey)).toMatchObject({ Status: 2 });
    expect(fetched.count).toBe(0);
    stop();
  });

  it('fetches the lists for a row the cache does not hold (a new request)', async () => {
    const client = new QueryClient();
    const pending = authorizationRequestQueries.list({ view: 'pending' }).queryKey;
    client.setQueryData(pending, [request(1, 'Pending')]);
    const { fetched, stop } = watch(client, pending);
    await applyChange(client, { Type: 'authorization-request', Id: 5, Status: 'Pending', ChangedBy: null });
    expect(fetched.count).toBe(1);
    stop();
  });
});

describe('the echo of this browser’s own change', () => {
  it('is recognised once for a decision made here, and never for the same change by nobody here', async () => {
    const client = new QueryClient();
    await requestsChanged(client, [request(31, 'Authorized')]);
    await pushUsersChanged(client, [user(32, 3)]);
    expect(isOwnEcho({ Type: 'authorization-request', Id: 31, Status: 'Authorized', ChangedBy: 'me' })).toBe(true);
    expect(isOwnEcho({ Type: 'authorization-request', Id: 31, Status: 'Authorized', ChangedBy: 'me' })).toBe(false);
    expect(isOwnEcho({ Type: 'push-user', Id: 32, Status: 3, ChangedBy: 'me' })).toBe(true);
    expect(isOwnEcho({ Type: 'push-user', Id: 33, Status: 3, ChangedBy: 'someone' })).toBe(false);
    expect(isOwnEcho({ Type: 'reset' })).toBe(false);
  });
});
