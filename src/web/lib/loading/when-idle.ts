/**
 * Runs `task` once the browser is idle (after `timeout` ms at the latest); returns the cancellation. Browsers without
 * requestIdleCallback (Safari) get a short timeout instead.
 */
export function whenIdle(task: () => void, { timeout = 2_000, fallbackMs = 50 } = {}): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = window.setTimeout(task, fallbackMs);
    return () => window.clearTimeout(timer);
  }
  const handle = requestIdleCallback(task, { timeout });
  return () => cancelIdleCallback(handle);
}
