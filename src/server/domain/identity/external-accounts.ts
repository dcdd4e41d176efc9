import type { Kysely } from 'kysely';
import { type AccountsPermission, formatTimestamp, type Permission } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { recordAccountHistory } from './account-history.ts';
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

/** Where people who sign in elsewhere come from: the directory (LDAP), or an identity provider (single sign-on). */
export type ExternalSource = 'directory' | 'oidc';

/** A person the directory or the provider vouched for: their account name, address, and what their groups give. */
export interface ExternalPerson {
  userName: string;
  email: string | null;
  /** The permissions of each entity this source decides (the others are left alone). */
  grants: { Security?: readonly Permission[]; Accounts?: readonly AccountsPermission[] };
}

const SOURCES: Record<ExternalSource, { changedBy: string; groups: string; createsWithoutGrants: boolean }> = {
  // A directory person in none of the groups still signs in (without permissions), as they always have.
  directory: { changedBy: 'directory', groups: 'directory groups', createsWithoutGrants: true },
  oidc: { changedBy: 'single sign-on', groups: 'single sign-on groups', createsWithoutGrants: false },
};

const ENTITIES = ['Security', 'Accounts'] as const;

/**
 * Permissions a directory or provider sign-in brings that the account does not hold yet: written only when that
 * sign-in completes (its session opens, after any second step), never at the password step or the callback, so an
 * abandoned sign-in leaves the account, and its other sessions, as they were.
 */
export interface PendingGrants {
  source: ExternalSource;
  grants: { Security?: Permission[]; Accounts?: AccountsPermission[] };
}

/** A saved account, with the permissions its sign-in brings when they wait for the sign-in to complete. */
export type SavedPrincipal = PrincipalRow & { pendingGrants?: PendingGrants };

/**
 * The account of a person the directory or the identity provider signed in, as of this sign-in: created at the first
 * one, its permissions and email re-read from the source every time (someone removed from a group loses the
 * permission at their next sign-in, at once). A permission gained waits in `pendingGrants` for the sign-in to complete
 * (`applyPendingGrants`). Changes are recorded in the account's history.
 *
 * Answered unchanged, for the caller to refuse: an account of another source with the name (the source never speaks
 * for a local account, nor for the other source's: no takeover of its grants), and a disabled account (nothing the
 * source says is taken). Undefined when single sign-on vouches for someone in none of its groups and no account
 * exists: nobody is created for them.
 */
export async function saveExternalPrincipal(
  db: Kysely<Database>,
  source: ExternalSource,
  person: ExternalPerson,
  now: Date,
  /** Single sign-on's (issuer, sub), kept on an account it creates. */
  subject?: { issuer: string; subject: string },
): Promise<SavedPrincipal | undefined> {
  const userKey = userKeyOf(person.userName);
  const decided = ENTITIES.filter((entity) => person.grants[entity] !== undefined);
  const listOf = (entity: (typeof ENTITIES)[number]) => [...(person.grants[entity] ?? [])].sort();
  return writeTransaction(db, async (trx) => {
    const existing = await trx
      .selectFrom('principals')
      .select(['id', 'user_name', 'password_hash', 'enabled', 'source', 'kind'])
      .where('user_key', '=', userKey)
      .executeTakeFirst();
    if (existing && existing.source !== source) return existing;
    if (existing && existing.enabled !== 1) return existing;
    const none = decided.every((entity) => listOf(entity).length === 0);
    if (!existing && none && !SOURCES[source].createsWithoutGrants) return undefined;
    const row =
      existing ??
      (await trx
        .insertInto('principals')
        .values({
          user_name: person.userName,
          user_key: userKey,
          password_hash: '',
          enabled: 1,
          source,
          created_at: formatTimestamp(now),
          last_sign_in_at: null,
          email: person.email,
          oidc_issuer: subject?.issuer ?? null,
          oidc_subject: subject?.subject ?? null,
        })
        .returning(['id', 'user_name', 'password_hash', 'enabled', 'source', 'kind'])
        .executeTakeFirstOrThrow());
    // The source owns the address, as it owns the groups.
    if (existing) await trx.updateTable('principals').set({ email: person.email }).where('id', '=', row.id).execute();
    if (decided.length === 0) return row;
    const grants = Object.fromEntries(decided.map((entity) => [entity, listOf(entity)])) as PendingGrants['grants'];
    const before = await trx
      .selectFrom('permission_grants')
      .select(['entity', 'permission'])
      .where('principal_id', '=', row.id)
      .where('entity', 'in', decided)
      .execute();
    const gains = decided.some((entity) =>
      listOf(entity).some((permission) => !before.some((g) => g.entity === entity && g.permission === permission)),
    );
    // A new account has no session yet; a loss is taken at once; a gain waits for the sign-in to complete.
    if (existing && gains) return { ...row, pendingGrants: { source, grants } };
    await writeGrants(trx, row, { source, grants }, existing ? 'PermissionsChanged' : 'Created', now);
    return row;
  });
}

/** Writes the permissions a completed sign-in brought (see PendingGrants), with the history's line. */
export function applyPendingGrants(
  db: Kysely<Database>,
  principal: { id: number; user_name: string },
  pending: PendingGrants,
  now: Date,
): Promise<void> {
  return writeTransaction(db, (trx) => writeGrants(trx, principal, pending, 'PermissionsChanged', now));
}

/** Replaces the decided entities' permissions when they differ, and says so in the account's history. */
async function writeGrants(
  trx: Kysely<Database>,
  row: { id: number; user_name: string },
  { source, grants }: PendingGrants,
  action: 'Created' | 'PermissionsChanged',
  now: Date,
): Promise<void> {
  const decided = ENTITIES.filter((entity) => grants[entity] !== undefined);
  const listOf = (entity: (typeof ENTITIES)[number]) => [...(grants[entity] ?? [])].sort();
  const before = await trx
    .selectFrom('permission_grants')
    .select(['entity', 'permission'])
    .where('principal_id', '=', row.id)
    .where('entity', 'in', decided)
    .execute();
  const text = (entity: string, list: readonly string[]) => `${entity}: ${[...list].sort().join('+') || 'none'}`;
  const was = decided.map((entity) =>
    text(
      entity,
      before.filter((grant) => grant.entity === entity).map((grant) => grant.permission),
    ),
  );
  const mapped = decided.map((entity) => text(entity, listOf(entity)));
  if (action === 'PermissionsChanged' && was.join(', ') === mapped.join(', ')) return;
  await trx.deleteFrom('permission_grants').where('principal_id', '=', row.id).where('entity', 'in', decided).execute();
  const rows = decided.flatMap((entity) =>
    listOf(entity).map((permission) => ({ principal_id: row.id, entity, permission })),
  );
  if (rows.length > 0) await trx.insertInto('permission_grants').values(rows).execute();
  await recordAccountHistory(trx, {
    principalId: row.id,
    userName: row.user_name,
    action,
    detail: `${mapped.join(', ')} (from ${SOURCES[source].groups})`,
    changedBy: SOURCES[source].changedBy,
    at: now,
  });
}
