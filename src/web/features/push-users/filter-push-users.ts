import type { PushMessageUser } from '../../../shared/contract/index.ts';
import { FILTER_STATUS } from '../../components/push-user-status.ts';
import { type Indexed, indexRows, matchIndexed } from '../../lib/search-index.ts';
import type { StatusFilter } from './push-user-search.ts';

export function indexPushUsers(users: readonly PushMessageUser[]): Indexed<PushMessageUser>[] {
  return indexRows(users, (user) => [user.Id, user.UserName, user.DeviceType]);
}

export function matchPushUsers(
  index: readonly Indexed<PushMessageUser>[],
  { status, q }: { status: StatusFilter; q?: string | undefined },
): PushMessageUser[] {
  return matchIndexed(index, q, status === 'all' ? undefined : (user) => user.Status === FILTER_STATUS[status]);
}
