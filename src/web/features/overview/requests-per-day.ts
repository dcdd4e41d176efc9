import { parseTimestamp } from '../../../shared/contract/index.ts';

export interface DayCount {
  /** Local calendar day, YYYY-MM-DD. */
  day: string;
  /** Short label for the axis, e.g. "Nov 3". */
  label: string;
  requests: number;
}

function localDay(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

const labelFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** Requests created per local day over the last `days` days (today included), oldest first, zero-filled. */
export function requestsPerDay(createdTimestamps: readonly string[], now: Date, days = 30): DayCount[] {
  const buckets: DayCount[] = [];
  const index = new Map<string, DayCount>();
  for (let offset = days - 1; offset >= 0; offset -= 1) {
    const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() - offset);
    const bucket = { day: localDay(date), label: labelFormat.format(date), requests: 0 };
    buckets.push(bucket);
    index.set(bucket.day, bucket);
  }
  for (const value of createdTimestamps) {
    const created = parseTimestamp(value);
    if (!created) continue;
    const bucket = index.get(localDay(created));
    if (bucket) bucket.requests += 1;
  }
  return buckets;
}
