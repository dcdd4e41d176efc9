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

  /**
   * Counts a sign-in attempt against the user name's and the address's budgets *before* its password is
   * checked, and throws 429 when either budget is spent. Counting first is what keeps the budget when
   * guesses arrive all at once: a check made before any of them had failed let every one of them through.
   * A refused attempt is given back (it tried no password), so refusals never stretch a lock-out; a
   * successful sign-in gives its attempt back too (recordSuccess).
   */
  async beginAttempt(userKey: string, address: string): Promise<void> {
    const [user, client] = await Promise.all([spend(this.byUser, userKey), spend(this.byAddress, address)]);
    const blocked = [
      { state: user, points: this.byUser.points },
      { state: client, points: this.byAddress.points },
    ].filter(({ state, points }) => state.consumedPoints > points);
    if (blocked.length === 0) return;
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

  /** A successful sign-in: the user name's failures are forgotten, and the address gets its attempt back. */
  async recordSuccess(userKey: string, address: string): Promise<void> {
    await Promise.all([this.byUser.delete(userKey), this.byAddress.reward(address, 1)]);
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
