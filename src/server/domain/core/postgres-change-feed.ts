import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { z } from 'zod/mini';
import type { Database } from '../../db/schema.ts';
import { ChangeFeed, FeedEvent } from './change-feed.ts';

const CHANNEL = 'tachyon_changes';
/** Its own channel: processes of an older version, which listen only to the first, never see these. */
const ACCESS_CHANNEL = 'tachyon_access';
const RECONNECT_MS = 1_000;

const AccessAnnouncement = z.object({ origin: z.string(), principalId: z.number() });

/**
 * The change feed of a service that shares PostgreSQL with other processes: a change is announced with
 * NOTIFY and every process, this one included, hears it on its own LISTEN connection, so a dashboard sees
 * decisions made through any process. While the listening connection is down (it reconnects every second)
 * the dashboard's polling covers the gap, as it does for any lost stream.
 */
export class PostgresChangeFeed extends ChangeFeed {
  private readonly url: string;
  private readonly db: Kysely<Database>;
  private readonly onError: (error: unknown) => void;
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private announcing: Promise<unknown> = Promise.resolve();
  /** Names this process in its access announcements, so it skips its own when they come back. */
  private readonly origin = randomUUID();

  private constructor(url: string, db: Kysely<Database>, onError: (error: unknown) => void) {
    super();
    this.url = url;
    this.db = db;
    this.onError = onError;
  }

  /** Starts listening; resolves once the first LISTEN is in place, so no change after start is missed. */
  static async connect(
    url: string,
    db: Kysely<Database>,
    onError: (error: unknown) => void,
  ): Promise<PostgresChangeFeed> {
    const feed = new PostgresChangeFeed(url, db, onError);
    await feed.listen();
    return feed;
  }

  override publish(event: FeedEvent): void {
    this.notify(CHANNEL, JSON.stringify(event));
  }

  /**
   * This process hears it at once (the request that made the change may be followed by another at once); the
   * others through NOTIFY. While the listening connection of another process is down it misses the announcement,
   * and its streams notice at their next periodic check of their session.
   */
  override announceAccessChange(principalId: number): void {
    this.deliverAccessChange(principalId);
    this.notify(ACCESS_CHANNEL, JSON.stringify({ origin: this.origin, principalId }));
  }

  private notify(channel: string, payload: string): void {
    // One at a time: on separate pool connections, a later announcement could otherwise overtake an earlier one.
    this.announcing = this.announcing
      .then(() => sql`select pg_notify(${channel}, ${payload})`.execute(this.db))
      .catch(this.onError);
  }

  override async close(): Promise<void> {
    this.closed = true;
    await this.announcing;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (message) => {
      if (!message.payload) return;
      try {
        if (message.channel === CHANNEL) {
          const event = FeedEvent.safeParse(JSON.parse(message.payload));
          if (event.success) this.deliver(event.data);
        } else if (message.channel === ACCESS_CHANNEL) {
          const access = AccessAnnouncement.safeParse(JSON.parse(message.payload));
          if (access.success && access.data.origin !== this.origin) this.deliverAccessChange(access.data.principalId);
        }
      } catch (error) {
        this.onError(error);
      }
    });
    client.on('error', (error) => {
      this.onError(error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      await client.query(`LISTEN ${ACCESS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    this.listenLater();
  }

  private listenLater(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.closed) return;
      this.listen().catch((error: unknown) => {
        this.onError(error);
        this.listenLater();
      });
    }, RECONNECT_MS);
    this.retry.unref();
  }
}

/**
 * Tells every running service sharing this database that an account's access changed, from a process with no feed of
 * its own (an operator's command): they forget its remembered sessions and end its live streams at once.
 */
export async function announceAccessChangeOnce(db: Kysely<Database>, principalId: number): Promise<void> {
  const payload = JSON.stringify({ origin: `command-${randomUUID()}`, principalId });
  await sql`select pg_notify(${ACCESS_CHANNEL}, ${payload})`.execute(db);
}
