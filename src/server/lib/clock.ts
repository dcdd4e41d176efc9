import { parseTimestamp } from '../../shared/contract/index.ts';

/** The service reads time only through this, so tests can move it (session expiry, token expiry). */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

export function addMinutes(date: Date, minutes: number): Date {
  return new Date(date.getTime() + minutes * 60_000);
}

/** Reads a timestamp this service stored; a malformed one is a bug, not a caller's error. */
export function storedTime(value: string): Date {
  const parsed = parseTimestamp(value);
  if (!parsed) throw new Error(`stored timestamp is malformed: ${value}`);
  return parsed;
}
