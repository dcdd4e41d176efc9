import { createHmac, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { LoginCredentials } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import type { SignInContext } from '../identity/account-history.ts';
import { userKeyOf } from '../identity/principals.ts';
import type { AuthenticatedSession, SessionService } from './sessions.ts';
import type { LoginThrottle } from './throttle/login-throttle.ts';

/** How long a verified credential is remembered: a client making many calls pays one password hash per minute. */
const REMEMBER_MS = 60_000;
const REMEMBER_LIMIT = 1_000;

interface Remembered {
  /** The session the first verification signed in; later calls ride on it. */
  token: string;
  userKey: string;
  /** The stored hash the password was verified against: a new password (or a reset) no longer matches it. */
  passwordHash: string;
  at: number;
}

/**
 * HTTP Basic credentials (SPEC §3): the published SDK never sends a token, it answers the server's challenge
 * with a user name and password on every call. Each credential is verified as a sign-in is (same throttle,
 * same hash, same answer for a wrong user or password) and starts a session; the session is remembered for a
 * short while under a keyed hash of the credential, so later calls cost a lookup, not a password hash.
 * A remembered credential is checked against the account on every use: a changed password or a disabled
 * account ends it at once, in any process sharing the database; and a lock-out of its name from its address (wrong
 * passwords meanwhile) refuses it as it refuses a sign-in.
 */
export class BasicCredentials {
  /** Per process, so the remembered keys mean nothing outside it. */
  private readonly key = randomBytes(32);
  private readonly remembered = new Map<string, Remembered>();
  private readonly db: Kysely<Database>;
  private readonly sessions: SessionService;
  private readonly throttle: Pick<LoginThrottle, 'lockedOut'>;

  constructor(db: Kysely<Database>, sessions: SessionService, throttle: Pick<LoginThrottle, 'lockedOut'>) {
    this.db = db;
    this.sessions = sessions;
    this.throttle = throttle;
  }

  /** The session for these credentials; throws 401 invalid-credentials or 429 as a sign-in does. */
  async authenticate(userName: string, password: string, from: SignInContext | string): Promise<AuthenticatedSession> {
    const parsed = LoginCredentials.safeParse({ UserName: userName, Password: password });
    if (!parsed.success) {
      throw new ProblemError(401, 'invalid-credentials', 'Sign-in failed', 'The user name or password is incorrect.');
    }
    const userKey = userKeyOf(parsed.data.UserName);
    const id = createHmac('sha256', this.key).update(userKey).update('\0').update(password).digest('base64url');
    const known = this.remembered.get(id);
    if (known) {
      // The memory yields to a lock-out: a name and address that spent their budget are refused as a sign-in is.
      const address = typeof from === 'string' ? from : from.clientAddress;
      const locked = await this.throttle.lockedOut(known.userKey, address);
      if (locked) throw locked;
      this.remembered.delete(id);
      if (performance.now() - known.at < REMEMBER_MS && (await this.stillValid(known))) {
        const session = await this.sessions.authenticate(known.token);
        if (session) {
          this.remembered.set(id, known);
          return session;
        }
      }
    }

    const { Token } = await this.sessions.login(parsed.data, from);
    const session = await this.sessions.authenticate(Token);
    // The account's own key: a directory name typed without its domain (jo) signs in as ACME\jo.
    const account = session ? await this.account(session.principal.userKey) : undefined;
    if (!account || !session) {
      throw new ProblemError(401, 'invalid-credentials', 'Sign-in failed', 'The user name or password is incorrect.');
    }
    if (this.remembered.size >= REMEMBER_LIMIT) this.remembered.delete(this.remembered.keys().next().value as string);
    this.remembered.set(id, {
      token: Token,
      userKey: session.principal.userKey,
      passwordHash: account.password_hash,
      at: performance.now(),
    });
    return session;
  }

  private async stillValid(known: Remembered): Promise<boolean> {
    const account = await this.account(known.userKey);
    return account !== undefined && account.enabled === 1 && account.password_hash === known.passwordHash;
  }

  private account(userKey: string) {
    return this.db
      .selectFrom('principals')
      .select(['password_hash', 'enabled'])
      .where('user_key', '=', userKey)
      .executeTakeFirst();
  }
}
