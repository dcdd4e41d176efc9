import type { Kysely } from 'kysely';
import {
  type DeviceNotice,
  describeNewDevice,
  formatTimestamp,
  PushUserStatusCode,
} from '../../../shared/contract/index.ts';
import type { Database, DeviceNoticeKind } from '../../db/schema.ts';
import { userKeyOf } from '../identity/principals.ts';
import type { DeviceNoticeMessage, TokenPushTarget } from './token-delivery.ts';

/**
 * The most notices a device lists: a person enrols a few devices a year (the enrolment cap sees to the rest) and gets
 * a temporary code rarely.
 */
const NOTICES_LIMIT = 50;

/** What a notice made: the devices told (for their streams) and its Web Push, sent after the commit. */
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
  kind: Exclude<DeviceNoticeKind, 'temporary-code'>,
  at: Date,
): Promise<NewDeviceNotice> {
  const request = await trx
    .selectFrom('authorization_requests')
    .select(['user_name', 'device_type', 'manufacturer', 'model', 'os_version'])
    .where('id', '=', authorizationRequestId)
    .executeTakeFirstOrThrow();
  const message: DeviceNoticeMessage = { kind, authorizationRequestId, device: describeDevice(request), at };
  const devices = await activeDevicesOf(trx, request.user_name)
    .where('devices.authorization_request_id', '!=', authorizationRequestId)
    .execute();
  return deliver(trx, devices, message, { kind, authorization_request_id: authorizationRequestId }, at);
}

/**
 * Tells every Active device of a person that a temporary code was issued for them: who issued it, when, and until
 * when (never the code), in their inbox and stream and, once the caller has committed, by Web Push. Inside the
 * caller's transaction.
 */
export async function recordTemporaryCodeNotices(
  trx: Kysely<Database>,
  userName: string,
  code: { id: number; issuedBy: string; validUntil: Date },
  at: Date,
): Promise<NewDeviceNotice> {
  const message: DeviceNoticeMessage = {
    kind: 'temporary-code',
    temporaryCodeId: code.id,
    issuedBy: code.issuedBy,
    validUntil: code.validUntil,
    at,
  };
  const devices = await activeDevicesOf(trx, userName).execute();
  return deliver(trx, devices, message, { kind: 'temporary-code', temporary_code_id: code.id }, at);
}

/** A person's Active devices: enabled account, device not ended, its push user Active. */
function activeDevicesOf(trx: Kysely<Database>, userName: string) {
  return trx
    .selectFrom('devices')
    .innerJoin('principals', 'principals.id', 'devices.principal_id')
    .innerJoin('push_message_users', 'push_message_users.id', 'devices.push_message_user_id')
    .select(['devices.id', 'devices.push_endpoint', 'devices.push_p256dh', 'devices.push_auth'])
    .where('principals.user_key', '=', userKeyOf(userName))
    .where('principals.enabled', '=', 1)
    .where('devices.ended_at', 'is', null)
    .where('push_message_users.status', '=', PushUserStatusCode.Active)
    .orderBy('devices.id');
}

type DeviceRow = Awaited<ReturnType<ReturnType<typeof activeDevicesOf>['execute']>>[number];

/** Each device's notice and its event (its stream's), and the Web Push targets among them. */
async function deliver(
  trx: Kysely<Database>,
  devices: DeviceRow[],
  message: DeviceNoticeMessage,
  about:
    | { kind: 'enrolled' | 'approved'; authorization_request_id: number }
    | { kind: 'temporary-code'; temporary_code_id: number },
  at: Date,
): Promise<NewDeviceNotice> {
  if (devices.length === 0) return { deviceIds: [], targets: [], message };
  const stamp = formatTimestamp(at);
  for (const device of devices) {
    const notice = await trx
      .insertInto('device_notices')
      .values({
        device_id: device.id,
        authorization_request_id: null,
        ...about,
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
    .leftJoin('authorization_requests', 'authorization_requests.id', 'device_notices.authorization_request_id')
    .leftJoin('temporary_codes', 'temporary_codes.id', 'device_notices.temporary_code_id')
    .select([
      'device_notices.id',
      'device_notices.kind',
      'device_notices.authorization_request_id',
      'device_notices.temporary_code_id',
      'temporary_codes.issued_by',
      'temporary_codes.expires_at',
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

function toDeviceNotice(row: NoticeRow): DeviceNotice | null {
  if (row.kind === 'temporary-code') {
    if (row.temporary_code_id === null || row.issued_by === null || row.expires_at === null) return null;
    return {
      Id: row.id,
      Kind: row.kind,
      TemporaryCodeId: row.temporary_code_id,
      IssuedBy: row.issued_by,
      NoticeTimestampUtc: row.created_at,
      ValidUntilUtc: row.expires_at,
    };
  }
  if (row.authorization_request_id === null || row.status === null) return null;
  return {
    Id: row.id,
    Kind: row.kind,
    AuthorizationRequestId: row.authorization_request_id,
    DeviceType: row.device_type ?? '',
    Manufacturer: row.manufacturer ?? '',
    Model: row.model ?? '',
    OsVersion: row.os_version ?? '',
    EnrolledTimestampUtc: row.enrolled_at ?? row.created_at,
    NoticeTimestampUtc: row.created_at,
    RequestStatus: row.status,
    ReportedTimestampUtc: row.reported_at,
  };
}

/** A device's notices, newest first. */
export async function listDeviceNotices(db: Kysely<Database>, deviceId: number): Promise<DeviceNotice[]> {
  const rows = await selectNotices(db, deviceId).orderBy('device_notices.id', 'desc').limit(NOTICES_LIMIT).execute();
  return rows.flatMap((row) => toDeviceNotice(row) ?? []);
}

/** One notice of a device, as its list has it now; undefined when the device has no such notice. */
export async function deviceNoticeOf(
  db: Kysely<Database>,
  deviceId: number,
  noticeId: number,
): Promise<DeviceNotice | undefined> {
  const row = await selectNotices(db, deviceId).where('device_notices.id', '=', noticeId).executeTakeFirst();
  return (row && toDeviceNotice(row)) ?? undefined;
}
