import type { ReactNode } from 'react';
import type { RowSelection } from './use-row-selection.ts';

/** A list's selection column, as the list table draws it (beside each row, or in each card). */
export interface ListSelection<T> {
  header: ReactNode;
  cell: (row: T, index: number) => ReactNode;
  /** The page's selection: the card rendering has no checkbox column and selects through it. */
  state: RowSelection<T>;
  /** A card's checkbox name, e.g. "Select request #12 from ACME\jo". */
  rowLabel: (row: T) => string;
}

/**
 * A list's checkbox column over the page's selection: a header box for "all matching" and a box per row that
 * takes shift-click ranges (the click carries the modifier keys, so the row's box is driven by onClick).
 */
export function checkboxSelection<T>(
  state: RowSelection<T>,
  rowLabel: (row: T) => string,
  allLabel: string,
): ListSelection<T> {
  return {
    header: (
      <input
        type="checkbox"
        aria-label={allLabel}
        checked={state.allSelected}
        onChange={(event) => (event.currentTarget.checked ? state.selectAll() : state.clear())}
      />
    ),
    state,
    rowLabel,
    cell: (row, rowIndex) => (
      <input
        type="checkbox"
        aria-label={rowLabel(row)}
        checked={state.isSelected(row)}
        onChange={() => undefined}
        onClick={(event) => state.toggle(row, rowIndex, event)}
      />
    ),
  };
}
