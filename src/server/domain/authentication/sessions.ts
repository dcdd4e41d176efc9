import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  type Endpoint,
  formatTimestamp,
  type LoginCredentials,
  type LoginResult,
  type SecondFactorPolicy,
  type Session,
} from '../../../shared/contract/index.ts';
import type { AuditLog } from '../../audit/audit-log.ts';
import { reasonOf } from '../../audit/request-audit.ts';
import type { Database } from '../../db/schema.ts';
import { addMinutes, type Clock, storedTime } from '../../lib/clock.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { recordAccountHistoryFrom, type SignInContext } from '../identity/account-history.ts';
import { applyPendingGrants, type PendingGrants } from '../identity/external-accounts.ts';
import { accountKindOf, loadGrants, type Principal, userKeyOf } from '../identity/principals.ts';
import { holdsValidTemporaryCode } from '../two-factor/temporary-codes.ts';
import {
  enrolmentOnly,
  lastProofAt,
  PROOF_OF_METHOD,
  PROOFS,
  type ProofKind,
  proofKindOf,
  type SessionProof,
  stepUpFresh,
} from './assurance.ts';
import type { FirstFactor } from './first-factor.ts';
import { purgeChallenges } from './passkeys/challenges.ts';
import { availableMethods, secondFactorRequired } from './second-factor-policy.ts';
import { refusedByPolicy, type SignInPolicy, SignInService } from './sign-in.ts';
import { issueTicket, purgeTickets } from './sign-in-tickets.ts';
import type { LoginThrottle } from './throttle/login-throttle.ts';

export interface SessionPolicy extends SignInPolicy {
  idleMinutes: number;
  absoluteHours: number;
  /** The audit stream: sign-ins, and sessions ending at their deadlines. */
  audit?: AuditLog;
  /** SECOND_FACTOR; off when absent. */
  secondFactor?: SecondFactorPolicy;
  /** STEP_UP_MINUTES. */
  stepUpMinutes?: number;
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
  /** When a second factor was last verified in this session (its second step or a step-up); null for never. */
  secondFactorAt: Date | null;
  /** How the session was proved and when (assurance.ts judges it). */
  proof: SessionProof;
  /**
   * Whether the session may only add (or prove) a second factor: the policy asks one of its account now, and the
   * session never proved one. Judged against the account's permissions as of this request.
   */
  enrolmentOnly: boolean;
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
  proof: SessionProof;
  cachedAt: number;
  /** The session as last answered: it changes only with the last-seen time, so requests in between share it. */
  answered?: { lastSeen: Date; session: AuthenticatedSession };
}

