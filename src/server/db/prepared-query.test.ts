import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type PushUserStatus, PushUserStatusCode } from '../../shared/contract/index.ts';
import { pushUserRow } from '../test/rows.ts';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../test/test-database.ts';
import { type DatabaseHandle, migrateToLatest, openDatabase } from './database.ts';
import { preparedInsert, preparedLookup, preparedQuery, preparedStatement } from './prepared-query.ts';
import type { Database } from './schema.ts';
import { writeTransaction } from './write-transaction.ts';

const { Active, Disabled } = PushUserStatusCode;

describe('preparedQuery', () => {
  let handle: DatabaseHandle;
  let testDatabase: TestDatabase | null = null;
  beforeAll(async () => {
    const server = testDatabaseServer();
    testDatabase = server ? await createTestDatabase(server) : null;
    handle = openDatabase(testDatabase ? { databaseUrl: testDatabase.url } : { sqliteFile: ':memory:' });
    await migrateToLatest(handle);
    await handle.db
      .insertInto('push_message_users')
      .values(
        [Active, Disabled, Active, Active].map((status, index) =>
          pushUserRow(`PREPARED\\user${index}`, { device_type: index % 2 ? 'Android' : 'iOS', status }),
        ),
      )
      .execute();
  });
  afterAll(async () => {
    await handle.close();
    await testDatabase?.drop();
  });

  it('binds each call its own arguments, in the order the query uses them, next to constants', async () => {
    const build = vi.fn((db: Kysely<Database>, deviceType: string, status: PushUserStatus) =>
      db
        .selectFrom('push_message_users')
        .select('user_name')
        // status appears first in the SQL, the constant in between: arguments must not be bound by position.
        .where('status', '=', status)
        .where('created_at', '=', '2026-11-21 09:00:00.000')
        .where('device_type', '=', deviceType)
        .orderBy('id'),
    );
    const query = preparedQuery(2, build);
    expect(await query(handle.db, 'iOS', Active)).toEqual([
      { user_name: 'PREPARED\\user0' },
      { user_name: 'PREPARED\\user2' },
    ]);
    expect(await query(handle.db, 'Android', Active)).toEqual([{ user_name: 'PREPARED\\user3' }]);
    expect(await query(handle.db, 'Android', Disabled)).toEqual([{ user_name: 'PREPARED\\user1' }]);
    expect(await query(handle.db, 'iOS', Disabled)).toEqual([]);
    // Built and compiled once for this database, not per call.
    expect(build).toHaveBeenCalledTimes(1);
  });

  const byName = preparedQuery(1, (db: Kysely<Database>, userName: string) =>
    db.selectFrom('push_message_users').select('user_name').where('user_name', '=', userName),
  );

  it('never sees a write that is not committed, even while the one SQLite connection is inside it', async () => {
    let inserted!: () => void;
    const insertedSignal = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const write = writeTransaction(handle.db, async (trx) => {
      await trx.insertInto('push_message_users').values(pushUserRow('PREPARED\\uncommitted')).execute();
      inserted();
      // Holds the transaction open across real time, then gives up: the insert is rolled back.
      await new Promise((resolve) => setTimeout(resolve, 30));
      throw new Error('rolled back');
    });
    // Its end is taken at once: on a slow machine the read below outlasts the 30 ms, and a rejection nobody has taken
    // yet is an unhandled one, which fails the run.
    const ended = write.then(
      () => 'committed',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    await insertedSignal;
    expect(await byName(handle.db, 'PREPARED\\uncommitted')).toEqual([]);
    expect(await ended).toBe('rolled back');
    expect(await byName(handle.db, 'PREPARED\\uncommitted')).toEqual([]);
  });

  const statusOf = preparedQuery(1, (db: Kysely<Database>, userName: string) =>
    db.selectFrom('push_message_users').select('status').where('user_name', '=', userName),
  );

  it('answers a repeated read the same, and never from before a write (update, update … returning, group commit)', async () => {
    const user = 'PREPARED\\user0';
    const first = await statusOf(handle.db, user);
    expect(first).toEqual([{ status: Active }]);
    expect(await statusOf(handle.db, user)).toEqual(first);

    await handle.db.updateTable('push_message_users').set({ status: Disabled }).where('user_name', '=', user).execute();
    expect(await statusOf(handle.db, user)).toEqual([{ status: Disabled }]);

    // A write that also reads (RETURNING) still counts as a write.
    await handle.db
      .updateTable('push_message_users')
      .set({ status: Active })
      .where('user_name', '=', user)
      .returning('id')
      .execute();
    expect(await statusOf(handle.db, user)).toEqual([{ status: Active }]);

    await writeTransaction(handle.db, (trx) =>
      trx.updateTable('push_message_users').set({ status: Disabled }).where('user_name', '=', user).execute(),
    );
    expect(await statusOf(handle.db, user)).toEqual([{ status: Disabled }]);
  });

  it('gives rows nobody can change for the next caller', async () => {
    const [row] = await statusOf(handle.db, 'PREPARED\\user1');
    if (handle.dialect === 'sqlite') expect(() => Object.assign(row as object, { status: 9 })).toThrow(TypeError);
    expect(await statusOf(handle.db, 'PREPARED\\user1')).toEqual([{ status: Disabled }]);
  });

  const userById = preparedLookup(
    (db: Kysely<Database>, id: number) =>
      db.selectFrom('push_message_users').select(['id', 'user_name', 'status']).where('id', '=', id),
    (db: Kysely<Database>, ids: readonly number[]) =>
      db
        .selectFrom('push_message_users')
        .select(['id', 'user_name', 'status'])
        .where((eb) => eb('id', '=', eb.fn.any(eb.val(ids)))),
    (row) => row.id,
  );

  it('looks rows up by key: each caller gets its own row, an unknown key none, repeats and all', async () => {
    const ids = [3, 1, 999, 3, 2];
    const rows = await Promise.all(ids.map((id) => userById(handle.db, id)));
    expect(rows.map((row) => row?.user_name)).toEqual([
      'PREPARED\\user2',
      'PREPARED\\user0',
      undefined,
      'PREPARED\\user2',
      'PREPARED\\user1',
    ]);
    expect(await userById(handle.db, 4)).toMatchObject({ id: 4, user_name: 'PREPARED\\user3' });
  });

  it('on PostgreSQL, asks once for the keys requested in the same turn of the event loop', async () => {
    const { pool } = handle;
    if (!pool) return; // The embedded database reads each key directly, synchronously.
    const query = vi.spyOn(pool, 'query');
    try {
      const rows = await Promise.all([1, 2, 3, 4, 2].map((id) => userById(handle.db, id)));
      expect(rows.map((row) => row?.id)).toEqual([1, 2, 3, 4, 2]);
      expect(query).toHaveBeenCalledTimes(1);
      // Separate turns are separate reads: nothing is remembered from one to the next.
      await userById(handle.db, 1);
      await userById(handle.db, 1);
      expect(query).toHaveBeenCalledTimes(3);
    } finally {
      query.mockRestore();
    }
  });

  it('never answers a lookup from before a write that committed before it was asked', async () => {
    const before = await userById(handle.db, 4);
    const next = before?.status === Active ? Disabled : Active;
    const [, after] = await Promise.all([
      handle.db.updateTable('push_message_users').set({ status: next }).where('id', '=', 4).execute(),
      // Asked in the same turn as the write, it may see either state; asked after the commit, only the new one.
      userById(handle.db, 4),
    ]);
    expect([before?.status, next]).toContain(after?.status);
    expect((await userById(handle.db, 4))?.status).toBe(next);
  });

  it('reads inside a transaction through the transaction, seeing its own uncommitted write', async () => {
    await writeTransaction(handle.db, async (trx) => {
      await trx.updateTable('push_message_users').set({ user_name: 'PREPARED\\renamed' }).where('id', '=', 4).execute();
      expect((await userById(trx, 4))?.user_name).toBe('PREPARED\\renamed');
      throw new Error('rolled back');
    }).catch((error: unknown) => {
      if (!(error instanceof Error) || error.message !== 'rolled back') throw error;
    });
    expect((await userById(handle.db, 4))?.user_name).toBe('PREPARED\\user3');
  });

  it('runs a write in each transaction it is given, compiled once for all of them, and rolls back with it', async () => {
    const build = vi.fn((db: Kysely<Database>, status: PushUserStatus, id: number) =>
      db.updateTable('push_message_users').set({ status }).where('id', '=', id).returning(['id', 'status']),
    );
    const setStatus = preparedStatement(2, build);
    expect(await writeTransaction(handle.db, (trx) => setStatus(trx, Disabled, 3))).toEqual([
      { id: 3, status: Disabled },
    ]);
    expect(await writeTransaction(handle.db, (trx) => setStatus(trx, Active, 3))).toEqual([{ id: 3, status: Active }]);
    await expect(
      writeTransaction(handle.db, async (trx) => {
        await setStatus(trx, Disabled, 3);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await setStatus(handle.db, Active, 999)).toEqual([]);
    expect((await userById(handle.db, 3))?.status).toBe(Active);
    // One compile for the database and every transaction on it (a transaction's handle is a new object each time).
    expect(build).toHaveBeenCalledTimes(1);
  });

  const insertEntry = preparedInsert('history', [
    'entity',
    'entity_id',
    'action',
    'from_state',
    'to_state',
    'comment',
    'changed_by',
    'changed_at',
  ]);
  const entry = {
    entity: 'PushMessageUser',
    entity_id: 3,
    action: 'StatusChanged',
    from_state: 'Active',
    to_state: 'Disabled',
    changed_by: 'PREPARED\\admin',
    changed_at: '2026-11-28 04:00:00.000',
  } as const;

  it('inserts a row with every listed column bound, null for one the row leaves out', async () => {
    await writeTransaction(handle.db, (trx) => insertEntry(trx, entry));
    await writeTransaction(handle.db, (trx) => insertEntry(trx, { ...entry, comment: 'lost on a train' }));
    const rows = await handle.db
      .selectFrom('history')
      .select(['to_state', 'comment', 'changed_by'])
      .where('changed_by', '=', entry.changed_by)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { to_state: 'Disabled', comment: null, changed_by: 'PREPARED\\admin' },
      { to_state: 'Disabled', comment: 'lost on a train', changed_by: 'PREPARED\\admin' },
    ]);
  });

  it('refuses a row naming a column the insert does not list, rather than storing it without', async () => {
    const partial = preparedInsert('history', ['entity', 'entity_id', 'action', 'to_state', 'changed_at']);
    await expect(writeTransaction(handle.db, (trx) => partial(trx, { ...entry, comment: 'kept?' }))).rejects.toThrow(
      'history: from_state is not among the prepared insert',
    );
    expect(await handle.db.selectFrom('history').select('id').where('comment', '=', 'kept?').execute()).toEqual([]);
  });
});
