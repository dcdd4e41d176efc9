import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../db/database.ts';
import { pushUserRow } from '../test/rows.ts';
import { createTestDatabase, type TestDatabase, testDatabaseServer } from '../test/test-database.ts';
import { ActivityStore } from './activity-store.ts';

describe('the Activity store', () => {
  let handle: DatabaseHandle;
  let testDatabase: TestDatabase | null = null;
  let pushUserIds: number[] = [];
  beforeAll(async () => {
    const server = testDatabaseServer();
    testDatabase = server ? await createTestDatabase(server) : null;
    handle = openDatabase(testDatabase ? { databaseUrl: testDatabase.url } : { sqliteFile: ':memory:' });
    await migrateToLatest(handle);
    const rows = await handle.db
      .insertInto('push_message_users')
      .values(['STORE\\Ann', 'STORE\\Bo', 'STORE\\Cy'].map((name) => pushUserRow(name)))
      .returning('id')
      .execute();
    pushUserIds = rows.map((row) => row.id);
  });
  afterAll(async () => {
    await handle.close();
    await testDatabase?.drop();
  });

  it('keeps each event of a busy moment with the person it concerns, once, whatever else fails beside it', async () => {
    const errors: unknown[] = [];
    const store = new ActivityStore(handle.db, (error) => errors.push(error));
    const at = new Date('2026-11-28T04:30:00.000Z');
    const connect = handle.pool ? vi.spyOn(handle.pool, 'connect') : null;
    try {
      // Appended in one turn of the event loop, as the status changes of fifty requests answered together.
      for (let index = 0; index < 30; index++) {
        store.append(
          {
            action: 'push-user-status-changed',
            outcome: 'success',
            userName: 'STORE\\admin',
            entity: { type: 'PushMessageUser', id: pushUserIds[index % 3] as number },
            details: { status: 'Disabled', index },
          },
          at,
        );
      }
      // One whose person is nobody's push user: kept with whoever acted.
      store.append({ action: 'sign-in', outcome: 'failure', reason: 'unauthorized', userName: 'STORE\\Dee' }, at);
      // The service's own: nobody's, not the acting admin's.
      store.append(
        { action: 'demo-reset', outcome: 'success', userName: 'STORE\\admin', entity: { type: 'Database', id: null } },
        at,
      );
      store.append(
        {
          action: 'alert-destination-created',
          outcome: 'success',
          userName: 'STORE\\admin',
          entity: { type: 'AlertDestination', id: 4 },
        },
        at,
      );
      await store.settled();
      // PostgreSQL: the round's person reads are one query, its rows one insert (not a transaction for each event),
      // each on a connection of the pool's.
      if (connect) expect(connect.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      connect?.mockRestore();
    }
    expect(errors).toEqual([]);
    const kept = await handle.db
      .selectFrom('activity_events')
      .select(['action', 'person', 'person_key', 'details', 'search'])
      .where('at', '=', '2026-11-28 04:30:00.000')
      .orderBy('id')
      .execute();
    expect(kept).toHaveLength(33);
    expect(kept.filter((row) => row.action !== 'push-user-status-changed' && row.action !== 'sign-in')).toEqual([
      expect.objectContaining({ action: 'demo-reset', person: null, person_key: null }),
      expect.objectContaining({ action: 'alert-destination-created', person: null, person_key: null }),
    ]);
    const changes = kept.filter((row) => row.details !== null);
    expect(
      changes.map((row) => (JSON.parse(row.details as string) as { index: number }).index).sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 30 }, (_, index) => index));
    expect(new Set(changes.map((row) => row.person))).toEqual(new Set(['STORE\\Ann', 'STORE\\Bo', 'STORE\\Cy']));
    expect(changes.find((row) => row.person === 'STORE\\Bo')).toMatchObject({ person_key: 'store\\bo' });
    expect(changes[0]?.search).toContain('store\\admin');
    expect(kept.filter((row) => row.action === 'sign-in')).toEqual([
      expect.objectContaining({ person: 'STORE\\Dee', person_key: 'store\\dee' }),
    ]);
  });
});
