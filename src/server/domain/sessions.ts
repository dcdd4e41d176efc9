import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatTimestamp, type LoginCredentials, type LoginResult, type Session } from '../../shared/contract/index.ts';
import type { Database } from '../db/schema.ts';
import { addMinutes, type Clock, storedTime } from './clock.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { hashCostOf, hashPassword, verifyPassword } from './passwords.ts';
import { loadGrants, type Principal, userKeyOf } from './principals.ts';
import { ProblemError } from './problem-error.ts';

export interface SessionPolicy {
  idleMinutes: number;
  absoluteHours: number;
  passwordHashCost: number;
  /**
   * User keys that may never sign in nor keep a session, whatever the database holds: the demo accounts when demo
   * mode is off (their passwords are published).
   */
  refusedUserKeys?: ReadonlySet<string>;
}

export interface AuthenticatedSession {
  principal: Principal;
  tokenHash: string;
  expires: Date;
}

/** A session's last-seen time is written at most this often: a write per read would halve read throughput. */
const TOUCH_INTERVAL_MS = 15_000;

/**
 * Authenticated sessions are remembered this long (wall time), sparing two queries per request.
 * Sign-out in this process takes effect at once; in another process sharing PostgreSQL, within this time.
 */
const CACHE_TTL_MS = 2_000;
const CACHE_LIMIT = 10_000;

interface CachedSession {
  tokenHash: string;
  principal: Principal;
  lastSeen: Date;
  absolute: Date;
  cachedAt: number;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const invalidCredentials = () =>
  new ProblemError(401, 'invalid-credentials', 'Sign-in failed', 'The user name or password is incorrect.');

export class SessionService {
  /** A hash to verify against when the user does not exist, so both failures take the same time. */
  private readonly decoyHash: Promise<string>;
  /** Keyed by the token itself: a hit then costs no hashing. */
  private readonly cache = new Map<string, CachedSession>();
  /** Database checks under way, by token (see `authenticate`). */
  private readonly checking = new Map<string, Promise<AuthenticatedSession | null>>();

  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly policy: SessionPolicy;
  private readonly throttle: LoginThrottle;

  constructor(db: Kysely<Database>, clock: Clock, policy: SessionPolicy, throttle: LoginThrottle) {
    this.db = db;
    this.clock = clock;
    this.policy = policy;
    this.throttle = throttle;
    // Made at start, so the first sign-in of an unknown user takes no longer than any other.
    this.decoyHash = hashPassword(randomBytes(16).toString('hex'), policy.passwordHashCost);
    this.decoyHash.catch(() => undefined); // a failure surfaces at the sign-in that awaits it
  }

