import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { ChangeFeed, FeedEvent } from '../domain/change-feed.ts';
import type { Database } from './schema.ts';

const CHANNEL = 'tachyon_changes';
const RECONNECT_MS = 1_000;

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
    // One at a time: on separate pool connections, a later announcement could otherwise overtake an earlier one.
    this.announcing = this.announcing
      .then(() => sql`select pg_notify(${CHANNEL}, ${JSON.stringify(event)})`.execute(this.db))
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
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const event = FeedEvent.safeParse(JSON.parse(message.payload));
        if (event.success) this.deliver(event.data);
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
