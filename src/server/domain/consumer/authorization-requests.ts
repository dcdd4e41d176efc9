import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import {
  type AuthorizationRequest,
  type DeviceAuthorizationDecision,
  formatTimestamp,
} from '../../../shared/contract/index.ts';
import { bumpRevision } from '../../db/list-revisions.ts';
import { preparedLookup } from '../../db/prepared-query.ts';
import type { AuthorizationRequestTable, Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { notFound, ProblemError } from '../../lib/problem-error.ts';
import { type ChangePublisher, deviceSignal, type FeedEvent, writeAndPublish } from '../core/change-feed.ts';
import { recordDeviceNotices } from '../delivery/device-notices.ts';
import type { TokenPushSender } from '../delivery/token-delivery.ts';
import type { Principal } from '../identity/principals.ts';
import { recordHistory } from './history.ts';
import { registerDevice } from './push-users.ts';

type Row = Selectable<AuthorizationRequestTable>;

export function toAuthorizationRequest(row: Row): AuthorizationRequest {
  return {
    Id: row.id,
    UserName: row.user_name,
    UserEmail: row.user_email,
    RequestGuid: row.request_guid,
    DeviceType: row.device_type,
    CreatedTimestampUtc: row.created_at,
    ModifiedTimestampUtc: row.modified_at,
    Manufacturer: row.manufacturer,
    Model: row.model,
    OsVersion: row.os_version,
    Status: row.status,
    Comment: row.comment,
    DecidedBy: row.decided_by,
    DecidedTimestampUtc: row.decided_at,
  };
}

/** What a new request says about its device and its person. */
export interface RequestedDevice {
  userName: string;
  userEmail: string;
  deviceType: string;
  manufacturer: string;
  model: string;
  osVersion: string;
}

/**
 * A device asks to be authorized: a Pending request, its list revision and its history entry, inside the caller's
 * transaction. Every way a request is made (a device's enrolment, the demo actor) comes here. `createdBy` is who
 * really asked, never a name taken on trust from the request.
 */
export async function insertAuthorizationRequest(
  trx: Kysely<Database>,
  device: RequestedDevice,
  createdBy: string,
  now: string,
): Promise<Row> {
  const row = await trx
    .insertInto('authorization_requests')
    .values({
      user_name: device.userName,
      user_email: device.userEmail,
      request_guid: randomUUID(),
      device_type: device.deviceType,
      manufacturer: device.manufacturer,
      model: device.model,
      os_version: device.osVersion,
      created_at: now,
      modified_at: now,
      status: 'Pending',
      comment: null,
      decided_by: null,
      decided_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await bumpRevision(trx, 'authorization_requests');
  await recordHistory(trx, {
    entity: 'AuthorizationRequest',
    entity_id: row.id,
    action: 'Created',
    from_state: null,
    to_state: 'Pending',
    comment: null,
    changed_by: createdBy,
    changed_at: now,
  });
  return row;
}

export async function listAuthorizationRequests(db: Kysely<Database>, all: boolean): Promise<AuthorizationRequest[]> {
  let query = db.selectFrom('authorization_requests').selectAll().orderBy('id');
  if (!all) query = query.where('status', '=', 'Pending');
  return (await query.execute()).map(toAuthorizationRequest);
}

const selectRequestById = preparedLookup(
  (db: Kysely<Database>, id: number) => db.selectFrom('authorization_requests').selectAll().where('id', '=', id),
  (db: Kysely<Database>, ids: readonly number[]) =>
    db
      .selectFrom('authorization_requests')
      .selectAll()
      .where((eb) => eb('id', '=', eb.fn.any(eb.val(ids)))),
  (row) => row.id,
);

export async function getAuthorizationRequest(db: Kysely<Database>, id: number): Promise<AuthorizationRequest> {
  const row = await selectRequestById(db, id);
  if (!row) throw notFound('Authorization request', id);
  return toAuthorizationRequest(row);
}

function alreadyDecided(row: Row): ProblemError {
  const outcome = row.status === 'Authorized' ? 'authorized' : 'rejected';
  const by = row.decided_by ? ` by ${row.decided_by}` : '';
  const at = row.decided_at ? ` at ${row.decided_at} UTC` : '';
  return new ProblemError(
    409,
    'already-decided',
    'Already decided',
    `Authorization request ${row.id} was already ${outcome}${by}${at}.`,
    { extensions: { decidedBy: row.decided_by, outcome: row.status } },
  );
}

/**
 * Seed §2.3 and SPEC §3: moves a pending request to Authorized or Rejected, once.
 * Authorizing registers the device as an Active push message user in the same transaction, and the enrolled device
 * that made the request (if one did) becomes that push user. Its live stream hears of it from the change event; the
 * person's other Active devices are told of it (device-notices.ts), by Web Push too when `pushSender` is given.
 */
export async function decideAuthorizationRequest({
  db,
  clock,
  changes,
  decision,
  decidedBy,
  pushSender = null,
  approving = () => undefined,
}: {
  db: Kysely<Database>;
  clock: Clock;
  changes: ChangePublisher;
  decision: DeviceAuthorizationDecision;
  decidedBy: Principal;
  /** Web Push for the notice an approval sends the person's other devices; none when null. */
  pushSender?: TokenPushSender | null;
  /** Judges an approval before it is made, from whose device it is (a step-up for one's own). */
  approving?: (owner: string) => void;
}): Promise<AuthorizationRequest> {
  const decided = await writeAndPublish(
    db,
    changes,
    async (trx) => {
      const row = await trx
        .selectFrom('authorization_requests')
        .selectAll()
        .where('id', '=', decision.RequestId)
        .executeTakeFirst();
      if (!row) throw notFound('Authorization request', decision.RequestId);
      if (row.request_guid.toLowerCase() !== decision.RequestGuid.toLowerCase()) {
        throw new ProblemError(
          400,
          'request-guid-mismatch',
          'RequestGuid does not match',
          `RequestGuid ${decision.RequestGuid} does not belong to authorization request ${decision.RequestId}.`,
          { extensions: { errors: [{ path: 'RequestGuid', message: 'does not belong to this request' }] } },
        );
      }
      if (row.status !== 'Pending') throw alreadyDecided(row);
      if (decision.Authorized) approving(row.user_name);

      const now = formatTimestamp(clock());
      // The status guard makes the decision exactly-once even when two transactions read Pending together.
      const updated = await trx
        .updateTable('authorization_requests')
        .set({
          status: decision.Authorized ? 'Authorized' : 'Rejected',
          comment: decision.Comment?.trim() || null,
          decided_by: decidedBy.userName,
          decided_at: now,
          modified_at: now,
        })
        .where('id', '=', row.id)
        .where('status', '=', 'Pending')
        .returningAll()
        .executeTakeFirst();
      if (!updated) {
        const winner = await trx
          .selectFrom('authorization_requests')
          .selectAll()
          .where('id', '=', row.id)
          .executeTakeFirst();
        throw alreadyDecided(winner ?? row);
      }
      await bumpRevision(trx, 'authorization_requests');
      await recordHistory(trx, {
        entity: 'AuthorizationRequest',
        entity_id: row.id,
        action: 'Decided',
        from_state: 'Pending',
        to_state: updated.status,
        comment: updated.comment,
        changed_by: decidedBy.userName,
        changed_at: now,
      });
      if (decision.Authorized) {
        const pushUserId = await registerDevice(trx, {
          clock,
          userName: row.user_name,
          deviceType: row.device_type,
          registeredBy: decidedBy.userName,
          device: { manufacturer: row.manufacturer, model: row.model, osVersion: row.os_version },
        });
        await trx
          .updateTable('devices')
          .set({ push_message_user_id: pushUserId })
          .where('authorization_request_id', '=', row.id)
          .execute();
      }
      const notice = decision.Authorized ? await recordDeviceNotices(trx, row.id, 'approved', clock()) : null;
      return { request: toAuthorizationRequest(updated), notice };
    },
    ({ request, notice }) => [decisionEvent(request), ...deviceSignal(notice?.deviceIds ?? [])],
  );
  if (decided.notice) pushSender?.sendNotice?.(decided.notice.targets, decided.notice.message);
  return decided.request;
}

function decisionEvent(decided: AuthorizationRequest): FeedEvent {
  return {
    Type: 'authorization-request',
    Id: decided.Id,
    Status: decided.Status ?? 'Pending',
    ChangedBy: decided.DecidedBy ?? null,
  };
}
