/** Whether changes arrive as they happen (`live`), or pages poll because the stream is not there (`polling`). */
export type LiveMode = 'connecting' | 'live' | 'polling';

let mode: LiveMode = 'connecting';
const modeWatchers = new Set<() => void>();

/** Only the live subscription (live-changes.ts) sets it. */
export function setLiveMode(next: LiveMode): void {
  if (next === mode) return;
  mode = next;
  for (const watcher of modeWatchers) watcher();
}

/** The stream's state, for useSyncExternalStore and for the queries that poll only without it. */
export const liveMode = {
  get: (): LiveMode => mode,
  subscribe(watcher: () => void): () => void {
    modeWatchers.add(watcher);
    return () => modeWatchers.delete(watcher);
  },
};

/** A query's refetchInterval: nothing while the stream is live (it says what changed), `everyMs` otherwise. */
export const pollUnlessLive = (everyMs: number) => (): number | false => (mode === 'live' ? false : everyMs);
