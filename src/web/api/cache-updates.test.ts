import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest, PushMessageUser } from '../../shared/contract/index.ts';
import { pushUsersChanged, requestsChanged } from './cache-updates.ts';
import { authorizationRequestQueries, pushUserQueries } from './queries.ts';

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
