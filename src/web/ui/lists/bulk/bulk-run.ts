import { isApiError } from '../../../api/core/api-error.ts';
import { describeError } from '../../../api/core/describe-error.ts';

export type BulkOutcome = 'pending' | 'running' | 'done' | 'already' | 'failed';

export interface BulkItem {
  id: number;
  label: string;
  outcome: BulkOutcome;
  reason?: string;
}

/** One call per item (the API takes one at a time), a few at once; each item's outcome as it lands. */
export async function runBulk(
  ids: readonly number[],
  runOne: (id: number) => Promise<unknown>,
  onUpdate: (id: number, outcome: BulkOutcome, reason?: string) => void,
  concurrency = 4,
): Promise<void> {
  const queue = [...ids];
  async function worker() {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      onUpdate(id, 'running');
      try {
        await runOne(id);
        onUpdate(id, 'done');
      } catch (error) {
        if (isApiError(error) && error.kind === 'already-decided') onUpdate(id, 'already', error.message);
        else onUpdate(id, 'failed', describeError(error).message);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, worker));
}
