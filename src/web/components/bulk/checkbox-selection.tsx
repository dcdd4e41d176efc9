import type { ListSelection } from '../list-table.tsx';
import type { RowSelection } from './use-row-selection.ts';

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
