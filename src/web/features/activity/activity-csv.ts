import type { ActivityEvent } from '../../../shared/contract/index.ts';
import { actionLabel } from '../../entities/activity/activity-labels.ts';
import { type CsvColumn, timestampColumns } from '../../lib/csv-export.ts';

/** Every field of an event, as the Activity page exports the events it has loaded. */
export const ACTIVITY_CSV_COLUMNS: readonly CsvColumn<ActivityEvent>[] = [
  { header: 'Id', value: (event) => event.Id },
  ...timestampColumns<ActivityEvent>('Time', (event) => event.TimestampUtc),
  { header: 'Action', value: (event) => event.Action },
  { header: 'Event', value: (event) => actionLabel(event.Action) },
  { header: 'Outcome', value: (event) => event.Outcome },
  { header: 'Reason', value: (event) => event.Reason },
  { header: 'Actor', value: (event) => event.Actor },
  { header: 'Person', value: (event) => event.Person },
  { header: 'Target type', value: (event) => event.TargetType },
  { header: 'Target id', value: (event) => event.TargetId },
  { header: 'Address', value: (event) => event.SourceIp },
  { header: 'User-Agent', value: (event) => event.UserAgent },
  { header: 'Details', value: (event) => JSON.stringify(event.Details) },
];
