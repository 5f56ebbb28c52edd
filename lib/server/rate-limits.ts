import 'server-only';
/**
 * Rate limits on POST /auth/start (each start sends a pushed authorization request under our
 * client's credentials): per client address, and overall, so a script can neither flood the
 * service in our name nor fill the store. Counted by rate-limiter-flexible in the same store as
 * everything else: this process's memory, or the shared Redis (so the limits hold across
 * instances).
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisStore } from '@/lib/store/redis-store';
import { StoreError } from '@/lib/store/store';

/** Starts allowed per window, per address and for all addresses together. */
export interface StartLimits {
  perAddress: number;
  overall: number;
  windowSeconds: number;
}

/** A request over a limit: answered 429 with Retry-After and the failure page's `rate_limited`. */
export class RateLimited extends Error {
  readonly code = 'rate_limited';
  constructor(readonly retryAfterSeconds: number, readonly scope: 'address' | 'overall') {
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

type LimiterStore = { kind: 'memory' } | { kind: 'redis'; store: RedisStore; prefix: string };

export function createStartLimiter(backing: LimiterStore, limits: StartLimits): StartLimiter {
  const make = (name: string, points: number): RateLimiterAbstract =>
    backing.kind === 'memory'
      ? new RateLimiterMemory({ keyPrefix: name, points, duration: limits.windowSeconds })
      : new RateLimiterRedis({
          storeClient: backing.store.rateLimiterClient,
          useRedisPackage: true,
          // While Redis is away, refuse at once rather than wait for a reconnection.
          rejectIfRedisNotReady: true,
          keyPrefix: `${backing.prefix}rate:${name}`,
          points,
          duration: limits.windowSeconds,
        });
  const perAddress = make('start-address', limits.perAddress);
  const overall = make('start-overall', limits.overall);

  const count = async (limiter: RateLimiterAbstract, key: string, scope: 'address' | 'overall') => {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw new RateLimited(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), scope);
      throw new StoreError('store_unavailable', `the rate limit could not be counted: ${(rejection as Error).message}`, 5, { cause: rejection });
    }
  };
  return {
    async consume(address) {
      await count(perAddress, address, 'address');
      await count(overall, 'all', 'overall');
    },
  };
}
