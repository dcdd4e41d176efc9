import type { Kysely } from 'kysely';
import {
  type AuthorizationRequestStatus,
  DEVICE_APP_PATH,
  type DeviceEnrollment,
  type DeviceEnrollmentResult,
  type DeviceState,
  ENROLLMENT_CODE_LIFETIME_MINUTES,
  ENROLLMENT_FRAGMENT_PARAMETER,
  type EnrollmentLink,
  formatTimestamp,
  type PushSubscriptionInput,
  type PushUserStatus,
  PushUserStatusCode,
} from '../../../shared/contract/index.ts';
import { noteAuditFacts } from '../../audit/audit-log.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { addMinutes, type Clock } from '../../lib/clock.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import {
  decideAuthorizationRequest,
  insertAuthorizationRequest,
  toAuthorizationRequest,
} from '../consumer/authorization-requests.ts';
import { setPushMessageUserStatus } from '../consumer/push-users.ts';
import { type ChangePublisher, deviceSignal, writeAndPublish } from '../core/change-feed.ts';
import { endDevicesWhere, hashSecret, newSecret } from '../delivery/device-credentials.ts';
import { type NewDeviceNotice, recordDeviceNotices } from '../delivery/device-notices.ts';
import type { Principal } from '../identity/principals.ts';
import { type PushEndpointPolicy, pushEndpointRefusal } from './push-endpoint-policy.ts';

/** Enrolments one person may make in an hour, however they enrol (signed in or from links). */
export const MAX_ENROLLMENTS_PER_HOUR = 10;

/** An enrolled device, as its credential names it. */
export interface AuthenticatedDevice {
  id: number;
  principalId: number;
  userName: string;
  userKey: string;
  authorizationRequestId: number;
  /** Its enrolment's decision: a Pending device may only learn its own state; a Rejected one, read it. */
  requestStatus: AuthorizationRequestStatus;
  pushMessageUserId: number | null;
  /** Its own push user's status once approved (null before): Disabled receives and does nothing. */
  pushUserStatus: PushUserStatus | null;
}

/** A User-Agent is kept to this length. */
const USER_AGENT_MAX = 512;

/** How often a device's last-seen time is written: reads stay reads between two of them. */
const LAST_SEEN_EVERY_MINUTES = 1;

/** Whose enrolment it is: the signed-in person, or the person an enrolment code was made for. */
export type Enroller = { kind: 'person'; principal: Principal } | { kind: 'code'; code: string };

const invalidCode = () =>
  new ProblemError(
    401,
    'enrollment-code-invalid',
    'Enrolment link not valid',
    'This enrolment link was already used, has expired, or is not one. Make a new one in the dashboard ' +
      '(user menu, "Add a device"), or sign in on this device instead.',
  );

/**
 * A single-use link that enrols a phone as the caller's device without a password on it. The code travels in the
 * URL's fragment, which browsers never send to a server nor put in Referer, so it stays out of logs.
 */
export async function createEnrollmentLink(
  { db, clock }: { db: Kysely<Database>; clock: Clock },
  {
    principal,
    origin,
    createdBy = principal.userName,
  }: {
    principal: Principal;
    origin: string;
    /** Who makes the link: the person, or a helpdesk for them (the device's provenance). */
    createdBy?: string;
  },
): Promise<EnrollmentLink> {
  const code = newSecret();
  const now = clock();
  const expires = addMinutes(now, ENROLLMENT_CODE_LIFETIME_MINUTES);
  await writeTransaction(db, async (trx) => {
    // Codes past their time are of no use to anyone: they go as new ones are made.
    await trx.deleteFrom('enrollment_codes').where('expires_at', '<=', formatTimestamp(now)).execute();
    await trx
      .insertInto('enrollment_codes')
      .values({
        code_hash: hashSecret(code),
        principal_id: principal.id,
        created_at: formatTimestamp(now),
        expires_at: formatTimestamp(expires),
        used_at: null,
        created_by: createdBy,
      })
      .execute();
  });
  return {
    Code: code,
    Url: `${origin}${DEVICE_APP_PATH}#${ENROLLMENT_FRAGMENT_PARAMETER}=${code}`,
    ExpiresTimestampUtc: formatTimestamp(expires),
  };
}

/**
 * An enrolment made, whose device it is (the audit line names the person, a link's enrolment too), and the notice
 * the person's other Active devices were given (its Web Push is the caller's to send, after the commit).
 */
