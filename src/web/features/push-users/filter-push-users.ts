import type { PushMessageUser } from '../../../shared/contract/index.ts';
import type { StatusFilter } from './push-user-search.ts';
import { FILTER_STATUS } from './push-user-status.ts';

export function filterPushUsers(
  users: readonly PushMessageUser[],
  { status, q }: { status: StatusFilter; q?: string | undefined },
): PushMessageUser[] {
  const words = (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return users.filter((user) => {
    if (status !== 'all' && user.Status !== FILTER_STATUS[status]) return false;
    const haystack = `${user.Id} ${user.UserName} ${user.DeviceType}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
