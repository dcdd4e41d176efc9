import { z } from 'zod/mini';

// SPEC §3 "Authentication and sessions"
export const SECURITY_ENTITY = 'Security';
export const Permission = z.enum(['Read', 'Write']);
export type Permission = z.infer<typeof Permission>;
export const PermissionGrant = z.object({ Entity: z.string(), Permissions: z.array(z.string()) });
export type PermissionGrant = z.infer<typeof PermissionGrant>;
