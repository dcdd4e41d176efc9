import type { Kysely, Selectable } from 'kysely';
import {
  type AuthorizationRequest,
  type ChangeEvent,
  type DeviceAuthorizationDecision,
  formatTimestamp,
} from '../../shared/contract/index.ts';
import { bumpRevision } from '../db/list-revisions.ts';
import { preparedLookup } from '../db/prepared-query.ts';
import type { AuthorizationRequestTable, Database } from '../db/schema.ts';
import { type ChangePublisher, writeAndPublish } from './change-feed.ts';
import type { Clock } from './clock.ts';
import { recordHistory } from './history.ts';
import type { Principal } from './principals.ts';
import { notFound, ProblemError } from './problem-error.ts';
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
 * Authorizing registers the device as an Active push message user in the same transaction.
 */
export async function decideAuthorizationRequest(
  db: Kysely<Database>,
  clock: Clock,
  decision: DeviceAuthorizationDecision,
  decidedBy: Principal,
  changes: ChangePublisher,
): Promise<AuthorizationRequest> {
  return writeAndPublish(
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
        await registerDevice(trx, row.user_name, row.device_type, clock, decidedBy.userName, {
          manufacturer: row.manufacturer,
          model: row.model,
          osVersion: row.os_version,
        });
      }
      return toAuthorizationRequest(updated);
    },
    decisionEvent,
  );
}

function decisionEvent(decided: AuthorizationRequest): ChangeEvent {
  return {
    Type: 'authorization-request',
    Id: decided.Id,
    Status: decided.Status ?? 'Pending',
    ChangedBy: decided.DecidedBy ?? null,
  };
}
