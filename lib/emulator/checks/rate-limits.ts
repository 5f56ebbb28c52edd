/**
 * Rate limits on the emulator's endpoints (part 8: "Rate limits … not shown"; DECISIONS.md "Rate
 * limits"): requests per minute per client address, one budget per group of endpoints, counted in
 * the emulator's store, so with a shared store they hold across every instance. Read-only
 * documents (discovery, JWKS, portraits, the page script, the panel itself) are not limited.
 */
import { isLimitReached, type Limiter, type Store } from '../../store/store';
import { TooManyRequests } from '../errors';

export type RateLimitGroup = 'par' | 'token' | 'interaction' | 'panel' | 'qa';

/** Requests per minute per client address, per group. */
export type RateLimits = Record<RateLimitGroup, number>;

/**
 * The defaults: well above what one relying party's server or one person's browser sends in a
 * minute (a flow is one PAR, one token request and a few dozen page loads and status polls), and
 * low enough that a script cannot fill the store or keep the CPU busy with signature checks.
 */
export const RATE_LIMITS: RateLimits = {
  /** POST /par: a stored request and two signature checks each */
  par: 300,
  /** POST /token: a signature check, an ID token signed and encrypted */
  token: 300,
  /** the authorization page, the identity app's screens and actions, the status polls (every 2 s per open page) */
  interaction: 1200,
  /** the QA panel's actions (a key rotation makes keys and a certificate) */
  panel: 60,
  /** the JSON QA API (a conformance kit makes a few calls per case, a case every few seconds) */
  qa: 600,
};

const WINDOW_SECONDS = 60;

const DESCRIPTIONS: Record<RateLimitGroup, string> = {
  par: 'too many pushed authorization requests',
  token: 'too many token requests',
  interaction: 'too many requests to the authorization pages',
  panel: 'too many panel actions',
  qa: 'too many QA API requests',
};

export interface RateLimiter {
  /**
   * Counts one request of `group` from `address`.
   * @throws TooManyRequests over the group's limit; StoreError when the store cannot count
   */
  consume(group: RateLimitGroup, address: string): Promise<void>;
}

/** Limiters for every group, counted in `store`. */
export function createRateLimiter(store: Store, limits: RateLimits): RateLimiter {
  const limiters = new Map<RateLimitGroup, Limiter>();
  for (const group of Object.keys(limits) as RateLimitGroup[]) {
    limiters.set(group, store.limiter(`rate-${group}`, limits[group], WINDOW_SECONDS));
  }
  return {
    async consume(group, address) {
      try {
        await limiters.get(group)!.consume(address);
      } catch (error) {
        if (!isLimitReached(error)) throw error;
        throw new TooManyRequests(
          `${DESCRIPTIONS[group]} from this address (at most ${limits[group]} a minute); try again in ${error.retryAfterSeconds} s`,
          error.retryAfterSeconds,
        );
      }
    },
  };
}

/** Checks limits given as options: whole numbers of requests per minute, at least 1. */
export function checkRateLimits(limits: Partial<RateLimits>): RateLimits {
  const merged = { ...RATE_LIMITS, ...limits };
  for (const [group, limit] of Object.entries(merged)) {
    if (!(group in RATE_LIMITS)) throw new Error(`rateLimits: unknown group '${group}' (known: ${Object.keys(RATE_LIMITS).join(', ')})`);
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new Error(`rateLimits.${group} must be a whole number of requests per minute, at least 1, not ${limit}`);
  }
  return merged;
}
