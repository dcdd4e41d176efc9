import { type MouseEvent, useCallback, useMemo, useRef, useState } from 'react';

/**
 * Row selection for long (virtualized) lists: ids, not DOM state. Shift-click selects the range from the last
 * clicked row; "all matching" selects every row the filter shows, rendered or not.
 */
export function useRowSelection<T>(rows: readonly T[], idOf: (row: T) => number) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const anchor = useRef<number | null>(null);
  const visibleIds = useMemo(() => new Set(rows.map(idOf)), [rows, idOf]);
  // Only what the filter still shows counts as selected.
  const effective = useMemo(() => [...selected].filter((id) => visibleIds.has(id)), [selected, visibleIds]);

  const toggle = useCallback(
    (row: T, index: number, event: MouseEvent<HTMLInputElement>) => {
      const id = idOf(row);
      const checked = event.currentTarget.checked;
      const shift = event.shiftKey;
      // Read now: the updater may run after the anchor below has moved.
      const from = anchor.current;
      setSelected((old) => {
        const next = new Set(old);
        if (shift && from !== null && from !== index) {
          const [start, end] = from < index ? [from, index] : [index, from];
          for (let i = start; i <= end; i++) {
            const target = rows[i];
            if (target === undefined) continue;
            if (checked) next.add(idOf(target));
            else next.delete(idOf(target));
          }
        } else if (checked) next.add(id);
        else next.delete(id);
        return next;
      });
      anchor.current = index;
    },
    [rows, idOf],
  );

  return {
    selectedIds: effective,
    isSelected: (row: T) => selected.has(idOf(row)),
    toggle,
    selectAll: () => setSelected(new Set(visibleIds)),
    clear: () => {
      setSelected(new Set());
      anchor.current = null;
    },
    allSelected: effective.length > 0 && effective.length === visibleIds.size,
    set: (ids: Iterable<number>) => setSelected(new Set(ids)),
    /** Selects or unselects one row without a click event (a tapped or long-pressed card). */
    toggleOne: (row: T) => {
      const id = idOf(row);
      setSelected((old) => {
        const next = new Set(old);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
      anchor.current = rows.indexOf(row);
    },
  };
}

export type RowSelection<T> = ReturnType<typeof useRowSelection<T>>;