export interface Enrolled {
  result: DeviceEnrollmentResult;
  userName: string;
  notice: NewDeviceNotice;
}

/**
 * Enrols a device: a Pending authorization request for its person (UserName their account's, UserEmail their
 * email or empty), and the device's credential, shown this once. A code is used up in the same transaction, so an
 * enrolment refused (too many this hour) leaves it unused, and two devices racing with one code get one enrolment.
 */
export async function enrollDevice({
  db,
  clock,
  changes,
  input,
  enroller,
  from = { clientAddress: null, userAgent: null },
}: {
  db: Kysely<Database>;
  clock: Clock;
  changes: ChangePublisher;
  input: DeviceEnrollment;
  enroller: Enroller;
  /** Where the enrolment came from, kept with its request. */
  from?: { clientAddress: string | null; userAgent: string | null };
}): Promise<Enrolled> {
  const credential = newSecret();
  return writeAndPublish(
    db,
    changes,
    async (trx) => {
      const now = clock();
      const stamp = formatTimestamp(now);
      let principalId: number;
      let addedBy: string | null;
      let linkIssuedAt: string | null = null;
      if (enroller.kind === 'code') {
        const used = await trx
          .updateTable('enrollment_codes')
          .set({ used_at: stamp })
          .where('code_hash', '=', hashSecret(enroller.code))
          .where('used_at', 'is', null)
          .where('expires_at', '>', stamp)
          .returning(['principal_id', 'created_by', 'created_at'])
          .executeTakeFirst();
        if (!used) throw invalidCode();
        principalId = used.principal_id;
        addedBy = used.created_by;
        linkIssuedAt = used.created_at;
      } else {
        principalId = enroller.principal.id;
        addedBy = enroller.principal.userName;
      }
      const person = await trx
        .selectFrom('principals')
        .select(['user_name', 'email', 'enabled', 'source'])
        .where('id', '=', principalId)
        .executeTakeFirst();
      if (person?.enabled !== 1) throw invalidCode();
      const recent = await trx
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('principal_id', '=', principalId)
        .where('created_at', '>', formatTimestamp(addMinutes(now, -60)))
        .executeTakeFirstOrThrow();
      if (Number(recent.count) >= MAX_ENROLLMENTS_PER_HOUR) {
        throw new ProblemError(
          429,
          'too-many-requests',
          'Too many enrolments',
          `${person.user_name} has enrolled ${MAX_ENROLLMENTS_PER_HOUR} devices in the last hour, the most allowed. Try again later.`,
          { headers: { 'Retry-After': '3600' } },
        );
      }
      const request = await insertAuthorizationRequest(
        trx,
        {
          userName: person.user_name,
          userEmail: person.email ?? '',
          deviceType: input.DeviceType,
          manufacturer: input.Manufacturer ?? '',
          model: input.Model ?? '',
          osVersion: input.OsVersion ?? '',
        },
        person.user_name,
        stamp,
      );
      await trx
        .insertInto('devices')
        .values({
          principal_id: principalId,
          authorization_request_id: request.id,
          push_message_user_id: null,
          credential_hash: hashSecret(credential),
          push_endpoint: null,
          push_p256dh: null,
          push_auth: null,
          created_at: stamp,
          ended_at: null,
          added_by: addedBy,
          // How it came, for whoever decides on it (the request's context).
          enrolled_via: enroller.kind === 'code' ? 'link' : person.source === 'oidc' ? 'single-sign-on' : 'password',
          link_issued_at: linkIssuedAt,
          client_address: from.clientAddress,
          user_agent: from.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
        })
        .execute();
      // The person hears of it on their other devices before anyone approves it: a link needs no password.
      const notice = await recordDeviceNotices(trx, request.id, 'enrolled', now);
      // Whose device, and its request: the enrolment's audit event and the alert written with it name them.
      noteAuditFacts(trx, { userName: person.user_name, entity: { type: 'AuthorizationRequest', id: request.id } });
      return { request: toAuthorizationRequest(request), userName: person.user_name, notice };
    },
    ({ request, userName, notice }) => [
      { Type: 'authorization-request', Id: request.Id, Status: 'Pending', ChangedBy: userName },
      ...deviceSignal(notice.deviceIds),
    ],
  ).then(({ request, userName, notice }) => ({
    result: { AuthorizationRequestId: request.Id, RequestGuid: request.RequestGuid, DeviceToken: credential },
    userName,
    notice,
  }));
}

