import type { Kysely, Selectable } from 'kysely';
import { formatTimestamp, type PushMessageUser, type PushUserStatus } from '../../shared/contract/index.ts';
import { bumpRevision } from '../db/database.ts';
import type { Database, PushMessageUserTable } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { userKeyOf } from './principals.ts';
import { notFound } from './problem-error.ts';

const ACTIVE: PushUserStatus = 1;

export function toPushMessageUser(row: Pick<Selectable<PushMessageUserTable>, PushUserColumn>): PushMessageUser {
  return {
    Id: row.id,
    DeviceType: row.device_type,
    UserName: row.user_name,
    CreatedTimeStampUtc: row.created_at,
    ModifiedTimestampUtc: row.modified_at,
    Status: row.status as PushUserStatus,
  };
}

type PushUserColumn = 'id' | 'device_type' | 'user_name' | 'created_at' | 'modified_at' | 'status';
const COLUMNS: PushUserColumn[] = ['id', 'device_type', 'user_name', 'created_at', 'modified_at', 'status'];

export async function listPushMessageUsers(db: Kysely<Database>): Promise<PushMessageUser[]> {
  const rows = await db.selectFrom('push_message_users').select(COLUMNS).orderBy('id').execute();
  return rows.map(toPushMessageUser);
}

export async function getPushMessageUser(db: Kysely<Database>, id: number): Promise<PushMessageUser> {
  const row = await db.selectFrom('push_message_users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Push message user', id);
  return toPushMessageUser(row);
}

/** Seed §3: PUT changes only Status and stamps ModifiedTimestampUtc; nothing else is touched. */
export async function setPushMessageUserStatus(
  db: Kysely<Database>,
  clock: Clock,
  id: number,
  status: PushUserStatus,
): Promise<PushMessageUser> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable('push_message_users')
      .set({ status, modified_at: formatTimestamp(clock()) })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    if (!row) throw notFound('Push message user', id);
    await bumpRevision(trx, 'push_message_users');
    return toPushMessageUser(row);
  });
}

/** An authorized device becomes (or becomes again) an Active push message user. Runs inside the caller's transaction. */
export async function registerDevice(
  trx: Kysely<Database>,
  userName: string,
  deviceType: string,
  now: string,
): Promise<void> {
  await trx
    .insertInto('push_message_users')
    .values({
      user_name: userName,
      user_key: userKeyOf(userName),
      device_type: deviceType,
      created_at: now,
      modified_at: now,
      status: ACTIVE,
    })
    .onConflict((conflict) =>
      conflict.columns(['user_key', 'device_type']).doUpdateSet({ status: ACTIVE, modified_at: now }),
    )
    .execute();
  await bumpRevision(trx, 'push_message_users');
}
