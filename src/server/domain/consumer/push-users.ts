import type { ExpressionBuilder, Insertable, Kysely, QueryCreator, Selectable } from 'kysely';
import {
  type ChangeEvent,
  formatTimestamp,
  type PushMessageUser,
  type PushMessageUserDetail,
  type PushUserStatus,
  PushUserStatusCode,
  statusName,
} from '../../../shared/contract/index.ts';
import { dialectOf } from '../../db/database.ts';
import { bumpRevision, bumpRevisionQuery } from '../../db/list-revisions.ts';
import { preparedLookup, preparedStatement } from '../../db/prepared-query.ts';
import type { Database, HistoryTable, PushMessageUserTable } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound } from '../../lib/problem-error.ts';
import { type ChangePublisher, writeAndPublish } from '../core/change-feed.ts';
import { endDevicesWhere } from '../delivery/device-credentials.ts';
import { userKeyOf } from '../identity/principals.ts';
import { recordHistory } from './history.ts';

export function toPushMessageUser(row: Pick<Selectable<PushMessageUserTable>, PushUserColumn>): PushMessageUser {
  return {
    Id: row.id,
    DeviceType: row.device_type,
    UserName: row.user_name,
    CreatedTimeStampUtc: row.created_at,
    ModifiedTimestampUtc: row.modified_at,
    Status: row.status,
    Manufacturer: row.manufacturer,
    Model: row.model,
    OsVersion: row.os_version,
  };
}

type PushUserColumn =
  | 'id'
  | 'device_type'
  | 'user_name'
  | 'created_at'
  | 'modified_at'
  | 'status'
  | 'manufacturer'
  | 'model'
  | 'os_version';
const COLUMNS: PushUserColumn[] = [
  'id',
  'device_type',
  'user_name',
  'created_at',
  'modified_at',
  'status',
  'manufacturer',
  'model',
  'os_version',
];

/** The device an authorization request describes, which the push user it registers carries. */
export interface DeviceDescription {
  manufacturer: string;
  model: string;
  osVersion: string;
}

export async function listPushMessageUsers(db: Kysely<Database>): Promise<PushMessageUser[]> {
  const rows = await db.selectFrom('push_message_users').select(COLUMNS).orderBy('id').execute();
  return rows.map(toPushMessageUser);
}

// The most frequent single-row read: compiled once, not per request, with what its device's newest enrolment says
// (two subqueries by the devices' push user index). One statement, so that on PostgreSQL the GETs of one round of
// the event loop are one round trip: a second read per request, for the device, halved what one process served.
const selectPushUserById = preparedLookup(
  (db: Kysely<Database>, id: number) => pushUserWithDeviceTimes(db).where('id', '=', id),
  (db: Kysely<Database>, ids: readonly number[]) =>
    pushUserWithDeviceTimes(db).where((eb) => eb('id', '=', eb.fn.any(eb.val(ids)))),
  (row) => row.id,
);

function pushUserWithDeviceTimes(db: Kysely<Database>) {
  const newestDevice = (eb: ExpressionBuilder<Database, 'push_message_users'>) =>
    eb
      .selectFrom('devices')
      .whereRef('devices.push_message_user_id', '=', 'push_message_users.id')
      .orderBy('devices.id', 'desc')
      .limit(1);
  return db
    .selectFrom('push_message_users')
    .select(COLUMNS)
    .select((eb) => [
      newestDevice(eb).select('devices.created_at').as('enrolled_at'),
      newestDevice(eb).select('devices.last_seen_at').as('last_seen_at'),
    ]);
}

/** #9: one push user, with when its device enrolled and was last seen (null for one no enrolled device made). */
export async function getPushMessageUser(db: Kysely<Database>, id: number): Promise<PushMessageUserDetail> {
  const row = await selectPushUserById(db, id);
  if (!row) throw notFound('Push message user', id);
  return {
    ...toPushMessageUser(row),
    EnrolledTimestampUtc: row.enrolled_at ?? null,
    LastSeenTimestampUtc: row.last_seen_at ?? null,
  };
}

/**
 * A person's push users (one per device), oldest first, each with when its device enrolled and was last seen: what
 * a page about one person lists as their devices.
 */
export async function listPushUsersOfPerson(db: Kysely<Database>, userName: string): Promise<PushMessageUserDetail[]> {
  const rows = await db
    .selectFrom('push_message_users')
    .leftJoin('devices', 'devices.push_message_user_id', 'push_message_users.id')
    .select(COLUMNS.map((column) => `push_message_users.${column}` as const))
    .select(['devices.created_at as enrolled_at', 'devices.last_seen_at'])
    .where('push_message_users.user_key', '=', userKeyOf(userName))
    .orderBy('push_message_users.id')
    .execute();
  return rows.map((row) => ({
    ...toPushMessageUser(row),
    EnrolledTimestampUtc: row.enrolled_at ?? null,
    LastSeenTimestampUtc: row.last_seen_at ?? null,
  }));
}

/** Seed §3: PUT changes only Status and stamps ModifiedTimestampUtc; nothing else is touched. */
export async function setPushMessageUserStatus({
  db,
  clock,
  changes,
  id,
  status,
  changedBy,
  judge = () => undefined,
}: {
  db: Kysely<Database>;
  clock: Clock;
  changes: ChangePublisher;
  id: number;
  status: PushUserStatus;
  changedBy: string;
  /** Judges the change from the status it replaces, before it is made (a step-up to make a Disabled device Active). */
  judge?: (from: PushUserStatus) => void;
}): Promise<PushMessageUser> {
  return writeAndPublish(
    db,
    changes,
    (trx) => changePushMessageUserStatus(trx, { clock, id, status, changedBy, judge }),
    (user) => pushUserChanged(user, changedBy),
  );
}

