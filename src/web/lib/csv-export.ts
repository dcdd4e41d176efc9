import { parseTimestamp } from '../../shared/contract/index.ts';

export type CsvValue = string | number | boolean | null | undefined;

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => CsvValue;
}

const localFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/** A server timestamp as two columns' worth: ISO 8601 UTC, and local time as the person reads it. */
export function timestampColumns<T>(header: string, value: (row: T) => string | null | undefined): CsvColumn<T>[] {
  return [
    {
      header: `${header} (UTC)`,
      value: (row) => {
        const date = parseTimestamp(value(row) ?? '');
        return date ? date.toISOString() : (value(row) ?? '');
      },
    },
    {
      header: `${header} (local)`,
      value: (row) => {
        const date = parseTimestamp(value(row) ?? '');
        return date ? localFormat.format(date) : '';
      },
    },
  ];
}

/** What a spreadsheet may take for the start of a formula (OWASP's CSV injection guidance). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula, made inert with a leading apostrophe, whatever follows the first
 * character (papaparse's own check stops at a line break, so a formula followed by a new line got through).
 */
export function neutraliseFormula(value: CsvValue): CsvValue {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** CSV text with RFC 4180 quoting (papaparse's unparse, loaded only when someone exports). */
export async function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): Promise<string> {
  const { unparse } = await import('papaparse');
  return unparse(
    {
      fields: columns.map((column) => column.header),
      data: rows.map((row) => columns.map((column) => neutraliseFormula(column.value(row) ?? ''))),
    },
    { quotes: false, escapeFormulae: false, newline: '\r\n' },
  );
}

export async function downloadCsv<T>(fileName: string, rows: readonly T[], columns: readonly CsvColumn<T>[]) {
  const text = await toCsv(rows, columns);
  // A BOM so spreadsheet programs read UTF-8 names correctly.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function csvFileName(what: string, now = new Date()): string {
  return `${what}-${now.toISOString().slice(0, 19).replace(/[:T]/g, '-')}.csv`;
}
