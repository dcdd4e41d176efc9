import { DEFAULT_SESSION_IDLE_MINUTES } from '../../shared/contract/index.ts';

/**
 * What the person does in this tab (pointer, keys, touch, navigation), as opposed to what the page does on its
 * own (polling, the live stream). Requests made while the person has been idle for longer than ACTIVE_WINDOW_MS
 * are sent as background traffic, which the server serves without extending the idle deadline.
 */
export const ACTIVE_WINDOW_MS = 30_000;

let lastActivity = Date.now();
const listeners = new Set<() => void>();

export function markPersonActivity(): void {
  lastActivity = Date.now();
  for (const listener of listeners) listener();
}

export function lastPersonActivity(): number {
  return lastActivity;
}

/** Within the window (shorter with a very short idle setting: a quarter of it), the person counts as active. */
export function personActiveRecently(now = Date.now(), idleSeconds = DEFAULT_SESSION_IDLE_MINUTES * 60): boolean {
  return now - lastActivity < Math.min(ACTIVE_WINDOW_MS, (idleSeconds * 1000) / 4);
}

let watching = false;

/** Starts listening for the person's input on the document (once). */
export function watchPersonActivity(): void {
  if (watching || typeof document === 'undefined') return;
  watching = true;
  const options = { capture: true, passive: true } as const;
  for (const type of ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const)
    document.addEventListener(type, markPersonActivity, options);
}
