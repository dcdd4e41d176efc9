import type { Account, AccountPermissions, AccountsPermission, GrantEntity } from '../../../shared/contract/index.ts';
import { endpoints } from '../../../shared/contract/index.ts';
import { endpointAccess } from '../../session/permissions.ts';
import type { SessionIdentity } from '../../session/session-store.ts';

/** Why a permission toggle of this account cannot be changed by this person, or null when it can. */
export function permissionToggleBlock(
  session: SessionIdentity | null,
  account: Account,
  entity: GrantEntity,
  permission: AccountsPermission,
): string | null {
  const access = endpointAccess(session, endpoints.updateAccountPermissions);
  if (!access.allowed) return access.message;
  if (!account.PermissionsEditable) return 'Set by directory groups: change the membership in the directory';
  if (entity === 'Accounts' && account.Kind === 'Api') return 'An API account can never hold Accounts permissions';
  if (
    entity === 'Accounts' &&
    permission === 'Write' &&
    session?.userName.toLowerCase() === account.UserName.toLowerCase()
  ) {
    return 'You cannot remove your own Accounts Write permission';
  }
  return null;
}

/** Whether the permissions hold this grant (the checkbox's state, the card's line). */
export const holds = (permissions: AccountPermissions, entity: GrantEntity, permission: AccountsPermission): boolean =>
  (permissions[entity] as readonly AccountsPermission[]).includes(permission);

/** The permissions with one toggled (Contain exists on Accounts only, and GRANTS offers it nowhere else). */
export function toggled(
  permissions: AccountPermissions,
  entity: GrantEntity,
  permission: AccountsPermission,
): AccountPermissions {
  const current: readonly AccountsPermission[] = permissions[entity];
  const next = current.includes(permission) ? current.filter((item) => item !== permission) : [...current, permission];
  return { ...permissions, [entity]: next } as AccountPermissions;
}

/** Every grant an account can hold, in the order the Accounts page and the create dialog show them. */
export const GRANTS: ReadonlyArray<readonly [GrantEntity, AccountsPermission, string]> = [
  ['Security', 'Read', 'See authorization requests and push users'],
  ['Security', 'Write', 'Decide requests, change push users'],
  ['Accounts', 'Read', 'See accounts and their activity'],
  ['Accounts', 'Write', 'Create and change accounts, grant permissions'],
  [
    'Accounts',
    'Contain',
    'Helpdesk: sign out, disable, reset and give temporary codes to people who hold no Accounts permission',
  ],
];
