import { parseTimestamp } from '../../../shared/contract/index.ts';

/**
 * The dashboard's one way of showing a moment: relative while it is within a day ("3 minutes ago", "in 2 hours"),
 * one absolute format otherwise ("26 Nov 2026, 15:04" in the reader's locale), and the exact time (seconds, zone,
 * UTC) for the hover and focus text. Lists show a time on every row: the formatters are made once (the first one
 * a page makes loads the locale data, so they are made when first needed, not at module level), and a value's
 * parse is kept.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Within this of now a time reads as relative; beyond it, as a date and time. */
export const RELATIVE_WITHIN_MS = 24 * HOUR;
/** Closer to now than this reads "just now". */
const JUST_NOW_MS = 45_000;

let relativeFormat: Intl.RelativeTimeFormat | undefined;
let absoluteFormat: Intl.DateTimeFormat | undefined;
let exactFormat: Intl.DateTimeFormat | undefined;
let clockFormat: Intl.DateTimeFormat | undefined;
let secondsFormat: Intl.DateTimeFormat | undefined;

const relative = () => {
  relativeFormat ??= new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  return relativeFormat;
};
const absolute = () => {
  absoluteFormat ??= new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  return absoluteFormat;
};
const exact = () => {
  exactFormat ??= new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
  return exactFormat;
};

/** "26 Nov 2026, 15:04": the one absolute format, for times more than a day away. */
export function formatAbsolute(at: Date | number): string {
  return absolute().format(at);
}

/** "15:04" (or "15:04:07"): a time of day minutes away (a code works until, a session ends, a list refreshed). */
export function formatClock(at: Date | number, withSeconds = false): string {
  if (withSeconds) {
    secondsFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    return secondsFormat.format(at);
  }
  clockFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
  return clockFormat.format(at);
}

/** "Thu, 26 November 2026, 15:04:07 CET (14:04:07 UTC)": everything about the moment, for hover and focus. */
export function formatExact(at: Date | number): string {
  const date = typeof at === 'number' ? new Date(at) : at;
  const local = exact().format(date);
  if (date.getTimezoneOffset() === 0) return local;
  return `${local} (${date.toISOString().slice(11, 19)} UTC)`;
}

/** "3 minutes ago", "in 2 hours", "just now"; whole units, never rounded up to the next. */
export function formatRelative(at: number, now: number): string {
  const delta = at - now;
  const distance = Math.abs(delta);
  if (distance < JUST_NOW_MS) return 'just now';
  const sign = delta < 0 ? -1 : 1;
  if (distance < HOUR) return relative().format(sign * Math.max(1, Math.floor(distance / MINUTE)), 'minute');
  return relative().format(sign * Math.floor(distance / HOUR), 'hour');
}

/** What a time shows at `now`: relative within a day of it, the absolute format beyond. */
export function formatTime(at: number, now: number): string {
  return Math.abs(at - now) < RELATIVE_WITHIN_MS ? formatRelative(at, now) : formatAbsolute(at);
}

/** Whether the shown text of `at` can change as time passes (only relative ones do). */
export function isRecent(at: number, now: number): boolean {
  return Math.abs(at - now) < RELATIVE_WITHIN_MS;
}

// A list renders the same rows' times again on every scroll and tick: each distinct value is parsed once.
const PARSED_LIMIT = 10_000;
const parsed = new Map<string, number | null>();

/** A server timestamp in milliseconds, or null when it is not one; parsed once per distinct value. */
export function timestampMs(value: string): number | null {
  let ms = parsed.get(value);
  if (ms === undefined) {
    ms = parseTimestamp(value)?.getTime() ?? null;
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    parsed.set(value, ms);
  }
  return ms;
}
