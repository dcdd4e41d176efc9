import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { dialectOf } from './database.ts';
import type { Database } from './schema.ts';
import { withTail } from './write-tail.ts';

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

// Compiled once: every write of a batch runs four of these around its work.
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK = CompiledQuery.raw('rollback to unit');

async function inSavepoint(trx: Transaction<Database>, work: Work<unknown>): Promise<Outcome> {
  await trx.executeQuery(SAVEPOINT);
  try {
    const value = await work(trx);
    await trx.executeQuery(RELEASE);
    return { ok: true, value };
  } catch (error) {
    await trx.executeQuery(ROLLBACK);
    await trx.executeQuery(RELEASE);
    return { ok: false, error };
  }
}

const groupCommits = new WeakMap<Kysely<Database>, GroupCommit>();

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
