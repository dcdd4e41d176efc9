import fs from 'node:fs';

/**
 * Every open live stream holds a socket, and a socket is an open file: a process at its open-file limit accepts no
 * connection at all, health checks and sign-ins included. So the process's stream cap is derived from that limit,
 * leaving half of it to everything else (other requests, the database, logs, Web Push, the listeners).
 */

/** Where no limit can be read (not Linux): low enough for the smallest common limits (macOS shells' 256 aside). */
export const FALLBACK_STREAMS_PER_PROCESS = 500;
/** However many files the process may open, more streams than this in one process is a deployment question. */
export const MAX_DERIVED_STREAMS_PER_PROCESS = 10_000;

/**
 * The soft "Max open files" limit of /proc/self/limits (what the process may open now; Node raises it to the hard
 * limit at start), Infinity for "unlimited", or null when the text has none.
 */
export function openFileLimitOf(limits: string): number | null {
  const match = /^Max open files\s+(\S+)/m.exec(limits);
  if (!match?.[1]) return null;
  if (match[1] === 'unlimited') return Number.POSITIVE_INFINITY;
  const value = Number(match[1]);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** This process's open-file limit, or null where /proc/self/limits cannot be read. */
export function readOpenFileLimit(): number | null {
  try {
    return openFileLimitOf(fs.readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return null;
  }
}

/** Half the open-file limit (at least 1, at most MAX_DERIVED_STREAMS_PER_PROCESS), or the fallback without one. */
export function streamsPerProcessFor(openFileLimit: number | null): number {
  if (openFileLimit === null) return FALLBACK_STREAMS_PER_PROCESS;
  return Math.max(1, Math.min(MAX_DERIVED_STREAMS_PER_PROCESS, Math.floor(openFileLimit / 2)));
}
