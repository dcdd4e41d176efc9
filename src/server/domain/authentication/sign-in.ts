import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { formatTimestamp, type LoginCredentials } from '../../../shared/contract/index.ts';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { ProblemError } from '../../lib/problem-error.ts';
import { recordAccountHistory, type SignInContext } from '../identity/account-history.ts';
import { type PrincipalRow, type SavedPrincipal, saveExternalPrincipal } from '../identity/external-accounts.ts';
import { hashCostOf, hashPassword, verifyPassword } from '../identity/passwords.ts';
import { userKeyOf } from '../identity/principals.ts';
import {
  type Directory,
  type DirectoryLog,
  type DirectorySignIn,
  DirectoryUnavailableError,
} from './directory/directory.ts';
import type { LoginThrottle } from './throttle/login-throttle.ts';

/** What a sign-in judges credentials by (the part of the session policy that concerns passwords and directories). */
export interface SignInPolicy {
  passwordHashCost: number;
  /**
   * User keys that may never sign in nor keep a session, whatever the database holds: the demo accounts when demo
   * mode is off (their passwords are published).
   */
  refusedUserKeys?: ReadonlySet<string>;
  /** LDAP / Active Directory sign-in, when LDAP_URL is set. */
  directory?: Directory | null;
  /** Where a directory sign-in refused for a local account's name is reported. */
  log?: Pick<DirectoryLog, 'warn'>;
}

/** Whether the policy refuses an account whatever the database says about it. */
export function refusedByPolicy(policy: Pick<SignInPolicy, 'refusedUserKeys'>, userKey: string): boolean {
  return policy.refusedUserKeys?.has(userKey) ?? false;
}

/** An API account's secret given in a browser: the dashboard is for people, whom the second factor holds to more. */
export const apiAccountInBrowser = (userName: string) =>
  new ProblemError(
    403,
    'api-account-in-browser',
    'API account',
    `${userName} is an API account, for scripts and the SDK: it cannot sign in to the dashboard. Sign in with your own account.`,
  );

const invalidCredentials = () =>
  new ProblemError(401, 'invalid-credentials', 'Sign-in failed', 'The user name or password is incorrect.');

/**
 * Judges a user name and password: a local account's own password, or the directory's answer for a directory
 * account (saved as of this sign-in). Throttled, and recorded in the account history. The session a successful
 * sign-in opens is the session service's.
 */
export class SignInService {
  /** A hash to verify against when the user does not exist, so both failures take the same time. */
  private readonly decoyHash: Promise<string>;

  private readonly db: Kysely<Database>;
  private readonly clock: Clock;
  private readonly policy: SignInPolicy;
  private readonly throttle: LoginThrottle;

  constructor(db: Kysely<Database>, clock: Clock, policy: SignInPolicy, throttle: LoginThrottle) {
    this.db = db;
    this.clock = clock;
    this.policy = policy;
    this.throttle = throttle;
    // Made at start, so the first sign-in of an unknown user takes no longer than any other.
    this.decoyHash = hashPassword(randomBytes(16).toString('hex'), policy.passwordHashCost);
    this.decoyHash.catch(() => undefined); // a failure surfaces at the sign-in that awaits it
  }

