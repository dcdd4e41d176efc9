import {
  type Endpoint,
  type Permission,
  permissionAccess,
  SECURITY_ENTITY,
  unavailableReason,
} from '../../shared/contract/index.ts';
import type { SessionIdentity } from './session-store.ts';

export function hasPermission(
  session: SessionIdentity | null,
  permission: Permission,
  entity = SECURITY_ENTITY,
): boolean {
  return (
    session?.permissions.some(
      (grant) => grant.Entity.toLowerCase() === entity.toLowerCase() && grant.Permissions.includes(permission),
    ) ?? false
  );
}

export function missingPermissionText(permission: Permission, entity = SECURITY_ENTITY): string {
  return `Requires ${permission} on ${entity}`;
}

export type EndpointAccess =
  | { allowed: true }
  | { allowed: false; reason: 'unavailable'; message: string }
  | { allowed: false; reason: 'forbidden'; message: string; permission: Permission }
  | { allowed: false; reason: 'anonymous'; message: string };

/** Whether this person may call an endpoint in their selected version, and if not, why in words. */
export function endpointAccess(session: SessionIdentity | null, endpoint: Endpoint): EndpointAccess {
  if (session === null) {
    return endpoint.access.kind === 'anonymous'
      ? { allowed: true }
      : { allowed: false, reason: 'anonymous', message: 'Sign in first' };
  }
  const unavailable = unavailableReason(endpoint, session.apiVersion);
  if (unavailable) return { allowed: false, reason: 'unavailable', message: unavailable };
  if (endpoint.access.kind === 'permission' && permissionAccess(session.permissions, endpoint.access) === 'refused') {
    return {
      allowed: false,
      reason: 'forbidden',
      permission: endpoint.access.permission,
      message: missingPermissionText(endpoint.access.permission, endpoint.access.entity),
    };
  }
  return { allowed: true };
}
