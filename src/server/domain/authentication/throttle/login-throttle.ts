import { createHash } from 'node:crypto';
import type pg from 'pg';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { clientKey } from '../../../lib/client-key.ts';
import { OneAtATime } from '../../../lib/one-at-a-time.ts';
import { ProblemError } from '../../../lib/problem-error.ts';
import { type KnownClientStore, NO_KNOWN_CLIENTS } from './known-clients.ts';

export interface LoginThrottleOptions {
  /** Failures allowed for one user name from one client address per window; then that pair waits out the window. */
  failuresPerUser: number;
  /** Failures allowed from one client address, whatever the user names, per window. */
  failuresPerAddress: number;
  windowSeconds: number;
  /** Failures for one user name from all addresses together per window, after which its sign-ins are paced. */
  slowAfterFailures: number;
  /** Once paced, one attempt for that user name per this many seconds. */
  slowSeconds: number;
}

/** Where the counts live: this process's memory, or a PostgreSQL table shared by every process on that database. */
export type ThrottleStore = { kind: 'memory' } | { kind: 'postgres'; pool: pg.Pool };

/** The table of migration 005, in the shape rate-limiter-flexible's PostgreSQL store reads and writes. */
export const THROTTLE_TABLE = 'login_throttle';

interface Budget {
  limiter: RateLimiterAbstract;
  key: string;
}

/**
 * Counts failed sign-ins so that guessing is slow while the real user can always get in (OWASP's guidance on
 * lock-out): the budget that refuses for a whole window is per user name *and* address, so an attacker at one address
 * blocks only itself. Failures per address (one attacker trying many user names) refuse that address. Failures for
 * one user name from everywhere (many addresses) never refuse for long: past their budget the user name is paced to
 * one attempt every few seconds, which slows a distributed guesser to a crawl.
 *
 * The pace is one slot shared by every address, so guessers who keep taking it would lock the owner out after all.
 * A known client (an address the account signed in from recently, known-clients.ts) is therefore never paced nor
 * counted for the user name: only its own budgets (the pair, the address) apply to it. Every other address, the
 * owner's new laptop included, is paced as before, so the guessers get no more tries than they did.
 */
export class LoginThrottle {
  private readonly byPair: RateLimiterAbstract;
  private readonly byAddress: RateLimiterAbstract;
  private readonly byUser: RateLimiterAbstract;
  private readonly pace: RateLimiterAbstract;
  /** Wrong second factors per account, from every address and ticket: a right password never forgives them. */
  private readonly secondFactor: RateLimiterAbstract;

  private readonly known: KnownClientStore;

  constructor(
    options: LoginThrottleOptions,
    store: ThrottleStore = { kind: 'memory' },
    known: KnownClientStore = NO_KNOWN_CLIENTS,
  ) {
    this.known = known;
    const make = (keyPrefix: string, points: number, duration: number) =>
      store.kind === 'postgres'
        ? new RateLimiterPostgres({
            storeClient: store.pool,
            storeType: 'pool',
            tableName: THROTTLE_TABLE,
            tableCreated: true,
            // The four share one table, and the library's hourly sweep clears it for every prefix: one is enough.
            clearExpiredByTimeout: keyPrefix === 'pair',
            keyPrefix,
            points,
            duration,
          })
        : new RateLimiterMemory({ keyPrefix, points, duration });
    this.byPair = make('pair', options.failuresPerUser, options.windowSeconds);
    this.byAddress = make('address', options.failuresPerAddress, options.windowSeconds);
    this.byUser = make('user', options.slowAfterFailures, options.windowSeconds);
    this.pace = make('pace', 1, options.slowSeconds);
    this.secondFactor = make('second', options.failuresPerUser, options.windowSeconds);
  }

  /** Attempts for each user name (or known client of it), so they are checked one after another. */
  private readonly attempts = new OneAtATime();

