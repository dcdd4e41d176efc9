import type { Kysely } from 'kysely';
import {
  type DeviceNotice,
  describeNewDevice,
  formatTimestamp,
  PushUserStatusCode,
} from '../../../shared/contract/index.ts';
import type { Database, DeviceNoticeKind } from '../../db/schema.ts';
import { userKeyOf } from '../accounts/principals.ts';
import type { DeviceNoticeMessage, TokenPushTarget } from '../two-factor/token-delivery.ts';

/** The most notices a device lists: a person enrols a few devices a year, the enrolment cap sees to the rest. */
const NOTICES_LIMIT = 50;

/** What a new device's notice made: the devices told (for their streams) and its Web Push, sent after the commit. */
export interface NewDeviceNotice {
  deviceIds: number[];
  targets: TokenPushTarget[];
  message: DeviceNoticeMessage;
}

/** What a device's enrolment said it is, in plain words (describeNewDevice). */
export function describeDevice(request: {
  device_type: string;
  manufacturer: string;
  model: string;
  os_version: string;
}): string {
  return describeNewDevice({
    DeviceType: request.device_type,
    Manufacturer: request.manufacturer,
    Model: request.model,
    OsVersion: request.os_version,
  });
}

/**
 * Tells a person's other Active devices that a device was enrolled for them, or approved: each gets a notice (its
 * inbox and its live stream, through its event log) and, once the caller has committed, a Web Push. Disabled,
 * Deleted, removed and still-waiting devices get nothing, nor does the new device itself. Inside the caller's
 * transaction.
 */
export async function recordDeviceNotices(
  trx: Kysely<Database>,
  authorizationRequestId: number,
  kind: DeviceNoticeKind,
  at: Date,
): Promise<NewDeviceNotice> {
  const request = await trx
    .selectFrom('authorization_requests')
    .select(['user_name', 'device_type', 'manufacturer', 'model', 'os_version'])
    .where('id', '=', authorizationRequestId)
    .executeTakeFirstOrThrow();
  const message: DeviceNoticeMessage = { kind, authorizationRequestId, device: describeDevice(request), at };
  const devices = await trx
    .selectFrom('devices')
    .innerJoin('principals', 'principals.id', 'devices.principal_id')
    .innerJoin('push_message_users', 'push_message_users.id', 'devices.push_message_user_id')
    .select(['devices.id', 'devices.push_endpoint', 'devices.push_p256dh', 'devices.push_auth'])
    .where('principals.user_key', '=', userKeyOf(request.user_name))
    .where('principals.enabled', '=', 1)
    .where('devices.ended_at', 'is', null)
    .where('devices.authorization_request_id', '!=', authorizationRequestId)
    .where('push_message_users.status', '=', PushUserStatusCode.Active)
    .orderBy('devices.id')
    .execute();
  if (devices.length === 0) return { deviceIds: [], targets: [], message };
  const stamp = formatTimestamp(at);
  for (const device of devices) {
    const notice = await trx
      .insertInto('device_notices')
      .values({
        device_id: device.id,
        kind,
        authorization_request_id: authorizationRequestId,
        created_at: stamp,
        reported_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('device_events')
      .values({ device_id: device.id, kind: 'notice', instruction_id: null, notice_id: notice.id, created_at: stamp })
      .execute();
  }
  const targets = devices.flatMap(({ id, push_endpoint, push_p256dh, push_auth }) =>
    push_endpoint && push_p256dh && push_auth
      ? [{ deviceId: id, subscription: { endpoint: push_endpoint, p256dh: push_p256dh, auth: push_auth } }]
      : [],
  );
  return { deviceIds: devices.map((device) => device.id), targets, message };
}

function selectNotices(db: Kysely<Database>, deviceId: number) {
  return db
    .selectFrom('device_notices')
    .innerJoin('authorization_requests', 'authorization_requests.id', 'device_notices.authorization_request_id')
    .select([
      'device_notices.id',
      'device_notices.kind',
      'device_notices.authorization_request_id',
      'device_notices.created_at',
      'device_notices.reported_at',
      'authorization_requests.device_type',
      'authorization_requests.manufacturer',
      'authorization_requests.model',
      'authorization_requests.os_version',
      'authorization_requests.created_at as enrolled_at',
      'authorization_requests.status',
    ])
    .where('device_notices.device_id', '=', deviceId);
}

type NoticeRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectNotices>['executeTakeFirst']>>>;

function toDeviceNotice(row: NoticeRow): DeviceNotice {
  return {
    Id: row.id,
    Kind: row.kind,
    AuthorizationRequestId: row.authorization_request_id,
    DeviceType: row.device_type,
    Manufacturer: row.manufacturer,
    Model: row.model,
    OsVersion: row.os_version,
    EnrolledTimestampUtc: row.enrolled_at,
    NoticeTimestampUtc: row.created_at,
    RequestStatus: row.status,
    ReportedTimestampUtc: row.reported_at,
  };
}

/** A device's notices, newest first. */
export async function listDeviceNotices(db: Kysely<Database>, deviceId: number): Promise<DeviceNotice[]> {
  const rows = await selectNotices(db, deviceId).orderBy('device_notices.id', 'desc').limit(NOTICES_LIMIT).execute();
  return rows.map(toDeviceNotice);
}

/** One notice of a device, as its list has it now; undefined when the device has no such notice. */
export async function deviceNoticeOf(
  db: Kysely<Database>,
  deviceId: number,
  noticeId: number,
): Promise<DeviceNotice | undefined> {
  const row = await selectNotices(db, deviceId).where('device_notices.id', '=', noticeId).executeTakeFirst();
  return row && toDeviceNotice(row);
}
