import { type AuthorizationRequest, parseTimestamp } from '../../../shared/contract/index.ts';
import type { RequestSort } from './queue-search.ts';

function created(request: AuthorizationRequest): number {
  return parseTimestamp(request.CreatedTimestampUtc)?.getTime() ?? 0;
}

const COMPARE: Record<RequestSort, (a: AuthorizationRequest, b: AuthorizationRequest) => number> = {
  newest: (a, b) => created(b) - created(a) || b.Id - a.Id,
  oldest: (a, b) => created(a) - created(b) || a.Id - b.Id,
  user: (a, b) => a.UserName.localeCompare(b.UserName) || a.Id - b.Id,
  device: (a, b) => `${a.Manufacturer} ${a.Model}`.localeCompare(`${b.Manufacturer} ${b.Model}`) || a.Id - b.Id,
};

/** Search matches any visible field, case-insensitively; every word must match somewhere. */
export function filterRequests(
  requests: readonly AuthorizationRequest[],
  { q, sort }: { q?: string | undefined; sort: RequestSort },
): AuthorizationRequest[] {
  const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matching = requests.filter((request) => {
    if (words.length === 0) return true;
    const haystack = [
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
    ]
      .filter((value) => value !== undefined && value !== null)
      .join(' ')
      .toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  return matching.sort(COMPARE[sort]);
}
