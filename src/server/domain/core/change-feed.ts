import type { Kysely, Transaction } from 'kysely';
import { z } from 'zod/mini';
import { ChangeEvent } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

/**
 * Devices with new events in their log (device-events.ts). Only their Ids travel, never the events: those hold
 * two-factor codes, which have no business in NOTIFY payloads or in the dashboard's stream.
 */
export const DeviceSignal = z.object({ Type: z.literal('device-signal'), DeviceIds: z.array(z.int()) });
export type DeviceSignal = z.infer<typeof DeviceSignal>;

/** What the feed carries: the dashboard's changes, and device signals for the devices' own streams. */
export const FeedEvent = z.union([ChangeEvent, DeviceSignal]);
export type FeedEvent = ChangeEvent | DeviceSignal;

type Listener = (event: FeedEvent) => void;
type AccessListener = (principalId: number) => void;

/**
 * Committed changes, fanned out to live subscribers (the dashboard's and the devices' event streams). This one carries
 * the changes of its own process, which is all there is on the embedded database; on PostgreSQL,
 * `PostgresChangeFeed` carries every process's changes.
 *
 * It also carries, for the service alone (never to clients), that an account's access changed: sessions of it
 * ended, it was disabled, its password or permissions changed. Every process then forgets the sessions of it that
 * it remembers, and its live streams check their session once, rather than each reading it every few seconds.
 */
export class ChangeFeed {
  private readonly listeners = new Set<Listener>();
  private readonly accessListeners = new Set<AccessListener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called once a change has committed. */
  publish(event: FeedEvent): void {
    this.deliver(event);
  }

  /** Listens for accounts whose access changed, in any process sharing the database; called in the order added. */
  onAccessChange(listener: AccessListener): () => void {
    this.accessListeners.add(listener);
    return () => this.accessListeners.delete(listener);
  }

  /** Called once a change to an account's sessions, state, password or permissions has committed. */
  announceAccessChange(principalId: number): void {
    this.deliverAccessChange(principalId);
  }

  async close(): Promise<void> {}

  /** Hands an event to this process's subscribers. */
  protected deliver(event: FeedEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  protected deliverAccessChange(principalId: number): void {
    for (const listener of this.accessListeners) listener(principalId);
  }
}

/** Where a committed change is announced (a ChangeFeed, or nothing before the service listens). */
export type ChangePublisher = Pick<ChangeFeed, 'publish'>;

/**
 * The one path from a write to its events: runs the write in a transaction and, once it has committed, announces
 * what changed. A write that fails or rolls back announces nothing.
 */
export async function writeAndPublish<T>(
  db: Kysely<Database>,
  changes: ChangePublisher | null,
  work: (trx: Transaction<Database>) => Promise<T>,
  events: (result: T) => FeedEvent | readonly FeedEvent[],
): Promise<T> {
  const result = await writeTransaction(db, work);
  const announced = events(result);
  for (const event of Array.isArray(announced) ? announced : [announced as FeedEvent]) changes?.publish(event);
  return result;
}

/** The signal for devices whose logs grew; none when no device did. */
export const deviceSignal = (deviceIds: readonly number[]): FeedEvent[] =>
  deviceIds.length > 0 ? [{ Type: 'device-signal', DeviceIds: [...new Set(deviceIds)] }] : [];
