import { type AuthorizationRequest, parseTimestamp } from '../../../../shared/contract/index.ts';
import type { RequestSort } from './queue-search.ts';

const collator = new Intl.Collator();

/** Sorts once per data/sort change; timestamps are parsed once per row, not once per comparison. */
export function sortRequests(requests: readonly AuthorizationRequest[], sort: RequestSort): AuthorizationRequest[] {
  if (sort === 'newest' || sort === 'oldest') {
    const keyed = requests.map((request) => ({
      request,
      at: parseTimestamp(request.CreatedTimestampUtc)?.getTime() ?? 0,
    }));
    const sign = sort === 'newest' ? -1 : 1;
    keyed.sort((a, b) => sign * (a.at - b.at) || sign * (a.request.Id - b.request.Id));
    return keyed.map((entry) => entry.request);
  }
  const key =
    sort === 'user'
      ? (request: AuthorizationRequest) => request.UserName
      : (request: AuthorizationRequest) => `${request.Manufacturer} ${request.Model}`;
  const keyed = requests.map((request) => ({ request, key: key(request) }));
  keyed.sort((a, b) => collator.compare(a.key, b.key) || a.request.Id - b.request.Id);
  return keyed.map((entry) => entry.request);
}

/** Search covers every visible field, case-insensitively. */
export const requestSearchFields = (request: AuthorizationRequest) => [
  request.Id,
  request.UserName,
  request.UserEmail,
  request.DeviceType,
  request.Manufacturer,
  request.Model,
  request.OsVersion,
  request.Status,
  request.DecidedBy,
  request.Comment,
];
