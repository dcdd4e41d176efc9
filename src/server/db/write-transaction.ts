import { AsyncLocalStorage } from 'node:async_hooks';
import { type Kysely, sql, type Transaction } from 'kysely';
import { dialectOf } from './database.ts';
import type { Database } from './schema.ts';

type Work<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Enough to spread one fsync over a whole burst of writes, small enough to keep a batch's latency short. */
const MAX_BATCH = 256;

/**
 * Group commit for the embedded database. SQLite has one writer and every durable commit costs an fsync;
 * committing each request's transaction alone caps writes at the disk's fsync rate. Writes that arrive in the
 * same turn of the event loop run one after another inside one transaction, each in its own savepoint (so one
 * that fails rolls back alone), and all are answered only after their shared COMMIT has reached the disk.
 */
class GroupCommit {
  private readonly db: Kysely<Database>;
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the I/O of this turn: every request already read joins the batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      let outcomes: Outcome[];
      try {
        outcomes = await this.db.transaction().execute(async (trx) => {
          const results: Outcome[] = [];
          for (const pending of batch) results.push(await inSavepoint(trx, pending.work));
          return results;
        });
      } catch (error) {
        // The shared commit failed: nothing in the batch was stored.
        for (const pending of batch) pending.reject(error);
        continue;
      }
      batch.forEach((pending, index) => {
        const outcome = outcomes[index] as Outcome;
        if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      });
    }
    this.scheduled = false;
  }
}

async function inSavepoint(trx: Transaction<Database>, work: Work<unknown>): Promise<Outcome> {
  await sql`savepoint unit`.execute(trx);
  try {
    const value = await work(trx);
    await sql`release unit`.execute(trx);
    return { ok: true, value };
  } catch (error) {
    await sql`rollback to unit`.execute(trx);
    await sql`release unit`.execute(trx);
    return { ok: false, error };
  }
}

const groupCommits = new WeakMap<Kysely<Database>, GroupCommit>();

/**
 * What must commit with the change an action makes, or not at all (the alerts its audit event causes, in the
 * outbox): written last inside the transaction of the first write the action begins, so both commit or neither.
 */
export interface WriteTail {
  /** `noted`: what the write told its action from inside (noteWritten), if anything. */
  write(trx: Transaction<Database>, noted: unknown): Promise<void>;
}

/** What a write told its action (the entity it created), until the tail reads it. */
const notes = new WeakMap<Transaction<Database>, unknown>();

/**
 * Tells the action this write belongs to a fact learnt inside it (the id of the row it created), for the action's
 * tail. A group commit's writes share one transaction one after another: the tail's write clears it before its work.
 */
export function noteWritten(trx: Transaction<Database>, facts: unknown): void {
  notes.set(trx, facts);
}

/** A tail and whether a write carries it (under way) or carried it (committed). */
interface TailState {
  tail: WriteTail;
  state: 'open' | 'carrying' | 'committed';
}

const tails = new AsyncLocalStorage<TailState>();

/**
 * Runs `action` with `tail` riding on its first write (writeTransaction); answers whether a write that carried it
 * committed. A write that rolls back takes the tail's rows with it, and the next write of the action carries it
 * instead; writes begun at once while one carries it do not.
 */
export async function withWriteTail<T>(
  tail: WriteTail,
  action: () => Promise<T>,
): Promise<{ ok: true; value: T; carried: boolean } | { ok: false; error: unknown; carried: boolean }> {
  const state: TailState = { tail, state: 'open' };
  try {
    const value = await tails.run(state, action);
    return { ok: true, value, carried: state.state === 'committed' };
  } catch (error) {
    return { ok: false, error, carried: state.state === 'committed' };
  }
}

/** Runs `fn` outside any action's tail: its writes are not the action's change (the Activity row, a fallback). */
export function apartFromTail<T>(fn: () => T): T {
  return tails.exit(fn);
}

/** The work with the tail of the action it belongs to (read now: a group commit runs the work elsewhere). */
function withTail<T>(work: Work<T>): { work: Work<T>; settle?: (committed: boolean) => void } {
  const current = tails.getStore();
  if (current?.state !== 'open') return { work };
  current.state = 'carrying';
  return {
    work: async (trx) => {
      notes.delete(trx);
      const value = await work(trx);
      const noted = notes.get(trx);
      notes.delete(trx);
      await current.tail.write(trx, noted);
      return value;
    },
    settle: (committed) => {
      current.state = committed ? 'committed' : 'open';
    },
  };
}

/**
 * Runs `work` in a transaction that is durable when the promise resolves; the domain's transactions all come
 * here. On SQLite it joins a group commit; on PostgreSQL, whose server already commits concurrent sessions
 * together, it is a plain transaction. The first write of an action with a tail (withWriteTail) carries it.
 */
export function writeTransaction<T>(db: Kysely<Database>, work: Work<T>): Promise<T> {
  const carried = withTail(work);
  const written = plainWrite(db, carried.work);
  if (!carried.settle) return written;
  const { settle } = carried;
  return written.then(
    (value) => {
      settle(true);
      return value;
    },
    (error: unknown) => {
      settle(false);
      throw error;
    },
  );
}

function plainWrite<T>(db: Kysely<Database>, work: Work<T>): Promise<T> {
  if (dialectOf(db) === 'postgres') return db.transaction().execute(work);
  let group = groupCommits.get(db);
  if (!group) {
    group = new GroupCommit(db);
    groupCommits.set(db, group);
  }
  return group.run(work);
}
