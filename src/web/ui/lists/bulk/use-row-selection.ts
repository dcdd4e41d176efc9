import { type MouseEvent, useCallback, useMemo, useRef, useState } from 'react';

/**
 * Row selection for long (virtualized) lists: ids, not DOM state. Shift-click selects the range from the last
 * clicked row; "all matching" selects every row the filter shows, rendered or not.
 *
 * The returned object changes only when the selection or the rows do, so memoized rows and tables skip a render
 * that changes neither. No per-render pass over the rows while nothing is selected: a search keystroke at 50,000
 * rows pays for one filter pass, not for a set of every visible id as well.
 */
export function useRowSelection<T>(rows: readonly T[], idOf: (row: T) => number) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const anchor = useRef<number | null>(null);
  // Only what the filter still shows counts as selected.
  const effective = useMemo(() => {
    if (selected.size === 0) return [];
    const visible = new Set(rows.map(idOf));
    return [...selected].filter((id) => visible.has(id));
  }, [selected, rows, idOf]);

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

  return useMemo(
    () => ({
      selectedIds: effective,
      isSelected: (row: T) => selected.has(idOf(row)),
      toggle,
      selectAll: () => setSelected(new Set(rows.map(idOf))),
      clear: () => {
        setSelected(new Set());
        anchor.current = null;
      },
      // Ids are unique, so as many selected as shown is all of them.
      allSelected: effective.length > 0 && effective.length === rows.length,
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
    }),
    [effective, selected, toggle, rows, idOf],
  );
}

export type RowSelection<T> = ReturnType<typeof useRowSelection<T>>;
