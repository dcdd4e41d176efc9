import type { ChangeEvent } from '../../shared/contract/index.ts';

type Listener = (event: ChangeEvent) => void;

/**
 * Committed changes, fanned out to live subscribers (the dashboard's event stream).
 * In-process only: with several processes on one PostgreSQL database, a subscriber hears its own
 * process's changes, and the dashboard's polling (ETag, cheap) covers the rest.
 */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: ChangeEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  get subscribers(): number {
    return this.listeners.size;
  }
}