  /**
   * Runs one sign-in attempt under the throttle: `verify` checks the password and answers whether it was
   * right. Throws 429 when the attempt's user name and address, its address, or (paced, unless the address is a
   * known client) its user name has spent its budget of failures.
   *
   * The attempt is counted *before* its password is checked: a check made first and a failure counted
   * after let guesses that arrive all at once through together, however small the budget. Attempts for
   * one user name (a known client's: for that user name from that client) run one at a time (in this process), so
   * the attempt in flight is the only one counted ahead: a right password is refused only when the failures
   * before it spent a budget, never because others were signing in at the same moment. A refused attempt tried no password and is given back, so refusals never
   * stretch a lock-out; a successful one is given back too, and forgets that address's failures for the user name.
   */
  async attempt(userKey: string, address: string, verify: () => Promise<boolean>): Promise<boolean> {
    const client = clientKey(address);
    const known = await this.known.isKnown(userKey, client);
    const pair: Budget = { limiter: this.byPair, key: storeKey(`${userKey}\n${client}`) };
    const from: Budget = { limiter: this.byAddress, key: storeKey(client) };
    const user: Budget = { limiter: this.byUser, key: storeKey(userKey) };
    // A known client's attempts line up among themselves: the guessers' queue for the user name is not theirs.
    const line = known ? `known\n${userKey}\n${client}` : `user\n${userKey}`;
    return this.attempts.run(line, async () => {
      const budgets = known ? [pair, from] : [pair, from, user];
      const states = await Promise.all(budgets.map(spend));
      const spent = budgets.map((budget, i) => ({ budget, state: states[i] as RateLimiterRes }));
      const blocked = spent.filter(
        ({ budget, state }) => budget !== user && state.consumedPoints > budget.limiter.points,
      );
      const giveBack = () => Promise.all(budgets.map(({ limiter, key }) => limiter.reward(key, 1)));
      if (blocked.length > 0) {
        await giveBack();
        throw tooManyFailures(Math.max(...blocked.map(({ state }) => state.msBeforeNext)));
      }
      const userState = spent.find(({ budget }) => budget === user)?.state;
      if (userState && userState.consumedPoints > this.byUser.points) {
        const paced = await spend({ limiter: this.pace, key: user.key });
        if (paced.consumedPoints > this.pace.points) {
          await giveBack();
          throw tooManyFailures(paced.msBeforeNext);
        }
      }
      const right = await verify();
      if (right)
        await Promise.all([
          this.byPair.delete(pair.key),
          ...budgets.filter((budget) => budget !== pair).map(({ limiter, key }) => limiter.reward(key, 1)),
        ]);
      return right;
    });
  }

  /**
   * One try of a second factor by someone who passed the password step (a ticket) or holds a session (step-up): under
   * the budgets of `attempt`, and under the account's own budget of wrong second factors, which counts across tickets
   * and addresses and which only a right second factor clears (a right password forgave the pair's count, so rounds
   * of "right password, four wrong codes" went on until the address's budget). Counted before `verify` runs, as there.
   */
  async attemptSecondFactor(userKey: string, address: string, verify: () => Promise<boolean>): Promise<boolean> {
    const account: Budget = { limiter: this.secondFactor, key: storeKey(userKey) };
    const state = await spend(account);
    if (state.consumedPoints > this.secondFactor.points) {
      await this.secondFactor.reward(account.key, 1);
      throw tooManyFailures(state.msBeforeNext);
    }
    let right: boolean;
    try {
      right = await this.attempt(userKey, address, verify);
    } catch (error) {
      await this.secondFactor.reward(account.key, 1);
      throw error;
    }
    if (right) await this.secondFactor.delete(account.key);
    return right;
  }

  /**
   * The 429 a sign-in of this user name from this address would get now, without spending anything, or null: what a
   * remembered HTTP Basic login consults before it rides on its session, so it never outlives a lock-out.
   */
  async lockedOut(userKey: string, address: string): Promise<ProblemError | null> {
    const client = clientKey(address);
    const budgets: Budget[] = [
      { limiter: this.byPair, key: storeKey(`${userKey}\n${client}`) },
      { limiter: this.byAddress, key: storeKey(client) },
      { limiter: this.secondFactor, key: storeKey(userKey) },
    ];
    const states = await Promise.all(budgets.map(({ limiter, key }) => limiter.get(key)));
    const waits = states.flatMap((state, i) =>
      state && state.consumedPoints >= (budgets[i] as Budget).limiter.points ? [state.msBeforeNext] : [],
    );
    return waits.length > 0 ? tooManyFailures(Math.max(...waits)) : null;
  }

  /**
   * Tells the throttle that a sign-in from this address completed (its session opened, after any second step): the
   * address becomes a known client of the user name. A right password alone makes no address known.
   */
  async signedIn(userKey: string, address: string): Promise<void> {
    await this.known.remember(userKey, clientKey(address));
  }
}

/** User names may be 256 characters; the PostgreSQL store's key column holds 255. A digest fits any. */
const storeKey = (key: string) => createHash('sha256').update(key).digest('base64url');

function tooManyFailures(waitMs: number): ProblemError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new ProblemError(
    429,
    'too-many-requests',
    'Too many failed sign-ins',
    `Too many failed sign-ins. Try again in ${retryAfter} seconds.`,
    { headers: { 'Retry-After': String(retryAfter) } },
  );
}

/** consume() rejects with a RateLimiterRes once over budget; that is the state we track, not an error. */
async function spend({ limiter, key }: Budget): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  }
}
