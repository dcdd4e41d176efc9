import { describe, expect, it } from 'vitest';
import { formatTimestamp, parseTimestamp, TIMESTAMP_PATTERN } from './timestamps.ts';

describe('timestamps (seed §2.5: UTC, YYYY-MM-DD hh:mm:ss.fff)', () => {
  it('formats in the seed shape, in UTC, with milliseconds', () => {
    const formatted = formatTimestamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)));
    expect(formatted).toBe('2026-01-02 03:04:05.006');
    expect(formatted).toMatch(TIMESTAMP_PATTERN);
  });

  it('parses the seed shape as UTC', () => {
    expect(parseTimestamp('2026-01-02 03:04:05.006')?.toISOString()).toBe('2026-01-02T03:04:05.006Z');
  });

  it('parses ISO 8601 from other servers, with zone or 7-digit fractions', () => {
    expect(parseTimestamp('2026-01-02T03:04:05Z')?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(parseTimestamp('2026-01-02T05:04:05.1234567+02:00')?.toISOString()).toBe('2026-01-02T03:04:05.123Z');
    expect(parseTimestamp('2026-01-02T03:04:05')?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('round-trips', () => {
    const date = new Date(Date.UTC(2025, 11, 31, 23, 59, 59, 999));
    expect(parseTimestamp(formatTimestamp(date))?.getTime()).toBe(date.getTime());
  });

  it('answers null for anything else', () => {
    for (const value of ['', 'yesterday', '2026-13-45 99:99:99.000', '02/01/2026 03:04']) {
      expect(parseTimestamp(value)).toBeNull();
    }
  });
});
