import { describe, expect, it } from 'vitest';
import { requestsPerDay } from './requests-per-day.ts';

function utc(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

describe('requestsPerDay', () => {
  const now = new Date(2026, 10, 21, 12, 0, 0);

  it('gives 30 zero-filled local days, oldest first, ending today', () => {
    const days = requestsPerDay([], now);
    expect(days).toHaveLength(30);
    expect(days.at(-1)?.day).toBe('2026-11-21');
    expect(days[0]?.day).toBe('2026-10-23');
    expect(days.every((d) => d.requests === 0)).toBe(true);
  });

  it('counts requests on their local day and ignores older, future and unreadable ones', () => {
    const today = utc(new Date(2026, 10, 21, 9, 30));
    const yesterday = utc(new Date(2026, 10, 20, 23, 59));
    const tooOld = utc(new Date(2026, 9, 1, 10, 0));
    const days = requestsPerDay([today, today, yesterday, tooOld, 'not a time'], now);
    expect(days.at(-1)?.requests).toBe(2);
    expect(days.at(-2)?.requests).toBe(1);
    expect(days.reduce((sum, d) => sum + d.requests, 0)).toBe(3);
  });
});
