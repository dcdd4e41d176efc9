/*
 * CSV as both ends write it (RFC 4180): the dashboard's exports of the rows it holds, the service's of every matching
 * row. A cell a spreadsheet would run as a formula is made inert.
 */

export type CsvValue = string | number | boolean | null | undefined;

/** What a spreadsheet may take for the start of a formula (OWASP's CSV injection guidance). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula, made inert with a leading apostrophe, whatever follows the first
 * character (papaparse's own check stops at a line break, so a formula followed by a new line got through).
 */
export function neutraliseFormula(value: CsvValue): CsvValue {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** One line: each cell made inert, quoted where it holds a comma, a quote or a line break; ended by CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  const cells = values.map((value) => {
    const text = String(neutraliseFormula(value) ?? '');
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  });
  return `${cells.join(',')}\r\n`;
}