const deviceEnded = (why: string) =>
  new ProblemError(
    401,
    'device-ended',
    'Device removed',
    `${why} Enrol it again at ${DEVICE_APP_PATH} if you need it.`,
  );

function selectDevice(db: Kysely<Database>) {
  return db
    .selectFrom('devices')
    .innerJoin('principals', 'principals.id', 'devices.principal_id')
    .innerJoin('authorization_requests', 'authorization_requests.id', 'devices.authorization_request_id')
    .leftJoin('push_message_users', 'push_message_users.id', 'devices.push_message_user_id')
    .select([
      'devices.id',
      'devices.principal_id',
      'devices.authorization_request_id',
      'devices.push_message_user_id',
      'devices.ended_at',
      'devices.last_seen_at',
      'authorization_requests.status as request_status',
      'principals.user_name',
      'principals.user_key',
      'principals.enabled',
      'push_message_users.status',
    ]);
}

type DeviceRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectDevice>['executeTakeFirst']>>>;

/** Why a device may no longer call, or null while it may. */
function endedProblem(row: DeviceRow): ProblemError | null {
  if (row.ended_at !== null) return deviceEnded(`This device was removed at ${row.ended_at} UTC.`);
  if (row.enabled !== 1) return deviceEnded(`The account ${row.user_name} is disabled, which ended its devices.`);
  if (row.status === PushUserStatusCode.Deleted) return deviceEnded('This device is Deleted.');
  return null;
}

/**
 * The device a credential names, or the 401 that refuses it: unknown, or ended (removed, its push user Deleted, its
 * person disabled). A person disabled ends their devices for good (accounts.ts), so enabling them again does not
 * bring a lost phone back; the check here also covers people disabled by other paths. Its last-seen time moves on
 * at most once a minute.
 */
export async function authenticateDevice(
  db: Kysely<Database>,
  credential: string,
  clock: Clock,
): Promise<AuthenticatedDevice> {
  const row = await selectDevice(db).where('devices.credential_hash', '=', hashSecret(credential)).executeTakeFirst();
  if (!row) {
    throw new ProblemError(
      401,
      'unauthenticated',
      'Unknown device',
      'This device credential is not one this service issued. Enrol the device again.',
    );
  }
  const ended = endedProblem(row);
  if (ended) throw ended;
  const now = clock();
  const seen = formatTimestamp(addMinutes(now, -LAST_SEEN_EVERY_MINUTES));
  if (row.last_seen_at === null || row.last_seen_at < seen) {
    await writeTransaction(db, (trx) =>
      trx
        .updateTable('devices')
        .set({ last_seen_at: formatTimestamp(now) })
        .where('id', '=', row.id)
        .execute(),
    );
  }
  return {
    id: row.id,
    principalId: row.principal_id,
    userName: row.user_name,
    userKey: row.user_key,
    authorizationRequestId: row.authorization_request_id,
    requestStatus: row.request_status,
    pushMessageUserId: row.push_message_user_id,
    pushUserStatus: row.status ?? null,
  };
}

/**
 * Refuses what only an approved, Active device may do (read its inbox, report a code): a Disabled device receives
 * nothing and does nothing until it is Active again; a device still waiting, or rejected, has no inbox. With
 * `waitingToo`, a device still waiting passes (it may set up its notifications before the decision). Its state
 * (GET /Device) and its removal stay open to every device.
 */
export function requireActiveDevice(device: AuthenticatedDevice, { waitingToo = false } = {}): void {
  if (device.requestStatus === 'Rejected' || (device.requestStatus === 'Pending' && !waitingToo)) {
    throw new ProblemError(
      403,
      'device-not-approved',
      device.requestStatus === 'Pending' ? 'Device not approved yet' : 'Device rejected',
      device.requestStatus === 'Pending'
        ? `This device's request ${device.authorizationRequestId} waits for an administrator's decision: it has no codes until it is approved.`
        : `This device's request ${device.authorizationRequestId} was rejected: it receives no codes. Enrol it again at ${DEVICE_APP_PATH} if you need it.`,
    );
  }
  if (device.pushUserStatus === PushUserStatusCode.Disabled) {
    throw new ProblemError(
      403,
      'device-disabled',
      'Device disabled',
      `This device (push message user ${device.pushMessageUserId}) is Disabled: it receives no codes and cannot ` +
        'report one or change its notifications until an administrator makes it Active again.',
    );
  }
}