  async login(credentials: LoginCredentials, clientAddress: string): Promise<LoginResult> {
    const userKey = userKeyOf(credentials.UserName);
    let row: { id: number; user_name: string; password_hash: string; enabled: number } | undefined;
    const signedIn = await this.throttle.attempt(userKey, clientAddress, async () => {
      row = await this.db
        .selectFrom('principals')
        .select(['id', 'user_name', 'password_hash', 'enabled'])
        .where('user_key', '=', userKey)
        .executeTakeFirst();
      const matches = await verifyPassword(credentials.Password, row?.password_hash ?? (await this.decoyHash));
      return row !== undefined && matches && row.enabled === 1 && !this.refused(userKey);
    });
    if (!signedIn || !row) throw invalidCredentials();
    if (hashCostOf(row.password_hash) !== this.policy.passwordHashCost) {
      // A hash from an older cost setting answers sign-ins at its own speed, which tells that account apart:
      // the password is known right now, so the hash is brought to the current cost.
      await this.db
        .updateTable('principals')
        .set({ password_hash: await hashPassword(credentials.Password, this.policy.passwordHashCost) })
        .where('id', '=', row.id)
        .execute();
    }

    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const absolute = addMinutes(now, this.policy.absoluteHours * 60);
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        principal_id: row.id,
        created_at: formatTimestamp(now),
        last_seen_at: formatTimestamp(now),
        absolute_expires_at: formatTimestamp(absolute),
        revoked_at: null,
      })
      .execute();
    const principal = { id: row.id, userName: row.user_name, userKey, grants: await loadGrants(this.db, row.id) };
    return { Token: token, ...this.view({ principal, tokenHash: '', expires: this.expiry(now, absolute) }) };
  }

  /**
   * The session a bearer token names when memory alone can tell: the session, null when it has expired,
   * undefined when the database must be asked (not remembered, remembered too long ago, or due a last-seen write).
   */
  authenticateFromMemory(token: string): AuthenticatedSession | null | undefined {
    const cached = this.cache.get(token);
    if (!cached || performance.now() - cached.cachedAt >= CACHE_TTL_MS) return undefined;
    return this.check(token, cached);
  }

  /**
   * The session a bearer token names, or null when it is unknown, expired or revoked. Concurrent requests with one
   * token share one database check: under load, every request arriving while the cache entry is reloaded or its
   * last-seen time written would otherwise do the same queries and the same (durable) write again.
   */
  authenticate(token: string): Promise<AuthenticatedSession | null> {
    const inFlight = this.checking.get(token);
    if (inFlight) return inFlight;
    const check = this.authenticateNow(token).finally(() => this.checking.delete(token));
    this.checking.set(token, check);
    return check;
  }

  private async authenticateNow(token: string): Promise<AuthenticatedSession | null> {
    const cached = this.cache.get(token);
    const known = cached && performance.now() - cached.cachedAt < CACHE_TTL_MS ? cached : await this.load(token);
    if (!known) return null;
    const session = this.check(token, known);
    if (session !== undefined) return session;
    const { tokenHash } = known;
    const now = this.clock();
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: formatTimestamp(now) })
      .where('token_hash', '=', tokenHash)
      .execute();
    known.lastSeen = now;
    return this.sessionAt(known, now);
  }

  /** A known session now: itself, null when it has expired, undefined when its last-seen time is due a write. */
  private check(token: string, known: CachedSession): AuthenticatedSession | null | undefined {
    const now = this.clock();
    if (now >= this.expiry(known.lastSeen, known.absolute)) {
      this.cache.delete(token);
      return null;
    }
    if (now.getTime() - known.lastSeen.getTime() >= TOUCH_INTERVAL_MS) return undefined;
    return this.sessionAt(known, now);
  }

  private sessionAt(known: CachedSession, now: Date): AuthenticatedSession {
    return { principal: known.principal, tokenHash: known.tokenHash, expires: this.expiry(now, known.absolute) };
  }

  private async load(token: string): Promise<CachedSession | null> {
    this.cache.delete(token);
    const tokenHash = hashToken(token);
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('principals', 'principals.id', 'sessions.principal_id')
      .select([
        'sessions.principal_id',
        'sessions.last_seen_at',
        'sessions.absolute_expires_at',
        'sessions.revoked_at',
        'principals.user_name',
        'principals.user_key',
        'principals.enabled',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null || row.enabled !== 1 || this.refused(row.user_key)) return null;
    const session: CachedSession = {
      tokenHash,
      principal: {
        id: row.principal_id,
        userName: row.user_name,
        userKey: row.user_key,
        grants: await loadGrants(this.db, row.principal_id),
      },
      lastSeen: storedTime(row.last_seen_at),
      absolute: storedTime(row.absolute_expires_at),
      cachedAt: performance.now(),
    };
    // Maps iterate in insertion order, so the first key is the oldest entry.
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(token, session);
    return session;
  }

  async revoke(session: AuthenticatedSession): Promise<void> {
    // Sign-out is rare and the cache bounded: a scan finds the entry without keeping tokens anywhere else.
    for (const [token, cached] of this.cache) if (cached.tokenHash === session.tokenHash) this.cache.delete(token);
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: formatTimestamp(this.clock()) })
      .where('token_hash', '=', session.tokenHash)
      .execute();
  }

  /**
   * Deletes the rows of sessions that can never be used again: revoked, or past their idle or absolute deadline.
   * Nothing reads them (an unknown token is refused like an expired one), and a table that only grows would keep
   * every token hash ever issued.
   */
  async purgeEnded(): Promise<number> {
    const now = this.clock();
    const idleSince = formatTimestamp(addMinutes(now, -this.policy.idleMinutes));
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([
          eb('revoked_at', 'is not', null),
          eb('absolute_expires_at', '<=', formatTimestamp(now)),
          eb('last_seen_at', '<=', idleSince),
        ]),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  private refused(userKey: string): boolean {
    return this.policy.refusedUserKeys?.has(userKey) ?? false;
  }

  view(session: AuthenticatedSession): Session {
    return {
      TokenType: 'Bearer',
      ExpiresUtc: formatTimestamp(session.expires),
      UserName: session.principal.userName,
      Permissions: session.principal.grants,
    };
  }

  private expiry(lastSeen: Date, absolute: Date): Date {
    const idle = addMinutes(lastSeen, this.policy.idleMinutes);
    return idle < absolute ? idle : absolute;
  }
}
