import type { Account, AccountPermissions, GrantEntity, Permission } from '../../../shared/contract/index.ts';
import { endpoints } from '../../../shared/contract/index.ts';
import { endpointAccess } from '../../session/permissions.ts';
import type { StoredSession } from '../../session/session-store.ts';

/** Why a permission toggle of this account cannot be changed by this person, or null when it can. */
export function permissionToggleBlock(
  session: StoredSession | null,
  account: Account,
  entity: GrantEntity,
  permission: Permission,
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

export function toggled(
  permissions: AccountPermissions,
  entity: GrantEntity,
  permission: Permission,
): AccountPermissions {
  const current = permissions[entity];
  const next = current.includes(permission) ? current.filter((item) => item !== permission) : [...current, permission];
  return { ...permissions, [entity]: next };
}
