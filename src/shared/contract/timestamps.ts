/**
 * Seed §2.5: timestamps are UTC in the shape `YYYY-MM-DD hh:mm:ss.fff`.
 * The dashboard also meets servers that answer ISO 8601, so parsing accepts both.
 */
const SEED_SHAPE = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d{1,7})?(Z|[+-]\d{2}:?\d{2})?$/;

export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;

export function formatTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').slice(0, 23);
}

/** Parses the seed shape (always UTC) or ISO 8601; returns null for anything else. */
export function parseTimestamp(value: string): Date | null {
  const match = SEED_SHAPE.exec(value.trim());
  if (!match) return null;
  const [, day, time, fraction = '', zone = 'Z'] = match;
  const millis = fraction ? fraction.slice(0, 4).padEnd(4, '0') : '';
  const parsed = new Date(`${day}T${time}${millis}${zone}`);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
}
