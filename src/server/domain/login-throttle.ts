import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { ProblemError } from './problem-error.ts';

export interface LoginThrottleOptions {
  failuresPerUser: number;
  failuresPerAddress: number;
  windowSeconds: number;
}

/**
 * Counts failed sign-ins per user name and per client address. A key over its budget is refused
 * until its window ends, so guessing is slow but a real user is never locked out for longer than one window.
 */
export class LoginThrottle {
  private readonly byUser: RateLimiterMemory;
  private readonly byAddress: RateLimiterMemory;

  constructor(options: LoginThrottleOptions) {
    this.byUser = new RateLimiterMemory({
      keyPrefix: 'user',
      points: options.failuresPerUser,
      duration: options.windowSeconds,
    });
    this.byAddress = new RateLimiterMemory({
      keyPrefix: 'address',
      points: options.failuresPerAddress,
      duration: options.windowSeconds,
    });
  }

  /** The attempt running for each user name, so one user name's attempts are checked one after another. */
  private readonly attempts = new Map<string, Promise<unknown>>();

  /**
   * Runs one sign-in attempt under the throttle: `verify` checks the password and answers whether it was
   * right. Throws 429 when the user name or the address has spent its budget of failures.
   *
   * The attempt is counted *before* its password is checked: a check made first and a failure counted
   * after let guesses that arrive all at once through together, however small the budget. Attempts for
   * one user name run one at a time, so the attempt in flight is the only one counted ahead: a right
   * password is refused only when the failures before it spent the budget, never because others were
   * signing in at the same moment. (Addresses are counted ahead without waiting: many people can share
   * one.) A refused attempt tried no password and is given back, so refusals never stretch a lock-out;
   * a successful one is given back too, and forgets the user name's failures.
   */
  async attempt(userKey: string, address: string, verify: () => Promise<boolean>): Promise<boolean> {
    return this.oneAtATime(userKey, async () => {
      const [user, client] = await Promise.all([spend(this.byUser, userKey), spend(this.byAddress, address)]);
      const blocked = [
        { state: user, points: this.byUser.points },
        { state: client, points: this.byAddress.points },
      ].filter(({ state, points }) => state.consumedPoints > points);
      if (blocked.length > 0) {
        await Promise.all([this.byUser.reward(userKey, 1), this.byAddress.reward(address, 1)]);
        const waitMs = Math.max(...blocked.map(({ state }) => state.msBeforeNext));
        const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
        throw new ProblemError(
          429,
          'too-many-requests',
          'Too many failed sign-ins',
          `Too many failed sign-ins. Try again in ${retryAfter} seconds.`,
          { headers: { 'Retry-After': String(retryAfter) } },
        );
      }
      const right = await verify();
      if (right) await Promise.all([this.byUser.delete(userKey), this.byAddress.reward(address, 1)]);
      return right;
    });
  }

  private async oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.attempts.get(key) ?? Promise.resolve();
    const current = previous.then(work, work);
    const settled = current.catch(() => undefined);
    this.attempts.set(key, settled);
    try {
      return await current;
    } finally {
      if (this.attempts.get(key) === settled) this.attempts.delete(key);
    }
  }
}

/** consume() rejects with a RateLimiterRes once over budget; that is the state we track, not an error. */
async function spend(limiter: RateLimiterMemory, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  }
}
