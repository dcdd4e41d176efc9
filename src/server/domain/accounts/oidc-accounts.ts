import type { Kysely } from 'kysely';
import { formatTimestamp, type Permission } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { recordAccountHistory } from './account-history.ts';
import type { PrincipalRow } from './directory-accounts.ts';
import { userKeyOf } from './principals.ts';

/** A person the identity provider signed in: their account name, address and the permissions their groups give. */
export interface OidcAccountFacts {
  userName: string;
  email: string | null;
  security: Permission[];
  accounts: Permission[];
}

/**
 * A single sign-on account as of this sign-in: created at the first one (`oidc`), its permissions and email re-read
 * from the ID token every time (someone removed from a group at the provider loses the permission at their next
 * sign-in). Changes are recorded. Nobody is created for a person in none of the groups. An account of another source with the name is answered unchanged: the provider
 * never speaks for it, and the caller refuses the sign-in (no takeover of a local or directory account).
 */
export async function saveOidcPrincipal(
  db: Kysely<Database>,
  person: OidcAccountFacts,
  now: Date,
): Promise<PrincipalRow | undefined> {
  const userKey = userKeyOf(person.userName);
  return writeTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('principals')
      .select(['id', 'user_name', 'password_hash', 'enabled', 'source', 'kind'])
      .where('user_key', '=', userKey)
      .executeTakeFirst();
    if (existing && existing.source !== 'oidc') return existing;
    // Someone in none of the groups gets no account; an existing one loses what the groups gave (below).
    const none = person.security.length === 0 && person.accounts.length === 0;
    if (!existing && none) return undefined;
    const row =
      existing ??
      (await trx
        .insertInto('principals')
        .values({
          user_name: person.userName,
          user_key: userKey,
          password_hash: '',
          enabled: 1,
          source: 'oidc',
          created_at: formatTimestamp(now),
          last_sign_in_at: null,
          email: person.email,
        })
        .returning(['id', 'user_name', 'password_hash', 'enabled', 'source', 'kind'])
        .executeTakeFirstOrThrow());
    // A disabled account stays as it is: the sign-in is refused, and nothing it says is taken.
    if (existing && existing.enabled !== 1) return existing;
    if (existing) await trx.updateTable('principals').set({ email: person.email }).where('id', '=', row.id).execute();
    const before = await trx
      .selectFrom('permission_grants')
      .select(['entity', 'permission'])
      .where('principal_id', '=', row.id)
      .execute();
    const text = (entity: string, list: readonly string[]) => `${entity}: ${[...list].sort().join('+') || 'none'}`;
    const was = ['Security', 'Accounts'].map((entity) =>
      text(
        entity,
        before.filter((grant) => grant.entity === entity).map((grant) => grant.permission),
      ),
    );
    const mapped = [text('Security', person.security), text('Accounts', person.accounts)];
    if (existing && was.join(', ') === mapped.join(', ')) return row;
    await trx.deleteFrom('permission_grants').where('principal_id', '=', row.id).execute();
    const grants = [
      ...person.security.map((permission) => ({ principal_id: row.id, entity: 'Security', permission })),
      ...person.accounts.map((permission) => ({ principal_id: row.id, entity: 'Accounts', permission })),
    ];
    if (grants.length > 0) await trx.insertInto('permission_grants').values(grants).execute();
    await recordAccountHistory(trx, {
      principalId: row.id,
      userName: row.user_name,
      action: existing ? 'PermissionsChanged' : 'Created',
      detail: `${mapped.join(', ')} (from single sign-on groups)`,
      changedBy: 'single sign-on',
      at: now,
    });
    return row;
  });
}
