import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  formatTimestamp,
  type LoginCredentials,
  type LoginResult,
  type Session,
} from '../../../shared/contract/index.ts';
import type { AuditLog } from '../../audit/audit-log.ts';
import { reasonOf } from '../../audit/request-audit.ts';
import type { Database } from '../../db/schema.ts';
import { loadGrants, type Principal, userKeyOf } from '../accounts/principals.ts';
import { addMinutes, type Clock, storedTime } from '../core/clock.ts';
import type { LoginThrottle } from './login-throttle.ts';
import { refusedByPolicy, type SignInContext, type SignInPolicy, SignInService } from './sign-in.ts';

export interface SessionPolicy extends SignInPolicy {
  idleMinutes: number;
  absoluteHours: number;
  /** The audit stream: sign-ins, and sessions ending at their deadlines. */
  audit?: AuditLog;
}

export interface AuthenticatedSession {
  principal: Principal;
  tokenHash: string;
  /** The bearer token (empty for the answer to a sign-in): the live stream re-checks its session with it. */
  token: string;
  /** The sooner of the two deadlines below. */
  expires: Date;
  idleExpires: Date;
  absoluteExpires: Date;
}

/** Whether a request comes from the person (extends the idle deadline) or from background traffic (does not). */
export type RequestActivity = 'person' | 'background';

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
  /** The session as last answered: it changes only with the last-seen time, so requests in between share it. */
  answered?: { lastSeen: Date; session: AuthenticatedSession };
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Sessions: opened by a sign-in (judged by the sign-in service), found by their bearer token (remembered briefly in
 * memory), kept alive by the person's activity, ended by their deadlines or by sign-out, and purged once ended.
 */
export class SessionService {
  /** Keyed by the token itself: a hit then costs no hashing. */
  private readonly cache = new Map<string, CachedSession>();
  /** Database checks under way, by token (see `authenticate`). */
  private readonly checking = new Map<string, Promise<AuthenticatedSession | null>>();

  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly policy: SessionPolicy;
  private readonly signIn: SignInService;

  constructor(db: Kysely<Database>, clock: Clock, policy: SessionPolicy, throttle: LoginThrottle) {
    this.db = db;
    this.clock = clock;
    this.policy = policy;
    this.signIn = new SignInService(db, clock, policy, throttle);
  }

  /** Signs in (the endpoint and HTTP Basic alike), and puts the attempt in the audit stream: failures with their reason. */
  async login(credentials: LoginCredentials, context: SignInContext | string): Promise<LoginResult> {
    const where = typeof context === 'string' ? { clientAddress: context, consumer: null } : context;
    const event = {
      action: 'sign-in',
      userName: credentials.UserName,
      sourceIp: where.clientAddress,
      userAgent: where.userAgent ?? null,
    } as const;
    let row: Awaited<ReturnType<SignInService['login']>>;
    try {
      row = await this.signIn.login(credentials, where);
    } catch (error) {
      this.policy.audit?.record({ ...event, outcome: 'failure', reason: reasonOf(error) });
      throw error;
    }
    const result = await this.open(row);
    this.policy.audit?.record({ ...event, outcome: 'success' });
    return result;
  }

