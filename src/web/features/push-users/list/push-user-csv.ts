import { type PushMessageUser, statusName } from '../../../../shared/contract/index.ts';
import { type CsvColumn, timestampColumns } from '../../../lib/csv-export.ts';

export const pushUserCsvColumns: CsvColumn<PushMessageUser>[] = [
  { header: 'Id', value: (u) => u.Id },
  { header: 'UserName', value: (u) => u.UserName },
  { header: 'DeviceType', value: (u) => u.DeviceType },
  { header: 'Manufacturer', value: (u) => u.Manufacturer ?? '' },
  { header: 'Model', value: (u) => u.Model ?? '' },
  { header: 'OsVersion', value: (u) => u.OsVersion ?? '' },
  { header: 'Status', value: (u) => statusName(u.Status) },
  { header: 'StatusCode', value: (u) => u.Status },
  ...timestampColumns<PushMessageUser>('Registered', (u) => u.CreatedTimeStampUtc),
  ...timestampColumns<PushMessageUser>('Modified', (u) => u.ModifiedTimestampUtc),
];
