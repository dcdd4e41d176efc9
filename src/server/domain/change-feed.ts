import type { ChangeEvent } from '../../shared/contract/index.ts';

type Listener = (event: ChangeEvent) => void;

/**
 * Committed changes, fanned out to live subscribers (the dashboard's event stream). This one carries
 * the changes of its own process, which is all there is on the embedded database; on PostgreSQL,
 * `PostgresChangeFeed` carries every process's changes.
 */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once a change has committed. */
  publish(event: ChangeEvent): void {
    this.deliver(event);
  }

  async close(): Promise<void> {}

  /** Hands an event to this process's subscribers. */
  protected deliver(event: ChangeEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
