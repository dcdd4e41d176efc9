import { useEffect, useMemo } from 'react';
import { indexRows, type SearchIndex, warmSearchIndex } from './search-index.ts';

/**
 * A list's search index, made once per data change (`fields` must be a stable function), with its search texts
 * built while the page is idle after the first rows are on screen.
 */
export function useSearchIndex<T>(rows: readonly T[], fields: (row: T) => readonly unknown[]): SearchIndex<T> {
  const index = useMemo(() => indexRows(rows, fields), [rows, fields]);
  useEffect(() => warmSearchIndex(index), [index]);
  return index;
}
