import type { PushMessageUser } from '../../../../shared/contract/index.ts';
import { FILTER_STATUS } from '../../../entities/push-user/push-user-status.ts';
import { matchIndexed, type SearchIndex } from '../../../lib/search/search-index.ts';
import type { StatusFilter } from './push-user-search.ts';

/** What a push-user search looks in. */
export const pushUserSearchFields = (user: PushMessageUser) => [
  user.Id,
  user.UserName,
  user.DeviceType,
  user.Manufacturer,
  user.Model,
];

/** Which push users a status filter keeps (undefined: all of them). */
export function statusKeeper(status: StatusFilter): ((user: PushMessageUser) => boolean) | undefined {
  return status === 'all' ? undefined : (user) => user.Status === FILTER_STATUS[status];
}

export function matchPushUsers(
  index: SearchIndex<PushMessageUser>,
  { status, q }: { status: StatusFilter; q?: string | undefined },
): PushMessageUser[] {
  return matchIndexed(index, q, statusKeeper(status));
}
