import { act, renderHook } from '@testing-library/react';
import type { MouseEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/core/api-error.ts';
import { type BulkOutcome, runBulk } from './bulk-run.ts';
import { useRowSelection } from './use-row-selection.ts';

describe('runBulk', () => {
  it('reports done, already decided and failed (with the reason) per item', async () => {
    const outcomes = new Map<number, { outcome: BulkOutcome; reason?: string | undefined }>();
    await runBulk(
      [1, 2, 3],
      async (id) => {
        if (id === 2) {
          throw new ApiError({ kind: 'already-decided', status: 409, title: 'Conflict', detail: 'Decided by someone' });
        }
        if (id === 3) throw new ApiError({ kind: 'network', status: 0, title: 'Offline', detail: 'No answer' });
      },
      (id, outcome, reason) => outcomes.set(id, { outcome, reason }),
    );
    expect(outcomes.get(1)?.outcome).toBe('done');
    expect(outcomes.get(2)?.outcome).toBe('already');
    expect(outcomes.get(3)?.outcome).toBe('failed');
    expect(outcomes.get(3)?.reason).toBeTruthy();
  });
});

describe('useRowSelection', () => {
  const rows = [{ Id: 10 }, { Id: 11 }, { Id: 12 }, { Id: 13 }];
  const idOf = (row: { Id: number }) => row.Id;
  const click = (checked: boolean, shiftKey = false) =>
    ({ currentTarget: { checked }, shiftKey }) as unknown as MouseEvent<HTMLInputElement>;

  it('selects a shift-click range and all matching rows', () => {
    const { result, rerender } = renderHook(({ list }) => useRowSelection(list, idOf), {
      initialProps: { list: rows },
    });
    act(() => result.current.toggle(rows[0] as { Id: number }, 0, click(true)));
    act(() => result.current.toggle(rows[2] as { Id: number }, 2, click(true, true)));
    expect(result.current.selectedIds.sort()).toEqual([10, 11, 12]);
    act(() => result.current.selectAll());
    expect(result.current.allSelected).toBe(true);
    // A narrower filter: only what is still shown counts.
    rerender({ list: rows.slice(0, 2) });
    expect(result.current.selectedIds.sort()).toEqual([10, 11]);
    act(() => result.current.clear());
    expect(result.current.selectedIds).toEqual([]);
  });

  it('keeps its object while neither the rows nor the selection change (memoized tables skip a render)', () => {
    const { result, rerender } = renderHook(({ list }) => useRowSelection(list, idOf), {
      initialProps: { list: rows },
    });
    const first = result.current;
    rerender({ list: rows });
    expect(result.current).toBe(first);
    act(() => result.current.toggle(rows[1] as { Id: number }, 1, click(true)));
    expect(result.current).not.toBe(first);
    expect(result.current.isSelected(rows[1] as { Id: number })).toBe(true);
    expect(result.current.allSelected).toBe(false);
  });
});
