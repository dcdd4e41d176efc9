import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pushUserRow } from '../test/rows.ts';
import { testDatabaseServer } from '../test/test-database.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './database.ts';
import { writeTransaction } from './write-transaction.ts';

// Group commit is the embedded database's; on PostgreSQL writeTransaction is a plain transaction,
// which every domain test exercises under `npm run test:pg`.
describe.runIf(testDatabaseServer() === null)('writeTransaction on SQLite (group commit)', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(handle);
  });
  afterEach(() => handle.close());

  const insertUser = (name: string) =>
    writeTransaction(handle.db, async (trx) => {
      const row = await trx
        .insertInto('push_message_users')
        .values(pushUserRow(name))
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });

  const storedNames = async () =>
    (await handle.db.selectFrom('push_message_users').select('user_name').orderBy('id').execute()).map(
      (row) => row.user_name,
    );

  it('commits writes that arrive together once, and answers each with its own result', async () => {
    const transactions = vi.spyOn(handle.db, 'transaction');
    const names = Array.from({ length: 20 }, (_, index) => `BATCH\\user${index}`);
    const ids = await Promise.all(names.map(insertUser));
    expect(ids).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(await storedNames()).toEqual(names);
  });

  it('rolls back a failing write alone; the others in its batch are stored', async () => {
    const failing = writeTransaction(handle.db, async (trx) => {
      await trx.insertInto('push_message_users').values(pushUserRow('BATCH\\doomed')).execute();
      throw new Error('refused after writing');
    });
    const results = await Promise.allSettled([insertUser('BATCH\\a'), failing, insertUser('BATCH\\b')]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused after writing'));
    expect(await storedNames()).toEqual(['BATCH\\a', 'BATCH\\b']);
  });

  it('answers every write of a batch with the error when the shared commit fails, and stores none', async () => {
    // A deferred foreign-key violation passes its statement and fails only at COMMIT.
    const violating = writeTransaction(handle.db, async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      await trx
        .insertInto('sessions')
        .values({
          token_hash: 'x',
          principal_id: 999_999,
          created_at: '2026-11-21 09:00:00.000',
          last_seen_at: '2026-11-21 09:00:00.000',
          absolute_expires_at: '2026-11-21 21:00:00.000',
          revoked_at: null,
        })
        .execute();
    });
    const results = await Promise.allSettled([insertUser('BATCH\\a'), violating, insertUser('BATCH\\b')]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(await storedNames()).toEqual([]);
    // The database is usable again afterwards.
    await insertUser('BATCH\\after');
    expect(await storedNames()).toEqual(['BATCH\\after']);
  });

  it('runs writes that arrive while a batch commits in the next batch', async () => {
    const transactions = vi.spyOn(handle.db, 'transaction');
    const first = insertUser('BATCH\\first');
    // Queued from inside the first batch's work, so it cannot join that batch.
    let second: Promise<number> | undefined;
    const starter = writeTransaction(handle.db, async () => {
      second = insertUser('BATCH\\second');
    });
    await Promise.all([first, starter]);
    expect(await second).toBe(2);
    expect(transactions).toHaveBeenCalledTimes(2);
    expect(await storedNames()).toEqual(['BATCH\\first', 'BATCH\\second']);
  });
});
