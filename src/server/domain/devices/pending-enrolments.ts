import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import { bumpRevision } from '../../db/list-revisions.ts';
import type { Database } from '../../db/schema.ts';
import { recordHistory } from '../consumer/history.ts';
import type { FeedEvent } from '../core/change-feed.ts';

/** Why a person's enrolments still under way were rejected (endPendingEnrolments): the comment their devices show. */
export const ENROLMENTS_ENDED = {
  disabled: 'Rejected automatically: the account was disabled.',
  passwordReset:
    "Rejected automatically: the account's password was reset, so whoever knew the old one may have enrolled it. Enrol the device again if it is yours.",
  passwordChanged:
    "Rejected automatically: the account's password was changed, so whoever knew the old one may have enrolled it. Enrol the device again if it is yours.",
  signedOut: 'Rejected automatically: the account was signed out everywhere. Enrol the device again if it is yours.',
  methodsReset:
    "Rejected automatically: the account's sign-in methods were reset. Enrol the device again if it is yours.",
  reported:
    'Rejected automatically: a code was reported as not asked for ("This wasn\'t me"), so someone else knows the password. Enrol the device again if it is yours.',
  deviceReported:
    'Rejected automatically: a new device was reported as not the person\'s ("This wasn\'t me"), so someone else knows the password. Enrol the device again if it is yours.',
} as const;

/**
 * Ends a person's enrolments still under way when their account is in doubt ("This wasn't me", a password reset
 * or change, Sign out everywhere, disabled): their unused enrolment links stop working, and the requests their
 * devices made that still wait are rejected with `reason`, so nobody approves a phone that whoever knew the password enrolled.
 * The devices keep their credential long enough to read why (GET /Device); they receive nothing.
 * Inside the caller's transaction; answers the queue's events for after the commit.
 */
export async function endPendingEnrolments(
  trx: Kysely<Database>,
  principalId: number,
  reason: string,
  decidedBy: string,
  at: Date,
): Promise<FeedEvent[]> {
  const now = formatTimestamp(at);
  await trx
    .deleteFrom('enrollment_codes')
    .where('principal_id', '=', principalId)
    .where('used_at', 'is', null)
    .execute();
  const rejected = await trx
    .updateTable('authorization_requests')
    .set({ status: 'Rejected', comment: reason, decided_by: decidedBy, decided_at: now, modified_at: now })
    .where('status', '=', 'Pending')
    .where('id', 'in', (eb) =>
      eb.selectFrom('devices').select('authorization_request_id').where('principal_id', '=', principalId),
    )
    .returning('id')
    .execute();
  if (rejected.length === 0) return [];
  await bumpRevision(trx, 'authorization_requests');
  for (const { id } of rejected) {
    await recordHistory(trx, {
      entity: 'AuthorizationRequest',
      entity_id: id,
      action: 'Decided',
      from_state: 'Pending',
      to_state: 'Rejected',
      comment: reason,
      changed_by: decidedBy,
      changed_at: now,
    });
  }
  return rejected.map(({ id }) => ({
    Type: 'authorization-request',
    Id: id,
    Status: 'Rejected',
    ChangedBy: decidedBy,
  }));
}
