import { whenIdle } from '../loading/when-idle.ts';
/**
 * Lists of tens of thousands of rows: a keystroke only runs `includes` over prepared lowercase strings, the least
 * work a search can do per row. The strings are not built with the index: the first rows would wait for them
 * although no search needs them yet. They are built on the first search, or before it while
 * the page is idle (`warmSearchIndex`).
 */
export interface SearchIndex<T> {
  readonly rows: readonly T[];
  /** The lowercase search text of `rows[i]`, once built. */
  readonly texts: (string | undefined)[];
  readonly fields: (row: T) => readonly unknown[];
}

export function indexRows<T>(rows: readonly T[], fields: (row: T) => readonly unknown[]): SearchIndex<T> {
  return { rows, texts: new Array<string | undefined>(rows.length), fields };
}

function textAt<T>(index: SearchIndex<T>, at: number, row: T): string {
  let text = index.texts[at];
  if (text === undefined) {
    text = index
      .fields(row)
      .filter((value) => value !== undefined && value !== null)
      .join(' ')
      .toLowerCase();
    index.texts[at] = text;
  }
  return text;
}

/** Rows per idle slice: ~2-5 ms of work, well under a frame. */
const WARM_SLICE = 2_000;

/**
 * Builds the search texts in idle time, a slice at a time so no slice is a long task; returns a cancel function.
 */
export function warmSearchIndex<T>(index: SearchIndex<T>): () => void {
  let next = 0;
  let cancel: (() => void) | undefined;
  const schedule = () => {
    cancel = whenIdle(slice);
  };
  const slice = () => {
    const end = Math.min(next + WARM_SLICE, index.rows.length);
    for (; next < end; next++) textAt(index, next, index.rows[next] as T);
    if (next < index.rows.length) schedule();
  };
  if (index.rows.length > 0) schedule();
  return () => cancel?.();
}

export function searchWords(q: string | undefined): string[] {
  return (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** Every word must match somewhere; keeps the index's order. */
export function matchIndexed<T>(
  index: SearchIndex<T>,
  q: string | undefined,
  keep: (row: T) => boolean = () => true,
): T[] {
  const words = searchWords(q);
  const { rows } = index;
  const result: T[] = [];
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as T;
    if (!keep(row)) continue;
    if (words.length === 0) {
      result.push(row);
      continue;
    }
    const text = textAt(index, at, row);
    let ok = true;
    for (const word of words) {
      if (!text.includes(word)) {
        ok = false;
        break;
      }
    }
    if (ok) result.push(row);
  }
  return result;
}
