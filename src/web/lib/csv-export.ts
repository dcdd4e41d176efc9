import { parseTimestamp } from '../../shared/contract/index.ts';
import { type CsvValue, neutraliseFormula } from '../../shared/csv.ts';

export { type CsvValue, neutraliseFormula };

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
  saveCsv(fileName, new Blob([text], { type: 'text/csv;charset=utf-8' }));
}

/** Saves CSV text (made here, or answered by the service) as a file, as the browser saves a download. */
export function saveCsv(fileName: string, csv: Blob) {
  // A BOM so spreadsheet programs read UTF-8 names correctly.
  const url = URL.createObjectURL(new Blob(['\uFEFF', csv], { type: 'text/csv;charset=utf-8' }));
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
