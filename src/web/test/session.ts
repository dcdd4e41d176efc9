import { formatTimestamp, type Permission } from '../../shared/contract/index.ts';
import { type StoredSession, sessionStore } from '../session/session-store.ts';

/** A signed-in session as sign-in stores it: an administrator (Security Read and Write) on API 3.3 for an hour. */
export function testSession(overrides: Partial<StoredSession> = {}): StoredSession {
  return {
    token: 'tok',
    userName: 'DEMO\\admin',
    permissions: [{ Entity: 'Security', Permissions: ['Read', 'Write'] }],
    expiresUtc: formatTimestamp(new Date(Date.now() + 3600_000)),
    apiVersion: '3.3',
    ...overrides,
  };
}

/** Signs the dashboard in (no server involved): with these Security permissions, or as `testSession` says. */
export function signInAs(security: readonly Permission[] = ['Read', 'Write'], overrides: Partial<StoredSession> = {}) {
  const session = testSession({ permissions: [{ Entity: 'Security', Permissions: [...security] }], ...overrides });
  sessionStore.set(session);
  return session;
}
