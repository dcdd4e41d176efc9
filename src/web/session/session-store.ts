import { z } from 'zod/mini';
import {
  parseTimestamp,
  SESSION_ABSOLUTE_EXPIRES_HEADER,
  SESSION_IDLE_EXPIRES_HEADER,
  SESSION_IDLE_TIMEOUT_HEADER,
} from '../../shared/contract/index.ts';
import { SESSION_STORAGE_KEY, StoredSession } from '../../shared/stored-session.ts';
import { createPersistentStore } from '../lib/stores/persistent-store.ts';

export { type StoredSession, sessionFromLogin } from '../../shared/stored-session.ts';

export const sessionStore = createPersistentStore(
  () => globalThis.sessionStorage,
  SESSION_STORAGE_KEY,
  z.nullable(StoredSession),
  null,
);

/** When the session ends unless the person acts: the sooner deadline the server last told, or the sign-in's. */
export function deadlineOf(session: StoredSession): Date | null {
  const told = [session.idleExpires, session.absoluteExpires]
    .map((value) => (value ? Date.parse(value) : Number.NaN))
    .filter((time) => !Number.isNaN(time));
  if (told.length > 0) return new Date(Math.min(...told));
  return parseTimestamp(session.expiresUtc);
}

export function isExpired(session: StoredSession, now: Date = new Date()): boolean {
  const expires = deadlineOf(session);
  return expires !== null && expires.getTime() <= now.getTime();
}

/** Keeps the stored deadlines current from an authenticated answer's headers (servers without them: no change). */
export function updateDeadlines(headers: Headers): void {
  const session = sessionStore.get();
  const idleExpires = headers.get(SESSION_IDLE_EXPIRES_HEADER);
  const absoluteExpires = headers.get(SESSION_ABSOLUTE_EXPIRES_HEADER);
  const idleSeconds = Number(headers.get(SESSION_IDLE_TIMEOUT_HEADER));
  if (!session || !idleExpires || Number.isNaN(Date.parse(idleExpires))) return;
  const next: StoredSession = {
    ...session,
    idleExpires,
    ...(absoluteExpires && !Number.isNaN(Date.parse(absoluteExpires)) ? { absoluteExpires } : {}),
    ...(Number.isFinite(idleSeconds) && idleSeconds > 0 ? { idleSeconds } : {}),
  };
  if (
    next.idleExpires !== session.idleExpires ||
    next.absoluteExpires !== session.absoluteExpires ||
    next.idleSeconds !== session.idleSeconds
  )
    sessionStore.set(next);
}

/** The session as a page renders it: without its deadlines, which every authenticated answer moves. */
export type SessionIdentity = Omit<StoredSession, 'idleExpires' | 'absoluteExpires' | 'idleSeconds'>;

let identityOf: { session: StoredSession | null; identity: SessionIdentity | null; key: string } = {
  session: null,
  identity: null,
  key: 'null',
};

/**
 * The stored session without its deadlines, the same object until something else in it changes: a new deadline (each
 * answer brings one) re-renders only what shows the deadline, not every page and menu that reads the session.
 */
export function sessionIdentity(): SessionIdentity | null {
  const session = sessionStore.get();
  if (session === identityOf.session) return identityOf.identity;
  let identity: SessionIdentity | null = null;
  if (session) {
    const { idleExpires: _idle, absoluteExpires: _absolute, idleSeconds: _length, ...rest } = session;
    identity = rest;
  }
  const key = JSON.stringify(identity);
  identityOf = { session, identity: key === identityOf.key ? identityOf.identity : identity, key };
  return identityOf.identity;
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
