import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/database.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { AlertOutbox } from './alert-outbox.ts';
import type { Alert } from './alert-rules.ts';

const alert = (summary: string): Alert => ({
  kind: 'LockedOut',
  summary,
  facts: [],
  path: '/people',
  action: 'Open',
  occurredAt: new Date().toISOString(),
});

describe('the alerts outbox', () => {
  let t: TestApp;
  beforeEach(async () => {
    // Each test closes the app first, so its own sender claims nothing: only the outboxes made here do.
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const addDestinations = async (count: number) => {
    const ids: number[] = [];
    for (let index = 0; index < count; index += 1) {
      const row = await t.database.db
        .insertInto('alert_destinations')
        .values({
          name: `D${index}`,
          channel: 'webhook',
          target: `https://receiver-${index}.invalid/`,
          events: '["LockedOut"]',
          secret: null,
          created_at: t.clock.stamp(),
          created_by: 'test',
          failing_since: null,
          last_delivered_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return ids;
  };

  it('claims only the oldest pending delivery of each destination, and none already leased', async () => {
    await t.app.close();
    const outbox = new AlertOutbox(t.database.db, t.database.dialect, t.clock.now);
    await addDestinations(2);
    for (const summary of ['first', 'second', 'third']) await outbox.enqueue(alert(summary));
    const claimed = await outbox.claim(10);
    expect(claimed.map((delivery) => [delivery.destinationId, delivery.alert.summary])).toEqual([
      [claimed[0]?.destinationId, 'first'],
      [claimed[1]?.destinationId, 'first'],
    ]);
    expect(new Set(claimed.map((delivery) => delivery.destinationId)).size).toBe(2);
    // Leased: nothing more until they are done, or the lease runs out (their sender died).
    expect(await outbox.claim(10)).toEqual([]);
    t.clock.advanceMinutes(2);
    const taken = await outbox.claim(10);
    expect(taken.map((delivery) => [delivery.alert.summary, delivery.messageId, delivery.attempts])).toEqual(
      claimed.map((delivery) => ['first', delivery.messageId, 2]),
    );
    for (const delivery of taken) await outbox.delivered(delivery);
    expect((await outbox.claim(10)).map((delivery) => delivery.alert.summary)).toEqual(['second', 'second']);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'gives each delivery to exactly one of two PostgreSQL connections claiming at once (SKIP LOCKED)',
    async () => {
      await t.app.close();
      const other: DatabaseHandle = openDatabase({ databaseUrl: t.config.databaseUrl ?? '' });
      try {
        const mine = new AlertOutbox(t.database.db, 'postgres', t.clock.now);
        const theirs = new AlertOutbox(other.db, 'postgres', t.clock.now);
        await addDestinations(40);
        await mine.enqueue(alert('one each'));
        const rounds = await Promise.all([mine.claim(25), theirs.claim(25), mine.claim(25), theirs.claim(25)]);
        const ids = rounds.flat().map((delivery) => delivery.id);
        expect(ids).toHaveLength(40);
        expect(new Set(ids).size).toBe(40);
      } finally {
        await other.close();
      }
    },
  );
});
