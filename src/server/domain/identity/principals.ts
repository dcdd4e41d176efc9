import type { Kysely } from 'kysely';
import {
  type AccountKind,
  type AccountsPermission,
  formatTimestamp,
  type Permission,
  type PermissionGrant,
} from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { writeTransaction } from '../../db/write-transaction.ts';
import { hashPassword } from './passwords.ts';

export interface Principal {
  id: number;
  userName: string;
  userKey: string;
  grants: PermissionGrant[];
  /** A person, or an API account (scripts and the SDK): what the second factor and the dashboard ask of it differ. */
  kind: AccountKind;
}

/** The account kind as the contract names it, from the principals table's column. */
export const accountKindOf = (stored: string): AccountKind => (stored === 'api' ? 'Api' : 'Person');

/** Windows account names compare case-insensitively. */
export const userKeyOf = (userName: string) => userName.trim().toLowerCase();

export function hasPermission(principal: Principal, entity: string, permission: Permission): boolean {
  return principal.grants.some((grant) => grant.Entity === entity && grant.Permissions.includes(permission));
}

export async function loadGrants(db: Kysely<Database>, principalId: number): Promise<PermissionGrant[]> {
  const rows = await db
    .selectFrom('permission_grants')
    .select(['entity', 'permission'])
    .where('principal_id', '=', principalId)
    .orderBy('entity')
    .orderBy('permission')
    .execute();
  const byEntity = new Map<string, string[]>();
  for (const row of rows) byEntity.set(row.entity, [...(byEntity.get(row.entity) ?? []), row.permission]);
  return [...byEntity].map(([Entity, Permissions]) => ({ Entity, Permissions }));
}

export interface PrincipalSpec {
  userName: string;
  password: string;
  grants: ReadonlyArray<{ entity: string; permission: AccountsPermission }>;
  /** An existing principal keeps its enabled state instead of being enabled (what an administrator set stands). */
  keepEnabled?: boolean;
  /** When it is made, if it is: its account says so (Created) as any other account does. */
  now: Date;
}

/** Creates the principal (enabled), or resets its password and grants to the spec when it exists. */
export async function upsertPrincipal(db: Kysely<Database>, spec: PrincipalSpec, hashCost: number): Promise<void> {
  const passwordHash = await hashPassword(spec.password, hashCost);
  await writeTransaction(db, async (trx) => {
    const userKey = userKeyOf(spec.userName);
    const existing = await trx.selectFrom('principals').select('id').where('user_key', '=', userKey).executeTakeFirst();
    const id =
      existing?.id ??
      (
        await trx
          .insertInto('principals')
          .values({
            user_name: spec.userName,
            user_key: userKey,
            password_hash: passwordHash,
            enabled: 1,
            created_at: formatTimestamp(spec.now),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    if (existing) {
      await trx
        .updateTable('principals')
        // The accounts named here (the break-glass admin, the demo's) are people's, whatever the name held before.
        .set({ password_hash: passwordHash, kind: 'person', ...(spec.keepEnabled ? {} : { enabled: 1 }) })
        .where('id', '=', id)
        .execute();
    }
    await trx.deleteFrom('permission_grants').where('principal_id', '=', id).execute();
    if (spec.grants.length > 0) {
      await trx
        .insertInto('permission_grants')
        .values(spec.grants.map((grant) => ({ principal_id: id, entity: grant.entity, permission: grant.permission })))
        .execute();
    }
  });
}
