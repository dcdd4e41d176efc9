import type { Kysely } from 'kysely';
import { type Access, holdsAccountsPermission, permissionAccess } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { loadGrants, type Principal } from '../identity/principals.ts';

/**
 * The helpdesk's reach: a caller who passed an endpoint's rule by Contain (not by the permission itself) acts only on
 * people who hold no Accounts permission, so containment can never disable, sign out or hand a code to an
 * administrator, nor to another helpdesk person. Answers whether the caller acted by containment (for the audit
 * stream), or throws the 403 that says why not.
 */
export async function requireWithinReach(
  db: Kysely<Database>,
  caller: Principal,
  access: Access,
  principalId: number,
): Promise<boolean> {
  if (!byContainment(caller, access)) return false;
  const target = await db.selectFrom('principals').select('user_name').where('id', '=', principalId).executeTakeFirst();
  // An unknown account is the domain's 404 to give.
  if (target && holdsAccountsPermission(await loadGrants(db, principalId))) throw outOfReach(target.user_name);
  return true;
}

/** Whether the caller passes the endpoint's rule only by Contain (what the audit stream records of each use). */
export const byContainment = (caller: Principal, access: Access) =>
  permissionAccess(caller.grants, access) === 'containment';

export const outOfReach = (userName: string) =>
  new ProblemError(
    403,
    'forbidden',
    'Out of the helpdesk’s reach',
    `${userName} holds Accounts permissions: only someone with Write on Accounts can act on their account.`,
    { extensions: { entity: 'Accounts', permission: 'Write' } },
  );
