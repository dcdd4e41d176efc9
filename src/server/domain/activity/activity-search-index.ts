import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';

/** Events indexed per transaction: a batch holds the one writer for some milliseconds, not for the whole backlog. */
const INDEX_BATCH = 2_000;
/** Writes this long quiet and the index catches up. */
const IDLE_MS = 1_000;
/**
 * Or this many events unindexed, however busy the writer: search reads them by their own column, and the newest
 * TEXT_WINDOW rows are read that way already, so a tail no longer than that costs search next to nothing.
 */
const TAIL_MAX = 10_000;

/**
 * SQLite's text index is kept behind the writes (migration 029): the next batch of events above the newest id it holds
 * is added in one transaction, and the watermark moves with it. Returns how many were added; PostgreSQL's index is
 * kept by the database itself, so there it does nothing.
 */
export async function indexActivityBatch(db: Kysely<Database>, batch = INDEX_BATCH): Promise<number> {
  if (dialectOf(db) === 'postgres') return 0;
  return writeTransaction(db, async (trx) => {
    const { indexed_through: from } = await trx
      .selectFrom('activity_search_state')
      .select('indexed_through')
      .executeTakeFirstOrThrow();
    const last = await trx
      .selectFrom(
        trx.selectFrom('activity_events').select('id').where('id', '>', from).orderBy('id').limit(batch).as('next'),
      )
      .select([sql<number | null>`max(id)`.as('through'), sql<number>`count(*)`.as('rows')])
      .executeTakeFirstOrThrow();
    if (last.through === null) return 0;
    await sql`insert into activity_search (rowid, search)
      select id, search from activity_events where id > ${from} and id <= ${last.through}`.execute(trx);
    await trx.updateTable('activity_search_state').set({ indexed_through: last.through }).execute();
    return Number(last.rows);
  });
}

/**
 * Indexes every event not yet indexed, a batch at a time, letting other writes in between (until `stopped` says so);
 * returns how many.
 */
export async function indexActivity(db: Kysely<Database>, stopped: () => boolean = () => false): Promise<number> {
  let total = 0;
  for (;;) {
    const added = await indexActivityBatch(db);
    total += added;
    if (added < INDEX_BATCH || stopped()) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** How many events the text index does not hold yet. */
async function unindexed(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('activity_search_state')
    .select(sql<number>`coalesce((select max(id) from activity_events), 0) - indexed_through`.as('tail'))
    .executeTakeFirstOrThrow();
  return Number(row.tail);
}

/**
 * Runs the indexing once writes have been quiet for IDLE_MS, or once TAIL_MAX events wait, so that a burst of
 * requests is answered before its events are cut into trigrams. Told of kept events by `written`.
 */
export class ActivitySearchIndexer {
  private readonly db: Kysely<Database>;
  private readonly onError: (error: unknown) => void;
  private readonly enabled: boolean;
  private lastWrite = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(db: Kysely<Database>, onError: (error: unknown) => void) {
    this.db = db;
    this.onError = onError;
    this.enabled = dialectOf(db) === 'sqlite';
  }

  /** Events were kept (or may wait from before a start): index them once the writes pause. */
  written(): void {
    if (!this.enabled || this.closed) return;
    this.lastWrite = Date.now();
    if (!this.timer && !this.running) this.arm(IDLE_MS);
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick()
        .catch(this.onError)
        .finally(() => {
          this.running = null;
        });
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.closed) return;
    const quiet = Date.now() - this.lastWrite;
    if (quiet < IDLE_MS && (await unindexed(this.db)) < TAIL_MAX) {
      if (!this.closed) this.arm(IDLE_MS - quiet);
      return;
    }
    const started = Date.now();
    await indexActivity(this.db, () => this.closed);
    // Events kept while it ran wait for the next pause.
    if (this.lastWrite >= started && !this.closed) this.arm(IDLE_MS);
  }

  /** Stops after the batch under way (the database closes after); the rest waits for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