/** The dashboard's live event for a push user's new status, published once its change has committed. */
export const pushUserChanged = (user: PushMessageUser, changedBy: string): ChangeEvent => ({
  Type: 'push-user',
  Id: user.Id,
  Status: user.Status,
  ChangedBy: changedBy,
});

/**
 * The change of setPushMessageUserStatus inside the caller's transaction, for a change that must stand or fall
 * with others (a reported device: see device-notice-reports.ts). The caller publishes pushUserChanged after commit.
 */
export async function changePushMessageUserStatus(
  trx: Kysely<Database>,
  {
    clock,
    id,
    status,
    changedBy,
    judge = () => undefined,
  }: {
    clock: Clock;
    id: number;
    status: PushUserStatus;
    changedBy: string;
    /** Judges the change from the status it replaces, before it is made. */
    judge?: (from: PushUserStatus) => void;
  },
): Promise<PushMessageUser> {
  // Take the row's lock first (on PostgreSQL a no-op update returning the current status; SQLite's one writer holds
  // the whole database already) and read the clock only then:
  // concurrent changes of one user then commit in timestamp order, so the stored ModifiedTimestampUtc is
  // always the latest (the last commit's), and the history's From is the status this change replaced.
  const [before] = await (dialectOf(trx) === 'postgres' ? lockStatus : readStatus)(trx, id);
  if (!before) throw notFound('Push message user', id);
  judge(before.status);
  const at = clock();
  const now = formatTimestamp(at);
  // A Deleted push user's devices end with it, for good: registering the device type again later makes a new
  // enrolment's device that push user, never a lost phone that still holds the old credential.
  if (status === PushUserStatusCode.Deleted) await endDevicesWhere(trx, 'push_message_user_id', id, at);
  const row = await changeStatusAndRecord(trx, { id, status, from: before.status, changedBy, at: now });
  return toPushMessageUser(row);
}

// The status a change replaces, read under the row's lock: PostgreSQL takes it with a no-op update. SQLite needs no
// lock of its own, since its one writer runs each transaction alone, so a plain read serves (a read, not a write).
const lockStatus = preparedStatement(1, (db: Kysely<Database>, id: number) =>
  db
    .updateTable('push_message_users')
    .set((eb) => ({ status: eb.ref('status') }))
    .where('id', '=', id)
    .returning('status'),
);
const readStatus = preparedStatement(1, (db: Kysely<Database>, id: number) =>
  db.selectFrom('push_message_users').select('status').where('id', '=', id),
);
const setStatus = preparedStatement(3, (db: Kysely<Database>, status: PushUserStatus, at: string, id: number) =>
  db.updateTable('push_message_users').set({ status, modified_at: at }).where('id', '=', id).returning(COLUMNS),
);

/**
 * The locked row's new status, the list's revision and the history entry. On PostgreSQL they go as one statement:
 * each statement there is a round trip while the row stays locked until the commit, and every round trip saved
 * is one less wait for the next change of that user (three statements under the lock instead of five).
 */
async function changeStatusAndRecord(
  trx: Kysely<Database>,
  change: { id: number; status: PushUserStatus; from: PushUserStatus; changedBy: string; at: string },
): Promise<Pick<Selectable<PushMessageUserTable>, PushUserColumn>> {
  const { id, status, at } = change;
  const entry: Insertable<HistoryTable> = {
    entity: 'PushMessageUser',
    entity_id: id,
    action: 'StatusChanged',
    from_state: statusName(change.from),
    to_state: statusName(status),
    comment: null,
    changed_by: change.changedBy,
    changed_at: at,
  };
  if (dialectOf(trx) !== 'postgres') {
    const [row] = await setStatus(trx, status, at, id);
    if (!row) throw notFound('Push message user', id);
    await bumpRevision(trx, 'push_message_users');
    await recordHistory(trx, entry);
    return row;
  }
  return (
    trx
      .with('bumped', (db) => bumpRevisionQuery(db, 'push_message_users').returning('revision'))
      .with('recorded', (db) => db.insertInto('history').values(entry).returning('id'))
      // The CTEs before it add names this query does not use; the tables it updates are the database's.
      .with('changed', (db) =>
        (db as unknown as QueryCreator<Database>)
          .updateTable('push_message_users')
          .set({ status, modified_at: at })
          .where('id', '=', id)
          .returning(COLUMNS),
      )
      .selectFrom('changed')
      .selectAll()
      .executeTakeFirstOrThrow()
  );
}

/**
 * An authorized device becomes a push message user of its own: one per device, Active, described by the request that
 * registered it. Another registration of the same person and device type (a lost phone Disabled, say) is never
 * touched. Runs inside the caller's transaction; answers the new push user's Id.
 */
export async function registerDevice(
  trx: Kysely<Database>,
  {
    clock,
    userName,
    deviceType,
    registeredBy,
    device,
  }: { clock: Clock; userName: string; deviceType: string; registeredBy: string; device: DeviceDescription },
): Promise<number> {
  const now = formatTimestamp(clock());
  const registered = await trx
    .insertInto('push_message_users')
    .values({
      user_name: userName,
      user_key: userKeyOf(userName),
      device_type: deviceType,
      created_at: now,
      modified_at: now,
      status: PushUserStatusCode.Active,
      manufacturer: device.manufacturer,
      model: device.model,
      os_version: device.osVersion,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await bumpRevision(trx, 'push_message_users');
  await recordHistory(trx, {
    entity: 'PushMessageUser',
    entity_id: registered.id,
    action: 'Registered',
    from_state: null,
    to_state: statusName(PushUserStatusCode.Active),
    comment: null,
    changed_by: registeredBy,
    changed_at: now,
  });
  return registered.id;
}
