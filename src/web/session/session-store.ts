import { z } from 'zod/mini';
import {
  type ApiVersion,
  type LoginResult,
  PermissionGrant,
  parseTimestamp,
  SUPPORTED_VERSIONS,
} from '../../shared/contract/index.ts';
import { createPersistentStore } from '../lib/persistent-store.ts';

/** What the dashboard keeps of a sign-in; sessionStorage so that it ends with the tab. */
export const StoredSession = z.object({
  token: z.string().check(z.minLength(1)),
  userName: z.string(),
  permissions: z.array(PermissionGrant),
  expiresUtc: z.string(),
  apiVersion: z.enum(SUPPORTED_VERSIONS),
});
export type StoredSession = z.infer<typeof StoredSession>;

export const sessionStore = createPersistentStore(
  () => globalThis.sessionStorage,
  'tachyon.session',
  z.nullable(StoredSession),
  null,
);

export function sessionFromLogin(result: LoginResult, apiVersion: ApiVersion): StoredSession {
  return {
    token: result.Token,
    userName: result.UserName,
    permissions: result.Permissions,
    expiresUtc: result.ExpiresUtc,
    apiVersion,
  };
}

export function isExpired(session: StoredSession, now: Date = new Date()): boolean {
  const expires = parseTimestamp(session.expiresUtc);
  return expires !== null && expires.getTime() <= now.getTime();
}

/** The signed-in session, or null when there is none or it has run out. */
export function currentSession(): StoredSession | null {
  const session = sessionStore.get();
  if (session && isExpired(session)) {
    sessionStore.set(null);
    return null;
  }
  return session;
}
