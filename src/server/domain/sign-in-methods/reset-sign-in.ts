import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { recordAccountHistory } from '../accounts/account-history.ts';
import { revokeSessionsOf } from '../accounts/accounts.ts';
import { userKeyOf } from '../accounts/principals.ts';

/** What a reset took away from an account. */
export interface SignInRemoved {
  passkeys: number;
  recoveryCodes: number;
  sessions: number;
}

/**
 * What resetting an account's sign-in is, wherever it is asked for (an administrator in the dashboard, the operator's
 * `npm run reset-sign-in`): its passkeys, recovery codes and pending second steps go, and its sessions end. Its
 * password stays: the person signs in with it and is asked to add a second factor again.
 */
export async function removeSignInMethods(
  trx: Kysely<Database>,
  principalId: number,
  now: Date,
): Promise<SignInRemoved> {
  const passkeys = await trx.deleteFrom('passkeys').where('principal_id', '=', principalId).executeTakeFirst();
  const codes = await trx.deleteFrom('recovery_codes').where('principal_id', '=', principalId).executeTakeFirst();
  await trx.deleteFrom('sign_in_tickets').where('principal_id', '=', principalId).execute();
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
    sessions: Number(open.n),
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
): Promise<({ id: number; userName: string } & SignInRemoved) | null> {
  return writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('principals')
      .select(['id', 'user_name'])
      .where('user_key', '=', userKeyOf(userName))
      .executeTakeFirst();
    if (!row) return null;
    const removed = await removeSignInMethods(trx, row.id, now);
    await recordAccountHistory(trx, {
      principalId: row.id,
      userName: row.user_name,
      action: 'SignInMethodsReset',
      changedBy: COMMAND_LINE_ACTOR,
      at: now,
    });
    return { id: row.id, userName: row.user_name, ...removed };
  });
}
