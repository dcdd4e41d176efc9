import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import type { FeedEvent } from '../core/change-feed.ts';
import { endDevicesWhere } from '../delivery/device-credentials.ts';
import { ENROLMENTS_ENDED, endPendingEnrolments } from '../devices/pending-enrolments.ts';
import { recordAccountHistory } from '../identity/account-history.ts';
import { userKeyOf } from '../identity/principals.ts';
import { revokeSessionsOf } from '../identity/session-revocation.ts';

/** What a reset took away from an account, and the live events of the enrolments it rejected. */
export interface SignInRemoved {
  passkeys: number;
  /** Recovery codes still unused (used ones go too, uncounted). */
  recoveryCodes: number;
  devices: number;
  sessions: number;
  events: FeedEvent[];
}

/**
 * What resetting an account's sign-in is, wherever it is asked for (an administrator in the dashboard, the operator's
 * `npm run reset-sign-in`): its passkeys, recovery codes and pending second steps go, its devices end (a phone someone
 * planted is no second step any more; its push user stops receiving codes), its enrolments under way are rejected, and
 * its sessions end. Its password stays: the person signs in with it and is asked to add a second factor again.
 */
export async function removeSignInMethods(
  trx: Kysely<Database>,
  principalId: number,
  now: Date,
  decidedBy: string,
): Promise<SignInRemoved> {
  const passkeys = await trx.deleteFrom('passkeys').where('principal_id', '=', principalId).executeTakeFirst();
  const codes = await trx
    .deleteFrom('recovery_codes')
    .where('principal_id', '=', principalId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  await trx.deleteFrom('recovery_codes').where('principal_id', '=', principalId).execute();
  await trx.deleteFrom('sign_in_tickets').where('principal_id', '=', principalId).execute();
  const devices = await trx
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('principal_id', '=', principalId)
    .where('ended_at', 'is', null)
    .executeTakeFirstOrThrow();
  const events = await endPendingEnrolments(trx, principalId, ENROLMENTS_ENDED.methodsReset, decidedBy, now);
  await endDevicesWhere(trx, 'principal_id', principalId, now);
  const open = await trx
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('principal_id', '=', principalId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  await revokeSessionsOf(trx, principalId, now);
  return {
    passkeys: Number(passkeys.numDeletedRows),
    recoveryCodes: Number(codes.numDeletedRows),
    devices: Number(devices.n),
    sessions: Number(open.n),
    events,
  };
}

/** Who ran the command, as the account's history and the audit stream name them. */
export const COMMAND_LINE_ACTOR = 'npm run reset-sign-in';

/**
 * The operator's recovery of an account by its user name (the break-glass administrator whose passkey is gone), from
 * the service's host: nobody signed in acts, so the account's history names the command. Null for an unknown name.
 */
export async function resetSignInByUserName(
  db: Kysely<Database>,
  userName: string,
  now: Date,
): Promise<({ id: number; userName: string } & Omit<SignInRemoved, 'events'>) | null> {
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('principals')
      .select(['id', 'user_name'])
      .where('user_key', '=', userKeyOf(userName))
      .executeTakeFirst();
    if (!row) return null;
    // The service is stopped (embedded) or hears of it by announceAccessChangeOnce (PostgreSQL): no live events here.
    const { events: _events, ...removed } = await removeSignInMethods(trx, row.id, now, COMMAND_LINE_ACTOR);
    await recordAccountHistory(trx, {
      principalId: row.id,
      userName: row.user_name,
      action: 'SignInMethodsReset',
      detail: resetDetail(removed),
      changedBy: COMMAND_LINE_ACTOR,
      at: now,
    });
    return { id: row.id, userName: row.user_name, ...removed };
  });
}

/** The account history's words for a reset. */
export function resetDetail(removed: { passkeys: number; recoveryCodes: number; devices: number }): string {
  return `${removed.passkeys} passkeys, ${removed.recoveryCodes} recovery codes and ${removed.devices} devices removed`;
}
