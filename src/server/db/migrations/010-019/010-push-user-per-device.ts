import { type Generated, type Kysely, sql } from 'kysely';
import type { Dialect } from '../../dialect.ts';

/** PushUserStatusCode.Deleted, written out: a migration does not change when the contract does. */
const DISABLED = 2;
const DELETED = 3;

interface Tables {
  push_message_users: {
    id: Generated<number>;
    device_type: string;
    user_name: string;
    user_key: string;
    created_at: string;
    modified_at: string;
    status: number;
    manufacturer: string | null;
    model: string | null;
    os_version: string | null;
  };
  devices: {
    id: number;
    authorization_request_id: number;
    push_message_user_id: number | null;
    created_at: string;
    ended_at: string | null;
    last_seen_at: string | null;
  };
  authorization_requests: {
    id: number;
    manufacturer: string;
    model: string;
    os_version: string;
    decided_at: string | null;
    decided_by: string | null;
  };
  pushes: {
    id: Generated<number>;
    push_message_user_id: number;
    instruction_id: number;
    scheduled: number;
    token: string | null;
    sent_at: string;
    token_issue_id: number | null;
  };
  history: {
    id: Generated<number>;
    entity: string;
    entity_id: number;
    action: string;
    from_state: string | null;
    to_state: string;
    comment: string | null;
    changed_by: string | null;
    changed_at: string;
  };
  list_revisions: { name: string; revision: number };
}

const STATUS_NAMES: Record<number, string> = { 1: 'Active', 2: 'Disabled', 3: 'Deleted' };

/**
 * One push message user per device. Push users were keyed by (person, DeviceType), so a person's second phone of
 * a type shared the first one's registration: approving the new phone made a Disabled (lost) phone Active again.
 * The key goes (the unique constraint), devices record when they were last seen, and every push user that several
 * enrolled devices share is split: the device registered last keeps it, each other device gets a registration of
 * its own with the status it effectively had, described by its own request, with its codes that still work copied
 * along so its inbox does not lose them.
 *
 * The status a device effectively had: Deleted when it has ended; Disabled when it was Disabled before a later
 * device's approval revived the shared registration (what the history records as "Registered" from Disabled: that
 * approval was for the new device, never for the lost one); otherwise the shared registration's status.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('devices').addColumn('last_seen_at', 'text').execute();
  if (dialect === 'postgres') {
    await sql`alter table push_message_users drop constraint push_message_users_device`.execute(db);
  } else {
    await rebuildSqliteTableWithoutKey(db);
  }
  await db.schema
    .createIndex('push_message_users_person')
    .on('push_message_users')
    .columns(['user_key', 'status'])
    .execute();
  await splitSharedPushUsers(db as unknown as Kysely<Tables>);
}

/**
 * SQLite cannot drop a table constraint: the table is made again without it (its documented procedure, with foreign
 * keys off so dropping the old table does not set the devices' references to null).
 */
async function rebuildSqliteTableWithoutKey(db: Kysely<unknown>): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`create table push_message_users_new (
      id integer primary key autoincrement,
      device_type text not null,
      user_name text not null,
      user_key text not null,
      created_at text not null,
      modified_at text not null,
      status integer not null,
      manufacturer text,
      model text,
      os_version text
    )`.execute(db);
    await sql`insert into push_message_users_new
      (id, device_type, user_name, user_key, created_at, modified_at, status, manufacturer, model, os_version)
      select id, device_type, user_name, user_key, created_at, modified_at, status, manufacturer, model, os_version
      from push_message_users`.execute(db);
    await sql`drop table push_message_users`.execute(db);
    await sql`alter table push_message_users_new rename to push_message_users`.execute(db);
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error(`foreign keys broken by the rebuild: ${JSON.stringify(broken.rows)}`);
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

async function splitSharedPushUsers(db: Kysely<Tables>): Promise<void> {
  const devices = await db
    .selectFrom('devices')
    .innerJoin('authorization_requests', 'authorization_requests.id', 'devices.authorization_request_id')
    .select([
      'devices.id',
      'devices.push_message_user_id',
      'devices.ended_at',
      'authorization_requests.manufacturer',
      'authorization_requests.model',
      'authorization_requests.os_version',
      'authorization_requests.decided_at',
      'authorization_requests.decided_by',
    ])
    .where('devices.push_message_user_id', 'is not', null)
    .execute();
  const byPushUser = new Map<number, typeof devices>();
  for (const device of devices) {
    const id = device.push_message_user_id as number;
    byPushUser.set(id, [...(byPushUser.get(id) ?? []), device]);
  }
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  let split = 0;
  for (const [pushUserId, shared] of byPushUser) {
    if (shared.length < 2) continue;
    const original = await db
      .selectFrom('push_message_users')
      .selectAll()
      .where('id', '=', pushUserId)
      .executeTakeFirstOrThrow();
    // The one registered last is the one the shared row describes: it keeps the row.
    const ordered = [...shared].sort((a, b) => (a.decided_at ?? '').localeCompare(b.decided_at ?? '') || a.id - b.id);
    for (const [index, device] of ordered.slice(0, -1).entries()) {
      const status =
        device.ended_at !== null
          ? DELETED
          : (await revivedFromDisabled(db, pushUserId, ordered[index + 1]?.decided_at ?? null))
            ? DISABLED
            : original.status;
      const registered = device.decided_at ?? original.created_at;
      const { id } = await db
        .insertInto('push_message_users')
        .values({
          device_type: original.device_type,
          user_name: original.user_name,
          user_key: original.user_key,
          created_at: registered,
          modified_at: now,
          status,
          manufacturer: device.manufacturer,
          model: device.model,
          os_version: device.os_version,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.updateTable('devices').set({ push_message_user_id: id }).where('id', '=', device.id).execute();
      const codes = await db
        .selectFrom('pushes')
        .select(['instruction_id', 'scheduled', 'token', 'sent_at', 'token_issue_id'])
        .where('push_message_user_id', '=', pushUserId)
        .where('token', 'is not', null)
        .execute();
      if (codes.length > 0) {
        await db
          .insertInto('pushes')
          .values(codes.map((code) => ({ ...code, push_message_user_id: id })))
          .execute();
      }
      await db
        .insertInto('history')
        .values({
          entity: 'PushMessageUser',
          entity_id: id,
          action: 'Registered',
          from_state: null,
          to_state: STATUS_NAMES[status] ?? String(status),
          comment: `One registration per device: this device shared push message user ${pushUserId} until now.`,
          changed_by: device.decided_by,
          changed_at: now,
        })
        .execute();
      split += 1;
    }
  }
  if (split > 0) {
    await db
      .updateTable('list_revisions')
      .set((eb) => ({ revision: eb('revision', '+', 1) }))
      .where('name', '=', 'push_message_users')
      .execute();
  }
}

/** Whether a registration at or after `since` (a later device's approval) made this push user Active from Disabled. */
async function revivedFromDisabled(db: Kysely<Tables>, pushUserId: number, since: string | null): Promise<boolean> {
  if (since === null) return false;
  const revival = await db
    .selectFrom('history')
    .select('id')
    .where('entity', '=', 'PushMessageUser')
    .where('entity_id', '=', pushUserId)
    .where('action', '=', 'Registered')
    .where('from_state', '=', 'Disabled')
    .where('changed_at', '>=', since)
    .executeTakeFirst();
  return revival !== undefined;
}
