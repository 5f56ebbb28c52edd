import 'server-only';
/**
 * Rate limits on POST /auth/start (each start sends a pushed authorization request under our
 * client's credentials): per client address, and overall, so a script can neither flood the
 * service in our name nor fill the store. Counted by rate-limiter-flexible in the same store as
 * everything else: this process's memory, or the shared Redis (so the limits hold across
 * instances).
 */
import { isLimitReached, type Limiter, type Store } from '@/lib/store/store';

/** Starts allowed per window, per address and for all addresses together. */
export interface StartLimits {
  perAddress: number;
  overall: number;
  windowSeconds: number;
}

/** A request over a limit: answered 429 with Retry-After and the failure page's `rate_limited`. */
export class RateLimited extends Error {
  readonly code = 'rate_limited';
  constructor(
    readonly retryAfterSeconds: number,
    readonly scope: 'address' | 'overall',
  ) {
    super(scope === 'address' ? 'too many verifications started from this address' : 'too many verifications started at once');
  }
}

export function isRateLimited(error: unknown): error is RateLimited {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'rate_limited';
}

export interface StartLimiter {
  /**
   * Counts one start from `address`.
   * @throws RateLimited over a limit; StoreError `store_unavailable` when the shared store does not answer
   */
  consume(address: string): Promise<void>;
}

/** The limits, counted in `store` (with Redis, across every instance). */
export function createStartLimiter(store: Store, limits: StartLimits): StartLimiter {
  const perAddress = store.limiter('start-address', limits.perAddress, limits.windowSeconds);
  const overall = store.limiter('start-overall', limits.overall, limits.windowSeconds);

  const count = async (limiter: Limiter, key: string, scope: 'address' | 'overall') => {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (isLimitReached(error)) throw new RateLimited(error.retryAfterSeconds, scope);
      throw error;
    }
  };
  return {
    async consume(address) {
      await count(perAddress, address, 'address');
      await count(overall, 'all', 'overall');
    },
  };
}
