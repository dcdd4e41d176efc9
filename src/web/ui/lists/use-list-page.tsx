import { type ReactNode, useCallback, useMemo, useState } from 'react';
import type { Endpoint } from '../../../shared/contract/index.ts';
import type { CsvColumn } from '../../lib/csv-export.ts';
import { matchIndexed } from '../../lib/search/search-index.ts';
import { useLiveSearch } from '../../lib/search/use-live-search.ts';
import { useSearchIndex } from '../../lib/search/use-search-index.ts';
import { endpointAccess } from '../../session/permissions.ts';
import { useSession } from '../../session/session-context.tsx';
import { checkboxSelection, type ListSelection } from './bulk/checkbox-selection.tsx';
import { useRowSelection } from './bulk/use-row-selection.ts';
import { ExportCsvButton } from './export-csv-button.tsx';

/** What a list page asks of its route: to merge a change into the URL's search (`q` replaces the history entry). */
export interface SearchNavigator<S> {
  navigate(options: { search: (prev: S) => S; replace?: boolean }): unknown;
}

export interface ListPageOptions<T, S> extends SearchNavigator<S> {
  /** The list as loaded (undefined while it loads). */
  data: readonly T[] | undefined;
  /** The URL's search text. */
  q: string | undefined;
  /** What a search looks in (a stable function). */
  fields: (row: T) => readonly unknown[];
  /** Which indexed rows the page keeps besides the search (a status filter, new arrivals held back). */
  keep?: ((row: T) => boolean) | undefined;
  /** Rows are selectable for a bulk action when the person may call its endpoint. */
  selection?: { endpoint: Endpoint; idOf: (row: T) => number; rowLabel: (row: T) => string; noun: string };
  /** The CSV export of the rows on screen (columns must be stable). */
  csv?: { columns: readonly CsvColumn<T>[]; name: string };
}

const NO_ROWS: readonly never[] = [];
const NO_ID = () => 0;

/**
 * The kit every list page wires the same way: search from the URL (live while typing, an index built once per data
 * change), the rows the filter shows, row selection with its checkbox column, the CSV export of what is on screen,
 * and the bulk action under way. Each piece is memoized, so the page's memoized table skips a keystroke's first
 * render.
 */
export function useListPage<T, S, A>({ data, q, fields, keep, selection, csv, navigate }: ListPageOptions<T, S>) {
  const index = useSearchIndex(data ?? NO_ROWS, fields);
  const [search, onSearchInput] = useLiveSearch(q);
  // Stable, so the memoized toolbar renders for its own input only.
  const changeSearch = useCallback(
    (change: Partial<S>) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: 'q' in change }),
    [navigate],
  );
  const rows = useMemo(() => matchIndexed(index, search, keep), [index, search, keep]);

  const { session } = useSession();
  const canSelect = selection ? endpointAccess(session, selection.endpoint).allowed : false;
  const rowSelection = useRowSelection(rows, selection?.idOf ?? NO_ID);
  const rowLabel = selection?.rowLabel;
  const noun = selection?.noun;
  const selectionColumn = useMemo<ListSelection<T> | undefined>(
    () =>
      canSelect && rowLabel
        ? checkboxSelection(rowSelection, rowLabel, `Select all ${rows.length} matching ${noun}`)
        : undefined,
    [canSelect, rowSelection, rowLabel, noun, rows.length],
  );
  const columns = csv?.columns;
  const name = csv?.name;
  const exportButton = useMemo<ReactNode>(
    () => (columns && name ? <ExportCsvButton rows={rows} columns={columns} name={name} /> : null),
    [rows, columns, name],
  );

  const [bulk, setBulk] = useState<{ action: A; rows: T[] } | null>(null);
  const idOf = selection?.idOf ?? NO_ID;
  // The selected rows the filter shows, for the bulk bar to say what each action would change; no pass over the
  // rows while nothing is selected.
  const selectedIds = rowSelection.selectedIds;
  const selectedRows = useMemo<readonly T[]>(() => {
    if (selectedIds.length === 0) return NO_ROWS;
    const ids = new Set(selectedIds);
    return rows.filter((row) => ids.has(idOf(row)));
  }, [selectedIds, rows, idOf]);
  /** Starts a bulk action on the selected rows it applies to (all of them unless `applies` says otherwise). */
  const startBulk = useCallback(
    (action: A, applies?: (row: T) => boolean) =>
      setBulk({ action, rows: applies ? selectedRows.filter(applies) : [...selectedRows] }),
    [selectedRows],
  );

  return {
    rows,
    search,
    onSearchInput,
    changeSearch,
    selection: rowSelection,
    selectedRows,
    selectionColumn,
    exportButton,
    bulk,
    startBulk,
    endBulk: () => setBulk(null),
  };
}
