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

  /** Throws 429 when either the user name or the address has used up its failures. */
  async assertAllowed(userKey: string, address: string): Promise<void> {
    const [user, client] = await Promise.all([this.byUser.get(userKey), this.byAddress.get(address)]);
    const blocked = [
      { state: user, points: this.byUser.points },
      { state: client, points: this.byAddress.points },
    ].filter(({ state, points }) => state !== null && state.consumedPoints >= points);
    if (blocked.length === 0) return;
    const waitMs = Math.max(...blocked.map(({ state }) => state?.msBeforeNext ?? 1000));
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    throw new ProblemError(
      429,
      'too-many-requests',
      'Too many failed sign-ins',
      `Too many failed sign-ins. Try again in ${retryAfter} seconds.`,
      { headers: { 'Retry-After': String(retryAfter) } },
    );
  }

  async recordFailure(userKey: string, address: string): Promise<void> {
    await Promise.all([swallowLimit(this.byUser.consume(userKey)), swallowLimit(this.byAddress.consume(address))]);
  }

  async recordSuccess(userKey: string): Promise<void> {
    await this.byUser.delete(userKey);
  }
}

/** consume() rejects with a RateLimiterRes once over budget; that is the state we track, not an error. */
async function swallowLimit(consumption: Promise<RateLimiterRes>): Promise<void> {
  try {
    await consumption;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
  }
}