  /**
   * Opens a session for a principal whose sign-in succeeded (a password judged here, or single sign-on), and
   * answers it as a sign-in does. `oidcIdToken`: the provider's ID token, kept for signing out there.
   */
  async open(row: { id: number; user_name: string }, options: { oidcIdToken?: string } = {}): Promise<LoginResult> {
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
        oidc_id_token: options.oidcIdToken ?? null,
      })
      .execute();
    const principal = {
      id: row.id,
      userName: row.user_name,
      userKey: userKeyOf(row.user_name),
      grants: await loadGrants(this.db, row.id),
    };
    const idle = addMinutes(now, this.policy.idleMinutes);
    return {
      Token: token,
      ...this.view({
        principal,
        tokenHash: '',
        token: '',
        expires: idle < absolute ? idle : absolute,
        idleExpires: idle,
        absoluteExpires: absolute,
      }),
      Successful: true,
    };
  }

  /** The configured idle length in seconds (told to clients, which warn before it runs out). */
  get idleSeconds(): number {
    return this.policy.idleMinutes * 60;
  }

  /**
   * Forgets the remembered sessions of an account: after its sessions were revoked, it was disabled or its
   * permissions changed, the next request reads the database again.
   */
  forgetPrincipal(principalId: number): void {
    for (const [token, cached] of this.cache) if (cached.principal.id === principalId) this.cache.delete(token);
  }

  /**
   * The session a bearer token names when memory alone can tell: the session, null when it has expired,
   * undefined when the database must be asked (not remembered, remembered too long ago, or due a last-seen write).
   */
  authenticateFromMemory(token: string, activity: RequestActivity = 'person'): AuthenticatedSession | null | undefined {
    const cached = this.cache.get(token);
    if (!cached || performance.now() - cached.cachedAt >= CACHE_TTL_MS) return undefined;
    return this.check(token, cached, activity);
  }

  /**
   * The session a bearer token names, or null when it is unknown, expired or revoked. Concurrent requests with one
   * token (and the same kind of activity) share one database check: under load, every request arriving while the
   * cache entry is reloaded or its last-seen time written would otherwise do the same queries and the same (durable)
   * write again. A person's request never rides on a background check, which would not extend the idle deadline.
   */
  authenticate(token: string, activity: RequestActivity = 'person'): Promise<AuthenticatedSession | null> {
    const key = `${activity}:${token}`;
    const inFlight = this.checking.get(key);
    if (inFlight) return inFlight;
    const check = this.authenticateNow(token, activity).finally(() => this.checking.delete(key));
    this.checking.set(key, check);
    return check;
  }

  private async authenticateNow(token: string, activity: RequestActivity): Promise<AuthenticatedSession | null> {
    const cached = this.cache.get(token);
    const known = cached && performance.now() - cached.cachedAt < CACHE_TTL_MS ? cached : await this.load(token);
    if (!known) return null;
    const session = this.check(token, known, activity);
    if (session !== undefined) return session;
    const { tokenHash } = known;
    const now = this.clock();
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: formatTimestamp(now) })
      .where('token_hash', '=', tokenHash)
      .execute();
    known.lastSeen = now;
    return this.sessionAt(token, known);
  }

  /**
   * A known session now: itself, null when it has expired, undefined when the person's activity makes its
   * last-seen time due a write. Background traffic never moves the last-seen time, so an unattended page that
   * polls still reaches its idle deadline.
   */
  private check(
    token: string,
    known: CachedSession,
    activity: RequestActivity,
  ): AuthenticatedSession | null | undefined {
    const now = this.clock();
    const session = this.sessionAt(token, known);
    if (now >= session.expires) {
      this.cache.delete(token);
      this.endAtDeadline(known, session);
      return null;
    }
    const touchEvery = Math.min(TOUCH_INTERVAL_MS, (this.policy.idleMinutes * 60_000) / 10);
    if (activity === 'person' && now.getTime() - known.lastSeen.getTime() >= touchEvery) return undefined;
    return session;
  }

  /** The deadlines the server enforces: from the last-seen time as stored, so what clients are told is never late. */
  private sessionAt(token: string, known: CachedSession): AuthenticatedSession {
    if (known.answered?.lastSeen === known.lastSeen) return known.answered.session;
    const idle = addMinutes(known.lastSeen, this.policy.idleMinutes);
    const session = {
      principal: known.principal,
      tokenHash: known.tokenHash,
      token,
      expires: this.expiry(known.lastSeen, known.absolute),
      idleExpires: idle,
      absoluteExpires: known.absolute,
    };
    known.answered = { lastSeen: known.lastSeen, session };
    return session;
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
    if (!row || row.revoked_at !== null || row.enabled !== 1 || refusedByPolicy(this.policy, row.user_key)) return null;
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

  /**
   * A session presented past its deadline ends for good (marked revoked, so it is told once), and the audit stream
   * hears of it. Runs beside the refusal: the caller is answered 401 without waiting for it.
   */
  private endAtDeadline(known: CachedSession, session: AuthenticatedSession): void {
    if (!this.policy.audit) return;
    const audit = this.policy.audit;
    const reason = session.expires < session.absoluteExpires ? 'idle-timeout' : 'absolute-timeout';
    this.db
      .updateTable('sessions')
      .set({ revoked_at: formatTimestamp(session.expires) })
      .where('token_hash', '=', known.tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
      .then((result) => {
        if (Number(result.numUpdatedRows) === 0) return;
        audit.record({
          action: 'session-ended',
          outcome: 'success',
          userName: known.principal.userName,
          entity: { type: 'Account', id: known.principal.id },
          details: { cause: reason, endedAt: session.expires.toISOString() },
        });
      })
      .catch(() => undefined);
  }

  /** The provider's ID token of a session single sign-on opened (its sign-out's id_token_hint), or null. */
  async oidcIdTokenOf(session: AuthenticatedSession): Promise<string | null> {
    const row = await this.db
      .selectFrom('sessions')
      .select('oidc_id_token')
      .where('token_hash', '=', session.tokenHash)
      .executeTakeFirst();
    return row?.oidc_id_token ?? null;
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
    if (this.policy.audit) await this.auditDeadlinesPassed(now, idleSince, this.policy.audit);
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

  /** Sessions that reached a deadline without being presented again end in the audit stream as they are deleted. */
  private async auditDeadlinesPassed(now: Date, idleSince: string, audit: AuditLog): Promise<void> {
    const rows = await this.db
      .selectFrom('sessions')
      .innerJoin('principals', 'principals.id', 'sessions.principal_id')
      .select(['sessions.principal_id', 'sessions.absolute_expires_at', 'principals.user_name'])
      .where('sessions.revoked_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('sessions.absolute_expires_at', '<=', formatTimestamp(now)),
          eb('sessions.last_seen_at', '<=', idleSince),
        ]),
      )
      .execute();
    for (const row of rows) {
      audit.record({
        action: 'session-ended',
        outcome: 'success',
        userName: row.user_name,
        entity: { type: 'Account', id: row.principal_id },
        details: { cause: storedTime(row.absolute_expires_at) <= now ? 'absolute-timeout' : 'idle-timeout' },
      });
    }
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
