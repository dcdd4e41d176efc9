import { z } from 'zod/mini';
import { deferred } from './deferred.ts';

// SPEC §3 "Authentication and sessions"
export const SECURITY_ENTITY = 'Security';
export const Permission = deferred(() => z.enum(['Read', 'Write']));
export type Permission = z.infer<typeof Permission>;
/**
 * On Accounts only, beside Read and Write: Contain, the helpdesk's containment of a person who holds no Accounts
 * permission (sign out everywhere, disable, disable devices, reset sign-in methods, enrol a device, a temporary
 * code), never an administrator's account and never a permission.
 */
export const CONTAIN = 'Contain';
export const AccountsPermission = deferred(() => z.enum(['Read', 'Write', CONTAIN]));
export type AccountsPermission = z.infer<typeof AccountsPermission>;
export const PermissionGrant = deferred(() => z.object({ Entity: z.string(), Permissions: z.array(z.string()) }));
export type PermissionGrant = z.infer<typeof PermissionGrant>;
