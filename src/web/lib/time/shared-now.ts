import { useSyncExternalStore } from 'react';

/** How often relative times ("3 minutes ago") are brought up to date: often enough for whole minutes. */
export const NOW_TICK_MS = 30_000;

type Listener = () => void;
const listeners = new Set<Listener>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;

function tick() {
  now = Date.now();
  for (const listener of listeners) listener();
}

/**
 * One clock for every relative time on screen: a single timer while anything listens (not one per row), and none
 * when nothing does. A new listener reads a fresh time, so a page opened after a quiet spell starts right.
 */
function subscribe(listener: Listener): () => void {
  if (listeners.size === 0) {
    now = Date.now();
    timer = setInterval(tick, NOW_TICK_MS);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== undefined) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The shared "now" (ms), at most NOW_TICK_MS old. */
export function sharedNow(): number {
  // Nothing ticks while nothing listens: read the clock, but keep one value for a second, as React reads a
  // snapshot more than once per render and wants the same answer.
  if (listeners.size === 0 && Date.now() - now >= 1000) now = Date.now();
  return now;
}

/**
 * `select(now)` from the shared clock; the component renders again only when what it selects changes (a time
 * that reads "3 days ago"-far stays as it is while the clock ticks).
 */
export function useSharedNow<T extends string | number | boolean | null>(select: (now: number) => T): T {
  return useSyncExternalStore(
    subscribe,
    () => select(sharedNow()),
    () => select(Date.now()),
  );
}

/** For tests: how many listen to the shared clock. */
export function sharedNowListeners(): number {
  return listeners.size;
}
