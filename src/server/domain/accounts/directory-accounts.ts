import type { Kysely } from 'kysely';
import { formatTimestamp } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { recordAccountHistory } from './account-history.ts';
import type { DirectorySignIn } from './directory.ts';
import { userKeyOf } from './principals.ts';

/** A principal as a sign-in reads it: who, whether it may sign in, and where its password is judged. */
export type PrincipalRow = {
  id: number;
  user_name: string;
  password_hash: string;
  enabled: number;
  source: string;
  kind: string;
};

/**
 * A directory account as of this sign-in: created at the first one, its Security permissions re-read from its groups
 * every time (someone removed from a group loses the permission at their next sign-in). Changes are recorded.
 * A local account with the person's name is answered unchanged: the directory never speaks for it, and the caller
 * refuses the sign-in (otherwise the directory person would take its grants, and rewrite them).
 */
export async function saveDirectoryPrincipal(
  db: Kysely<Database>,
  person: DirectorySignIn,
  now: Date,
): Promise<PrincipalRow> {
  const userKey = userKeyOf(person.userName);
  return writeTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('principals')
      .select(['id', 'user_name', 'password_hash', 'enabled', 'source', 'kind'])
      .where('user_key', '=', userKey)
      .executeTakeFirst();
    if (existing && existing.source !== 'directory') return existing;
    const row =
      existing ??
      (await trx
        .insertInto('principals')
        .values({
          user_name: person.userName,
          user_key: userKey,
          password_hash: '',
          enabled: 1,
          source: 'directory',
          created_at: formatTimestamp(now),
          last_sign_in_at: null,
          email: person.email,
        })
        .returning(['id', 'user_name', 'password_hash', 'enabled', 'source', 'kind'])
        .executeTakeFirstOrThrow());
    const before = await trx
      .selectFrom('permission_grants')
      .select('permission')
      .where('principal_id', '=', row.id)
      .where('entity', '=', 'Security')
      .orderBy('permission')
      .execute();
    // The directory owns the address, as it owns the groups: re-read at every sign-in.
    if (existing) await trx.updateTable('principals').set({ email: person.email }).where('id', '=', row.id).execute();
    const was = before.map((grant) => grant.permission).join('+');
    const mapped = person.security.join('+');
    if (existing && was === mapped) return row;
    await trx
      .deleteFrom('permission_grants')
      .where('principal_id', '=', row.id)
      .where('entity', '=', 'Security')
      .execute();
    if (person.security.length > 0) {
      await trx
        .insertInto('permission_grants')
        .values(person.security.map((permission) => ({ principal_id: row.id, entity: 'Security', permission })))
        .execute();
    }
    await recordAccountHistory(trx, {
      principalId: row.id,
      userName: row.user_name,
      action: existing ? 'PermissionsChanged' : 'Created',
      detail: `Security: ${mapped || 'none'} (from directory groups)`,
      changedBy: 'directory',
      at: now,
    });
    return row;
  });
}
