const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

// Made when first needed, not while the page's code is evaluated: the first Intl object a page makes loads the
// locale data (about 50 ms on a phone's CPU), and made at module level it adds to that one long task.
let formatter: Intl.RelativeTimeFormat | undefined;
const format = (value: number, unit: Intl.RelativeTimeFormatUnit) => {
  formatter ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  return formatter.format(value, unit);
};

/** "3 minutes ago", "yesterday": the age of a request at a glance. */
export function relativeTime(date: Date, now: Date = new Date()): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format(Math.round(seconds / size), unit);
  }
  return Math.abs(seconds) < 45 ? 'just now' : format(seconds, 'second');
}