/** Whether a device may still call (an open stream asks now and then). */
export async function deviceStillLive(db: Kysely<Database>, deviceId: number): Promise<boolean> {
  const row = await selectDevice(db).where('devices.id', '=', deviceId).executeTakeFirst();
  return row !== undefined && endedProblem(row) === null;
}

/** Where a device stands now: its request's decision, and its push user's status once authorized. */
export async function deviceState(db: Kysely<Database>, deviceId: number): Promise<DeviceState> {
  const row = await db
    .selectFrom('devices')
    .innerJoin('authorization_requests', 'authorization_requests.id', 'devices.authorization_request_id')
    .leftJoin('push_message_users', 'push_message_users.id', 'devices.push_message_user_id')
    .select([
      'devices.authorization_request_id',
      'devices.push_message_user_id',
      'devices.push_endpoint',
      'authorization_requests.status as request_status',
      'authorization_requests.comment',
      'authorization_requests.user_name',
      'authorization_requests.device_type',
      'push_message_users.status as push_user_status',
    ])
    .where('devices.id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return {
    AuthorizationRequestId: row.authorization_request_id,
    RequestStatus: row.request_status,
    Comment: row.comment,
    PushMessageUserId: row.push_message_user_id,
    PushMessageUserStatus: row.push_user_status ?? null,
    UserName: row.user_name,
    DeviceType: row.device_type,
    PushEndpoint: row.push_endpoint,
  };
}

/** Stores a device's Web Push subscription once the endpoint policy accepts where it points. */
export async function setPushSubscription(
  db: Kysely<Database>,
  device: AuthenticatedDevice,
  subscription: PushSubscriptionInput,
  policy: PushEndpointPolicy,
): Promise<void> {
  const refusal = await pushEndpointRefusal(subscription.endpoint, policy);
  if (refusal) {
    throw new ProblemError(400, 'push-endpoint-refused', 'Push endpoint refused', refusal, {
      extensions: { errors: [{ path: 'endpoint', message: refusal }] },
    });
  }
  await writeTransaction(db, (trx) =>
    trx
      .updateTable('devices')
      .set({
        push_endpoint: subscription.endpoint,
        push_p256dh: subscription.keys.p256dh,
        push_auth: subscription.keys.auth,
      })
      .where('id', '=', device.id)
      .execute(),
  );
}

export async function clearPushSubscription(db: Kysely<Database>, device: AuthenticatedDevice): Promise<void> {
  await writeTransaction(db, (trx) =>
    trx
      .updateTable('devices')
      .set({ push_endpoint: null, push_p256dh: null, push_auth: null })
      .where('id', '=', device.id)
      .execute(),
  );
}

/**
 * The person removes this device. An authorized one: its push message user becomes Deleted, through the same change
 * an administrator makes with #10 (history, the dashboard's live event, every device that is that push user ended).
 * One still waiting: its request is withdrawn (rejected by its own person), so the queue does not keep asking about
 * a device that is gone. Either way its credential ends.
 */
export async function removeDevice(
  db: Kysely<Database>,
  clock: Clock,
  device: AuthenticatedDevice,
  changes: ChangePublisher,
): Promise<void> {
  const person: Principal = {
    id: device.principalId,
    userName: device.userName,
    userKey: device.userKey,
    grants: [],
    kind: 'Person',
  };
  if (device.pushMessageUserId !== null) {
    // Ends every device that is this push user, this one included, in the same transaction.
    await setPushMessageUserStatus({
      db,
      clock,
      changes,
      id: device.pushMessageUserId,
      status: PushUserStatusCode.Deleted,
      changedBy: device.userName,
    });
    return;
  }
  // Ended first, so the device's own stream, hearing of the withdrawal, finds it gone.
  await writeTransaction(db, (trx) => endDevicesWhere(trx, 'id', device.id, clock()));
  const request = await db
    .selectFrom('authorization_requests')
    .select(['request_guid', 'status'])
    .where('id', '=', device.authorizationRequestId)
    .executeTakeFirstOrThrow();
  if (request.status !== 'Pending') return;
  await decideAuthorizationRequest({
    db,
    clock,
    changes,
    decision: {
      RequestId: device.authorizationRequestId,
      RequestGuid: request.request_guid,
      Authorized: false,
      Comment: 'Withdrawn: the device was removed by its person.',
    },
    decidedBy: person,
  }).catch((error: unknown) => {
    // Decided meanwhile by someone else: nothing left to withdraw.
    if (!(error instanceof ProblemError && error.kind === 'already-decided')) throw error;
  });
}
