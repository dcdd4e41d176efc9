import { z } from 'zod/mini';
import { type ApiVersion, type LoginResult, PermissionGrant, SUPPORTED_VERSIONS } from './contract/index.ts';

/**
 * Where the dashboard keeps a sign-in in the tab's sessionStorage, and its shape. Here rather than in src/web because
 * the browser tests and the benchmarks sign a page in the way the sign-in page does (outside src/shared/contract, so
 * the sign-in page does not pull in the endpoint catalogue's chunk with it).
 */
export const SESSION_STORAGE_KEY = 'tachyon.session';

/** Where the dashboard keeps its settings (server address, API version, consumer name, theme) in localStorage. */
export const SETTINGS_STORAGE_KEY = 'tachyon.settings';

/** What the dashboard keeps of a sign-in; sessionStorage so that it ends with the tab. */
export const StoredSession = z.object({
  token: z.string().check(z.minLength(1)),
  userName: z.string(),
  permissions: z.array(PermissionGrant),
  expiresUtc: z.string(),
  apiVersion: z.enum(SUPPORTED_VERSIONS),
  /** The current deadlines as the server last told them (ISO 8601; docs/operations.md "Sessions"), when it does. */
  idleExpires: z.optional(z.string()),
  absoluteExpires: z.optional(z.string()),
  /** The configured idle length in seconds. */
  idleSeconds: z.optional(z.number()),
  /** The session may only add a second factor (the policy asks one of this person, who has none yet). */
  enrolmentRequired: z.optional(z.boolean()),
  /** Opened by single sign-on: signing out also ends the session at the identity provider. */
  singleSignOn: z.optional(z.boolean()),
});
export type StoredSession = z.infer<typeof StoredSession>;

/** A sign-in's answer as the dashboard stores it. */
export function sessionFromLogin(result: LoginResult, apiVersion: ApiVersion): StoredSession {
  return {
    token: result.Token,
    userName: result.UserName,
    permissions: result.Permissions,
    expiresUtc: result.ExpiresUtc,
    apiVersion,
    ...(result.EnrolmentRequired ? { enrolmentRequired: true } : {}),
  };
}
