import { describe, expect, it } from 'vitest';
import {
  formatAbsolute,
  formatClock,
  formatExact,
  formatRelative,
  formatTime,
  isRecent,
  RELATIVE_WITHIN_MS,
  timestampMs,
} from './time-format.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const now = Date.UTC(2026, 10, 26, 15, 4, 7);
// What the reader's locale says for a count of a unit: the tests check which unit and count, in any locale.
const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });

describe('formatTime: one format for every time the dashboard shows', () => {
  it('reads "just now" within 45 seconds either side', () => {
    expect(formatTime(now, now)).toBe('just now');
    expect(formatTime(now - 44 * SECOND, now)).toBe('just now');
    expect(formatTime(now + 44 * SECOND, now)).toBe('just now');
  });

  it('counts whole minutes from 45 seconds to the hour, never rounding up', () => {
    expect(formatTime(now - 45 * SECOND, now)).toBe(rtf.format(-1, 'minute'));
    expect(formatTime(now - 3 * MINUTE - 59 * SECOND, now)).toBe(rtf.format(-3, 'minute'));
    expect(formatTime(now - 59 * MINUTE - 59 * SECOND, now)).toBe(rtf.format(-59, 'minute'));
  });

  it('counts whole hours from the hour to a day', () => {
    expect(formatTime(now - HOUR, now)).toBe(rtf.format(-1, 'hour'));
    expect(formatTime(now - 23 * HOUR - 59 * MINUTE, now)).toBe(rtf.format(-23, 'hour'));
  });

  it('shows yesterday and older as the one absolute date and time', () => {
    const yesterday = now - RELATIVE_WITHIN_MS;
    expect(formatTime(yesterday, now)).toBe(formatAbsolute(yesterday));
    const older = Date.UTC(2025, 0, 2, 3, 4, 5);
    expect(formatTime(older, now)).toBe(formatAbsolute(older));
    // The absolute format carries the year, the day and the minute.
    expect(formatAbsolute(older)).toMatch(/2025/);
    expect(formatAbsolute(older)).toMatch(/\d{2}\D\d{2}/);
  });

  it('says future times as such: in minutes, in hours, then the date', () => {
    expect(formatTime(now + 5 * MINUTE, now)).toBe(rtf.format(5, 'minute'));
    expect(formatTime(now + 2 * HOUR + 10 * MINUTE, now)).toBe(rtf.format(2, 'hour'));
    const nextWeek = now + 7 * 24 * HOUR;
    expect(formatTime(nextWeek, now)).toBe(formatAbsolute(nextWeek));
  });

  it('marks only times within a day as ones that change as time passes', () => {
    expect(isRecent(now - 23 * HOUR, now)).toBe(true);
    expect(isRecent(now - 25 * HOUR, now)).toBe(false);
    expect(isRecent(now + 25 * HOUR, now)).toBe(false);
  });

  it('says relative times in the same words as formatRelative', () => {
    expect(formatRelative(now - 90 * MINUTE, now)).toBe(rtf.format(-1, 'hour'));
  });
});

describe('formatExact and formatClock', () => {
  it('gives the exact time to the second with its zone, and the UTC time where the zone is not UTC', () => {
    const at = Date.UTC(2026, 10, 26, 14, 4, 7);
    const exact = formatExact(at);
    expect(exact).toMatch(/07/);
    expect(exact).toMatch(/2026/);
    if (new Date(at).getTimezoneOffset() !== 0) expect(exact).toContain('14:04:07 UTC');
  });

  it('shows a time of day with or without its seconds', () => {
    const at = new Date(2026, 10, 26, 15, 4, 7);
    expect(formatClock(at)).toMatch(/04/);
    expect(formatClock(at)).not.toMatch(/07/);
    expect(formatClock(at, true)).toMatch(/07/);
  });
});

describe('timestampMs', () => {
  it('reads the seed shape and ISO 8601, and null for anything else', () => {
    expect(timestampMs('2026-11-26 15:04:07.000')).toBe(Date.UTC(2026, 10, 26, 15, 4, 7));
    expect(timestampMs('2026-11-26T15:04:07Z')).toBe(Date.UTC(2026, 10, 26, 15, 4, 7));
    expect(timestampMs('yesterday')).toBeNull();
    // A second read of the same value gives the same answer (from the cache).
    expect(timestampMs('yesterday')).toBeNull();
    expect(timestampMs('2026-11-26 15:04:07.000')).toBe(Date.UTC(2026, 10, 26, 15, 4, 7));
  });
});