/** A principal as it will be once these pending permissions are written: their entities replaced, the rest kept. */
function withGrants(principal: Principal, pending: PendingGrants): Principal {
  const decided = Object.keys(pending.grants);
  const replaced = Object.entries(pending.grants)
    .filter(([, permissions]) => permissions.length > 0)
    .map(([entity, permissions]) => ({ Entity: entity, Permissions: permissions }));
  return {
    ...principal,
    grants: [
      ...principal.grants.filter((grant) => !decided.includes(grant.Entity)),
      ...replaced,
    ] as Principal['grants'],
  };
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
  private readonly throttle: LoginThrottle;

  constructor(db: Kysely<Database>, clock: Clock, policy: SessionPolicy, throttle: LoginThrottle) {
    this.db = db;
    this.clock = clock;
    this.policy = policy;
    this.throttle = throttle;
    this.signIn = new SignInService(db, clock, policy, throttle);
  }

  /** Signs in (the endpoint and HTTP Basic alike), and puts the attempt in the audit stream: failures with their reason. */
  async login(credentials: LoginCredentials, context: SignInContext | string): Promise<LoginResult> {
    const where = typeof context === 'string' ? { clientAddress: context, consumer: null } : context;
    let row: Awaited<ReturnType<SignInService['login']>>;
    try {
      row = await this.signIn.login(credentials, where);
    } catch (error) {
      // Answered once what the refusal causes is written (a lock-out's alert): a crash after the answer loses nothing.
      await this.auditSignIn(credentials.UserName, where, error);
      throw error;
    }
    return this.completeFirstFactor(
      {
        principalId: row.id,
        secondFactor: null,
        userName: credentials.UserName,
        ...(row.pendingGrants ? { pendingGrants: row.pendingGrants } : {}),
        historyDetail: row.source === 'directory' ? 'directory' : row.kind === 'api' ? 'API account' : null,
      },
      where,
    );
  }

  /**
   * The one place a sign-in ends (first-factor.ts): what every first factor that succeeded leads to (a password, the
   * directory, a passkey alone, a provider; alone or with the second step its ticket waited for): a full session; or, when the policy asks this person for a second factor the first one was not, a 401
   * second-factor-required problem with a single-use ticket for the second step and the methods they have; or, when
   * they have none yet, a session that may do nothing but add one (`EnrolmentRequired`, not `Successful`).
   */
  async completeFirstFactor(factor: FirstFactor, where: SignInContext): Promise<LoginResult> {
    const stored = await this.principalById(factor.principalId);
    // The second-factor policy judges the permissions this sign-in brings; they are written only once it completes.
    const principal = factor.pendingGrants ? withGrants(stored, factor.pendingGrants) : stored;
    const now = this.clock();
    const required = secondFactorRequired(this.policy.secondFactor ?? 'off', principal);
    let mayOnlyAdd = false;
    if (required && factor.secondFactor === null) {
      const methods = await availableMethods(this.db, principal.id);
      // A temporary code the helpdesk issued is a second step to ask for, even when nothing else is left.
      if (methods.length > 0 || (await holdsValidTemporaryCode(this.db, principal.id, now))) {
        const { ticket, expires } = await issueTicket(this.db, principal.id, now, {
          oidcIdToken: factor.oidcIdToken ?? null,
          pendingGrants: factor.pendingGrants ? JSON.stringify(factor.pendingGrants) : null,
        });
        const problem = new ProblemError(
          401,
          'second-factor-required',
          'Second factor required',
          `${factor.oidcIdToken ? 'Single sign-on recognised you' : 'The password was right'}; ` +
            `${principal.userName} also needs a second factor: ${methods.join(' or ')}. ` +
            'Send the ticket with it within 5 minutes (POST /api/Consumer/Authentication/Passkey, /RecoveryCode or ' +
            '/DeviceCode after /DeviceCode/Send, or /TemporaryCode with a code from the helpdesk).',
          { extensions: { ticket, ticketExpiresUtc: formatTimestamp(expires), methods } },
        );
        this.auditSignIn(factor.userName, where, problem);
        if (!factor.auditsSuccess) {
          await this.history(principal.id, factor.userName, 'SecondStepAsked', `methods: ${methods.join(', ')}`, where);
        }
        throw problem;
      }
      mayOnlyAdd = true;
    }
    if (factor.pendingGrants) {
      await applyPendingGrants(this.db, { id: principal.id, user_name: principal.userName }, factor.pendingGrants, now);
      // This process's other sessions of the account are judged anew at once (others' within CACHE_TTL_MS).
      this.forgetPrincipal(principal.id);
    }
    const result = await this.open(principal, {
      firstFactor: factor.firstFactor ?? 'password',
      secondFactor: factor.secondFactor !== null ? PROOF_OF_METHOD[factor.secondFactor] : null,
      ...(factor.oidcIdToken ? { oidcIdToken: factor.oidcIdToken } : {}),
    });
    // Only a complete sign-in makes its address a known client (spared the name-wide pace): never a password alone.
    await this.throttle.signedIn(principal.userKey, where.clientAddress);
    if (!factor.auditsSuccess) {
      this.auditSignIn(factor.userName, where, null, principal.kind);
      const how = [
        factor.historyDetail ?? null,
        factor.secondFactor ? `with ${PROOFS[PROOF_OF_METHOD[factor.secondFactor]].words}` : null,
        mayOnlyAdd ? 'may only add a second factor' : null,
      ].filter((part) => part !== null);
      await this.history(principal.id, factor.userName, 'SignedIn', how.length > 0 ? how.join(', ') : null, where);
    }
    return result;
  }

  /** A sign-in's line in the account's history: as typed, from where. */
  private history(
    principalId: number,
    userName: string,
    action: 'SignedIn' | 'SecondStepAsked',
    detail: string | null,
    where: SignInContext,
  ): Promise<void> {
    return recordAccountHistoryFrom(this.db, where, { principalId, userName, action, detail, at: this.clock() });
  }

  /**
   * A sign-in's audit line; a success names the account's kind, and of the failures only the refusal that knows it.
   * Resolves once what the event causes is written (AuditLog.record).
   */
  private auditSignIn(userName: string, where: SignInContext, error: unknown, kind?: Principal['kind']): Promise<void> {
    const reason = error === null ? null : reasonOf(error);
    // Any other failure must not tell an API account's name apart.
    const accountKind = reason === null ? kind : reason === 'api-account-in-browser' ? 'Api' : undefined;
    return (
      this.policy.audit?.record({
        action: 'sign-in',
        userName,
        sourceIp: where.clientAddress,
        userAgent: where.userAgent ?? null,
        ...(reason === null ? { outcome: 'success' } : { outcome: 'failure', reason }),
        ...(accountKind ? { details: { accountKind } } : {}),
      }) ?? Promise.resolve()
    );
  }

  private async principalById(principalId: number): Promise<Principal> {
    const row = await this.db
      .selectFrom('principals')
      .select(['id', 'user_name', 'kind'])
      .where('id', '=', principalId)
      .executeTakeFirstOrThrow();
    return {
      id: row.id,
      userName: row.user_name,
      userKey: userKeyOf(row.user_name),
      grants: await loadGrants(this.db, row.id),
      kind: accountKindOf(row.kind),
    };
  }

  /** A new session for a person the sign-in judged. */
  private async open(
    principal: Principal,
    factors: { firstFactor: ProofKind; secondFactor: ProofKind | null; oidcIdToken?: string },
  ): Promise<LoginResult> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const proof: SessionProof = {
      firstFactorAt: now,
      secondFactor: factors.secondFactor === null ? null : { kind: factors.secondFactor, at: now },
    };
    const enrolment = this.enrolmentOnlyFor(principal, proof);
    const absolute = addMinutes(now, this.policy.absoluteHours * 60);
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        principal_id: principal.id,
        created_at: formatTimestamp(now),
        last_seen_at: formatTimestamp(now),
        absolute_expires_at: formatTimestamp(absolute),
        revoked_at: null,
        second_factor_at: proof.secondFactor ? formatTimestamp(now) : null,
        enrolment_only: enrolment ? 1 : 0,
        oidc_id_token: factors.oidcIdToken ?? null,
        first_factor: factors.firstFactor,
        second_factor: factors.secondFactor,
      })
      .execute();
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
        secondFactorAt: proof.secondFactor?.at ?? null,
        proof,
        enrolmentOnly: enrolment,
      }),
      Successful: !enrolment,
    };
  }

  /**
   * A second factor was verified in this session now (a step-up, or the first one added in a session that could only
   * add one): step-up actions work for STEP_UP_MINUTES, and an enrolment-only session becomes a full one.
   */
  async secondFactorVerified(session: AuthenticatedSession, kind: ProofKind): Promise<Date> {
    const now = this.clock();
    await this.db
      .updateTable('sessions')
      .set({ second_factor_at: formatTimestamp(now), second_factor: kind, enrolment_only: 0 })
      .where('token_hash', '=', session.tokenHash)
      .execute();
    for (const [token, cached] of this.cache) if (cached.tokenHash === session.tokenHash) this.cache.delete(token);
    return now;
  }

  /** The second-factor policy's judgement of a session's proof, against its account's permissions as they are. */
  private enrolmentOnlyFor(principal: Principal, proof: SessionProof): boolean {
    return enrolmentOnly(this.policy.secondFactor ?? 'off', principal, proof);
  }

  /** The last moment this session proved anything (its sign-in or its last second factor). */
  lastProofAt(session: AuthenticatedSession): Date {
    return lastProofAt(session.proof);
  }

  /** Until when a step-up verified at `at` lets step-up actions through. */
  stepUpUntil(at: Date): Date {
    return addMinutes(at, this.policy.stepUpMinutes ?? 0);
  }

  /**
   * The problem refusing this session the endpoint on second-factor grounds, or undefined: a session that may only add
   * a second factor reaches nothing else, and a step-up action needs a second factor verified within STEP_UP_MINUTES
   * (unless SECOND_FACTOR is off, an operator's choice of passwords alone).
   */
  secondFactorRefusal(session: AuthenticatedSession, endpoint: Endpoint): ProblemError | undefined {
    if (session.enrolmentOnly && !endpoint.duringEnrolment) {
      return new ProblemError(
        403,
        'second-factor-enrolment-required',
        'Add a second factor first',
        `${session.principal.userName} needs a second factor in this session to use this service: prove one ` +
          '(POST /api/Consumer/Authentication/StepUp), or add a passkey, recovery codes or a device (Sign-in methods) ' +
          'if there is none yet.',
      );
    }
    // A conditional step-up (`{ when }`) is judged by the domain, which knows the condition.
    if (endpoint.stepUp === true) return this.stepUpRefusal(session);
    return undefined;
  }

  /** 403 step-up-required unless a second factor was verified recently enough in this session (or the policy is off). */
  stepUpRefusal(session: AuthenticatedSession): ProblemError | undefined {
    const policy = this.policy.secondFactor ?? 'off';
    if (policy === 'off') return undefined;
    if (stepUpFresh(session.proof, this.clock(), this.policy.stepUpMinutes ?? 0)) return undefined;
    return new ProblemError(
      403,
      'step-up-required',
      'Confirm it is you',
      `This action needs a second factor verified within the last ${this.policy.stepUpMinutes} minutes: prove one ` +
        '(POST /api/Consumer/Authentication/StepUp) and try again.',
    );
  }

  /** Throws 403 step-up-required for a step-up action the session has no fresh proof for. */
  requireStepUp(session: AuthenticatedSession): void {
    const refusal = this.stepUpRefusal(session);
    if (refusal) throw refusal;
  }

  /**
   * A step-up action for a person who has a second factor already; a person with none yet adds their first without
   * (in the session that may only add one), as at their first sign-in.
   */
  async requireStepUpUnlessFirstFactor(session: AuthenticatedSession): Promise<void> {
    const refusal = this.stepUpRefusal(session);
    if (refusal && (await availableMethods(this.db, session.principal.id)).length > 0) throw refusal;
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
      secondFactorAt: known.proof.secondFactor?.at ?? null,
      proof: known.proof,
      // Judged once per cached entry, which is dropped whenever the account's permissions change: no query here.
      enrolmentOnly: this.enrolmentOnlyFor(known.principal, known.proof),
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
        'principals.kind',
        'sessions.created_at',
        'sessions.second_factor_at',
        'sessions.second_factor',
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
        kind: accountKindOf(row.kind),
      },
      lastSeen: storedTime(row.last_seen_at),
      absolute: storedTime(row.absolute_expires_at),
      proof: {
        firstFactorAt: storedTime(row.created_at),
        secondFactor:
          row.second_factor_at === null
            ? null
            : { kind: proofKindOf(row.second_factor), at: storedTime(row.second_factor_at) },
      },
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
    await purgeChallenges(this.db, now);
    await purgeTickets(this.db, now);
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
      ...(session.enrolmentOnly ? { EnrolmentRequired: true } : {}),
    };
  }

  private expiry(lastSeen: Date, absolute: Date): Date {
    const idle = addMinutes(lastSeen, this.policy.idleMinutes);
    return idle < absolute ? idle : absolute;
  }
}
