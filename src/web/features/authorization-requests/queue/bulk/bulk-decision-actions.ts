import type { AuthorizationRequest } from '../../../../../shared/contract/index.ts';
import type { Decision } from '../../../../entities/request/decision.ts';
import type { BulkAction } from '../../../../ui/lists/bulk/bulk-bar.tsx';

/**
 * The decisions the bulk bar offers for the selected requests: Approve and Reject for the pending ones among them
 * ("Approve 2 of 5"), nothing, and why, when none is pending.
 */
export function bulkDecisionActions(
  selected: readonly AuthorizationRequest[],
  isPending: (request: AuthorizationRequest) => boolean,
  start: (decision: Decision) => void,
): { actions: BulkAction[]; nothingToDo: string } {
  const pending = selected.filter(isPending).length;
  const nothingToDo =
    selected.length === 1
      ? 'It is already decided: nothing to approve or reject.'
      : 'All of them are already decided: nothing to approve or reject.';
  if (pending === 0) return { actions: [], nothingToDo };
  return {
    actions: [
      { key: 'approve', label: 'Approve', changes: pending, onClick: () => start('approve') },
      // Filled: a light variant with a shade (red.9) paints its text in the background colour.
      { key: 'reject', label: 'Reject', color: 'red.9', changes: pending, onClick: () => start('reject') },
    ],
    nothingToDo,
  };
}
