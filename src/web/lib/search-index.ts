/**
 * Lists of tens of thousands of rows: the lowercase search text of each row is built once per data
 * change, so a keystroke only runs `includes` over prepared strings (issue 4: ≤ 100 ms at 50,000 rows).
 */
export interface Indexed<T> {
  row: T;
  text: string;
}

export function indexRows<T>(rows: readonly T[], fields: (row: T) => readonly unknown[]): Indexed<T>[] {
  return rows.map((row) => ({
    row,
    text: fields(row)
      .filter((value) => value !== undefined && value !== null)
      .join(' ')
      .toLowerCase(),
  }));
}

export function searchWords(q: string | undefined): string[] {
  return (q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
}

/** Every word must match somewhere; keeps the index's order. */
export function matchIndexed<T>(
  index: readonly Indexed<T>[],
  q: string | undefined,
  keep: (row: T) => boolean = () => true,
): T[] {
  const words = searchWords(q);
  const result: T[] = [];
  for (const entry of index) {
    if (!keep(entry.row)) continue;
    let ok = true;
    for (const word of words) {
      if (!entry.text.includes(word)) {
        ok = false;
        break;
      }
    }
    if (ok) result.push(entry.row);
  }
  return result;
}
