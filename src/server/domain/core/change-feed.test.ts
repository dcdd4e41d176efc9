import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../../db/database.ts';
import { pushUserRow } from '../../test/rows.ts';
import { ChangeFeed, type FeedEvent, writeAndPublish } from './change-feed.ts';

describe('writeAndPublish', () => {
  let handle: DatabaseHandle;
  let feed: ChangeFeed;
  let heard: FeedEvent[];
  beforeEach(async () => {
    handle = openDatabase({ sqliteFile: ':memory:' });
    await migrateToLatest(handle);
    feed = new ChangeFeed();
    heard = [];
    feed.subscribe((event) => heard.push(event));
  });
  afterEach(() => handle.close());

  const insert = (name: string, fail: boolean) =>
    writeAndPublish(
      handle.db,
      feed,
      async (trx) => {
        const row = await trx
          .insertInto('push_message_users')
          .values(pushUserRow(name))
          .returning('id')
          .executeTakeFirstOrThrow();
        if (fail) throw new Error('rolled back');
        return row.id;
      },
      (id): FeedEvent => ({ Type: 'push-user', Id: id, Status: 1, ChangedBy: name }),
    );

  it('announces a committed write once it has committed', async () => {
    const id = await insert('ACME\\kept', false);
    expect(heard).toEqual([{ Type: 'push-user', Id: id, Status: 1, ChangedBy: 'ACME\\kept' }]);
    expect(await handle.db.selectFrom('push_message_users').select('id').execute()).toEqual([{ id }]);
  });

  it('announces nothing when the write fails and rolls back', async () => {
    await expect(insert('ACME\\lost', true)).rejects.toThrow('rolled back');
    expect(heard).toEqual([]);
    expect(await handle.db.selectFrom('push_message_users').select('id').execute()).toEqual([]);
  });
});
