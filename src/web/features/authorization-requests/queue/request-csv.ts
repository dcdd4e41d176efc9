import type { AuthorizationRequest } from '../../../../shared/contract/index.ts';
import { requestStatus } from '../../../entities/request/request-status.ts';
import { type CsvColumn, timestampColumns } from '../../../lib/csv-export.ts';

export function requestCsvColumns(pendingIds: ReadonlySet<number> | undefined): CsvColumn<AuthorizationRequest>[] {
  return [
    { header: 'Id', value: (r) => r.Id },
    { header: 'UserName', value: (r) => r.UserName },
    { header: 'UserEmail', value: (r) => r.UserEmail },
    { header: 'RequestGuid', value: (r) => r.RequestGuid },
    { header: 'DeviceType', value: (r) => r.DeviceType },
    { header: 'Manufacturer', value: (r) => r.Manufacturer },
    { header: 'Model', value: (r) => r.Model },
    { header: 'OsVersion', value: (r) => r.OsVersion },
    { header: 'Status', value: (r) => requestStatus(r, pendingIds) ?? '' },
    ...timestampColumns<AuthorizationRequest>('Created', (r) => r.CreatedTimestampUtc),
    ...timestampColumns<AuthorizationRequest>('Modified', (r) => r.ModifiedTimestampUtc),
    { header: 'DecidedBy', value: (r) => r.DecidedBy },
    ...timestampColumns<AuthorizationRequest>('Decided', (r) => r.DecidedTimestampUtc),
    { header: 'Comment', value: (r) => r.Comment },
  ];
}
