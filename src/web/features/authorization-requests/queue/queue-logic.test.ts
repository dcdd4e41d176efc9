import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest } from '../../../../shared/contract/index.ts';
import { requestStatus } from '../../../entities/request/request-status.ts';
import { indexRows, matchIndexed } from '../../../lib/search/search-index.ts';
import { requestSearchFields, sortRequests } from './filter-requests.ts';
import { QueueSearch, type RequestSort } from './queue-search.ts';

/** What the queue page does with its list: sort, index, match the search. */
function filterRequests(
  requests: readonly AuthorizationRequest[],
  { q, sort }: { q?: string | undefined; sort: RequestSort },
): AuthorizationRequest[] {
  return matchIndexed(indexRows(sortRequests(requests, sort), requestSearchFields), q);
}

function request(id: number, overrides: Partial<AuthorizationRequest> = {}): AuthorizationRequest {
  return {
    Id: id,
    UserName: `ACME\\user${id}`,
    UserEmail: `user${id}@acme.example`,
    RequestGuid: '00000000-0000-4000-8000-000000000000',
    DeviceType: 'iOS',
    CreatedTimestampUtc: `2026-01-0${id} 10:00:00.000`,
    ModifiedTimestampUtc: `2026-01-0${id} 10:00:00.000`,
    Manufacturer: 'Apple',
    Model: 'iPhone',
    OsVersion: '18.0',
    ...overrides,
  };
}

describe('request status', () => {
  it('uses the Status extension when the server sends it', () => {
    expect(requestStatus(request(1, { Status: 'Rejected' }), new Set([1]))).toBe('Rejected');
  });

  it('derives pending from the getall=false list when the server has no extensions', () => {
    expect(requestStatus(request(1), new Set([1]))).toBe('Pending');
    expect(requestStatus(request(2), new Set([1]))).toBe('Decided');
    expect(requestStatus(request(2), undefined)).toBeNull();
  });
});

describe('queue filtering', () => {
  const list = [
    request(1, { UserName: 'ACME\\zoe', Manufacturer: 'Google', Model: 'Pixel 9', DeviceType: 'Android' }),
    request(2, { UserName: 'ACME\\adam', Manufacturer: 'Apple', Model: 'iPhone 15' }),
    request(3, { UserName: 'ACME\\mia', Manufacturer: 'Samsung', Model: 'Galaxy S24', OsVersion: '14' }),
  ];

  it('sorts newest first by default, and by the other keys', () => {
    expect(filterRequests(list, { sort: 'newest' }).map((r) => r.Id)).toEqual([3, 2, 1]);
    expect(filterRequests(list, { sort: 'oldest' }).map((r) => r.Id)).toEqual([1, 2, 3]);
    expect(filterRequests(list, { sort: 'user' }).map((r) => r.Id)).toEqual([2, 3, 1]);
    expect(filterRequests(list, { sort: 'device' }).map((r) => r.Id)).toEqual([2, 1, 3]);
  });

  it('matches every word of the search across fields, ignoring case', () => {
    expect(filterRequests(list, { q: 'pixel', sort: 'newest' }).map((r) => r.Id)).toEqual([1]);
    expect(filterRequests(list, { q: 'SAMSUNG 14', sort: 'newest' }).map((r) => r.Id)).toEqual([3]);
    expect(filterRequests(list, { q: 'apple android', sort: 'newest' })).toEqual([]);
  });

  it('reads the URL with safe defaults', () => {
    expect(QueueSearch.parse({})).toEqual({ view: 'pending', sort: 'newest' });
    expect(QueueSearch.parse({ view: 'everything', sort: 'random', q: 'x' })).toEqual({
      view: 'pending',
      sort: 'newest',
      q: 'x',
    });
  });
});
