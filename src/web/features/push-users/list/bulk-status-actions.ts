import type { PushMessageUser, PushUserStatus } from '../../../../shared/contract/index.ts';
import { PUSH_USER_STATUS_LOOK, STATUS_VALUES } from '../../../entities/push-user/push-user-status.ts';
import type { BulkAction } from '../../../ui/lists/bulk/bulk-bar.tsx';

/**
 * The status changes the bulk bar offers for the selected push users: only those that change at least one (all
 * Active: no "Activate"), each saying how many it changes when not all of them.
 */
export function bulkStatusActions(
  selected: readonly PushMessageUser[],
  start: (status: PushUserStatus, applies: (user: PushMessageUser) => boolean) => void,
): BulkAction[] {
  return STATUS_VALUES.flatMap((next) => {
    const applies = (user: PushMessageUser) => user.Status !== next;
    const changes = selected.filter(applies).length;
    if (changes === 0) return [];
    const look = PUSH_USER_STATUS_LOOK[next];
    return [
      {
        key: next,
        label: look.action,
        changes,
        // Filled: a light variant with a shade (red.9) paints its text in the background colour.
        variant: look.destructive ? 'filled' : 'default',
        color: look.destructive ? 'red.9' : undefined,
        onClick: () => start(next, applies),
      },
    ];
  });
}