  /** The principal the credentials sign in, or the 401 (wrong credentials), 429 (throttled) or 503 problem. */
  async login(credentials: LoginCredentials, context: SignInContext | string): Promise<SavedPrincipal> {
    const { clientAddress, consumer, browser } =
      typeof context === 'string' ? { clientAddress: context, consumer: null, browser: false } : context;
    const typed = credentials.UserName;
    let userKey = userKeyOf(typed);
    let row: SavedPrincipal | undefined = await this.findPrincipal(userKey);
    const directory = this.policy.directory ?? null;
    // A local account answers for its own name (the break-glass admin beside the directory); otherwise a name in the
    // directory's domain (or without a domain) goes to the directory, whose yes counts only when the canonical name it
    // gives (DOMAIN\name) is no local account's. Another domain never reaches the directory.
    const directoryName = directory && row?.source !== 'local' ? directory.directoryName(typed) : null;
    if (directory && directoryName !== null) {
      userKey = userKeyOf(`${directory.domain}\\${directoryName}`);
      row = await this.findPrincipal(userKey);
    }
    let unavailable: DirectoryUnavailableError | null = null;
    // Set inside the attempt below, hence the assertion: the directory accepted a person whose name is a local account.
    let shadowed = null as { directoryName: string; account: string } | null;
    const history = (action: 'SignInFailed' | 'DirectoryUnavailable', detail: string | null = null) =>
      recordAccountHistory(this.db, {
        principalId: row?.id ?? null,
        userName: typed,
        action,
        detail,
        clientAddress,
        consumer,
        at: this.clock(),
      });
    const signedIn = await this.throttle.attempt(userKey, clientAddress, async () => {
      if (!directory || directoryName === null) {
        const matches = await verifyPassword(credentials.Password, row?.password_hash || (await this.decoyHash));
        return (
          row !== undefined &&
          row.source === 'local' &&
          matches &&
          row.enabled === 1 &&
          !refusedByPolicy(this.policy, userKey)
        );
      }
      let person: DirectorySignIn | null;
      try {
        person = await directory.signIn(directoryName, credentials.Password);
      } catch (error) {
        if (!(error instanceof DirectoryUnavailableError)) throw error;
        // Not a failure: the password was never judged, so it must not count towards a lock-out.
        unavailable = error;
        return true;
      }
      if (!person) return false;
      const grants = { Security: person.security, Accounts: person.accounts };
      row = await saveExternalPrincipal(this.db, 'directory', { ...person, grants }, this.clock());
      if (!row) return false;
      if (row.source !== 'directory') {
        shadowed = { directoryName: person.userName, account: row.user_name };
        return false;
      }
      return row.enabled === 1;
    });
    if (unavailable) {
      await history('DirectoryUnavailable');
      throw new ProblemError(
        503,
        'directory-unavailable',
        'Directory unavailable',
        'The directory (LDAP / Active Directory) cannot be reached, so directory accounts cannot sign in right now. ' +
          'Your password was not checked: try again in a few minutes.',
        { headers: { 'Retry-After': '30' } },
      );
    }
    if (!signedIn || !row) {
      if (shadowed) {
        this.policy.log?.warn(
          { account: shadowed.account },
          `directory sign-in refused: the directory accepted ${shadowed.directoryName}, but ${shadowed.account} is a ` +
            'local account, which keeps its own password and permissions. The directory person of that name cannot ' +
            'sign in here while the local account has the name.',
        );
      }
      await history('SignInFailed', shadowed ? 'directory sign-in refused: the name is a local account' : null);
      throw invalidCredentials();
    }
    if (row.kind === 'api' && browser) {
      await history('SignInFailed', 'an API account, refused in a browser (the dashboard is for people)');
      throw apiAccountInBrowser(row.user_name);
    }
    // `SignedIn` goes to the history, and the address becomes known, when the session opens
    // (SessionService.completeFirstFactor): a second step may follow.
    await this.db
      .updateTable('principals')
      .set({ last_sign_in_at: formatTimestamp(this.clock()) })
      .where('id', '=', row.id)
      .execute();
    if (row.source === 'local' && hashCostOf(row.password_hash) !== this.policy.passwordHashCost) {
      // A hash from an older cost setting answers sign-ins at its own speed, which tells that account apart:
      // the password is known right now, so the hash is brought to the current cost.
      await this.db
        .updateTable('principals')
        .set({ password_hash: await hashPassword(credentials.Password, this.policy.passwordHashCost) })
        .where('id', '=', row.id)
        .execute();
    }
    return row;
  }

  private findPrincipal(userKey: string): Promise<PrincipalRow | undefined> {
    return this.db
      .selectFrom('principals')
      .select(['id', 'user_name', 'password_hash', 'enabled', 'source', 'kind'])
      .where('user_key', '=', userKey)
      .executeTakeFirst();
  }
}
