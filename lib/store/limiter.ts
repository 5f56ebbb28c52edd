/**
 * Rate limits for both stores, counted by rate-limiter-flexible (a maintained library, with an
 * atomic Lua script on Redis), behind the store's small `Limiter` interface.
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LimitReached, StoreError, type Limiter } from './store';

/** A rate-limiter-flexible limiter as a `Limiter`: its refusals as `LimitReached`, its failures as `store_unavailable`. */
export function asLimiter(limiter: RateLimiterAbstract): Limiter {
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw new LimitReached(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
        throw new StoreError('store_unavailable', `the rate limit could not be counted: ${(rejection as Error).message}`, 5, { cause: rejection });
      }
    },
  };
}

/** Refuses a limit that is not a positive whole number of events in a positive window (a programming error). */
export function checkLimit(points: number, windowSeconds: number): void {
  if (!Number.isSafeInteger(points) || points < 1) throw new RangeError(`points must be a positive integer, not ${points}`);
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) throw new RangeError(`windowSeconds must be a positive integer, not ${windowSeconds}`);
}
