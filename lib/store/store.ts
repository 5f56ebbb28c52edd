/**
 * The state layer shared by the app and the embedded emulator (docs/operations.md "Run
 * several instances"): a key-value store whose entries expire, with the two atomic operations one-time
 * items need (`take` and `setIfAbsent`). Two implementations keep the same contract: in memory
 * (one instance, nothing to install) and Redis (several instances, or a serverless host).
 *
 * Values are JSON: both implementations store the serialised text, so a value read back is a
 * copy, never the object that was stored, whichever store runs.
 */

/**
 * A key-value store with time-to-live. A store that cannot serve rejects with `StoreError`; a
 * value JSON cannot hold or a TTL that is not positive is a programming error (TypeError,
 * RangeError).
 */
export interface Store {
  /** What is stored under `key`, or undefined when nothing is (never stored, expired, deleted or taken). */
  get<T>(key: string): Promise<T | undefined>;
  /** Stores `value` under `key` for `ttlSeconds` (fractions allowed), replacing what was there. */
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /**
   * Stores `value` only if nothing is stored under `key`; true when it was stored. Of callers
   * racing on one key (in one process or in several), exactly one gets true.
   */
  setIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean>;
  /**
   * Returns what is stored under `key` and deletes it, in one atomic step: of callers racing on
   * one key, exactly one gets the value.
   */
  take<T>(key: string): Promise<T | undefined>;
  /**
   * Replaces what is stored under `key` only if something is (not expired, taken or deleted); true
   * when it was replaced. Atomic: never brings back an entry another caller took meanwhile.
   */
  replace(key: string, value: unknown, ttlSeconds: number): Promise<boolean>;
  /**
   * Keeps `value` under `key` for another `ttlSeconds`, in one atomic step: when this very value
   * (the same JSON) is stored there, its TTL starts again (`renewed`); when nothing is, it is
   * stored (`stored`); any other value is left as it is (`different`). So a renewal never
   * overwrites what another caller stored since this one last read it.
   */
  renew(key: string, value: unknown, ttlSeconds: number): Promise<Renewal>;
  delete(key: string): Promise<void>;
  /**
   * Stores `value` under `key` as `set` does and records, in the same atomic step, that `owner`
   * owns it: `deleteOwned(owner)` deletes it with everything else `owner` owns. The record of
   * what an owner owns lives as long as the longest-lived of its keys.
   */
  setOwned(owner: string, key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /**
   * Deletes every key `owner` owns (`setOwned`) and the record of them, in one atomic step;
   * resolves with how many keys were still there to delete.
   */
  deleteOwned(owner: string): Promise<number>;
  /**
   * A rate limit counted in this store, so that with a shared store it holds across instances: at
   * most `points` events per key in each window of `windowSeconds`. One name, one limit.
   */
  limiter(name: string, points: number, windowSeconds: number): Limiter;
  /** Resolves when the store answers (the readiness check). */
  ping(): Promise<void>;
  /** Releases connections; the store is not used afterwards. */
  close(): Promise<void>;
  /** What the start-up line and the readiness check say about it, without secrets. */
  readonly description: string;
}

/** What `Store.renew` found: the same value (renewed), none (stored), or another (left alone). */
export type Renewal = 'renewed' | 'stored' | 'different';

/** Counts events per key against a limit (Store.limiter). */
export interface Limiter {
  /**
   * Counts one event for `key` (a client address, a client id).
   * @throws LimitReached when the key is over its limit (nothing is counted for it);
   *   StoreError `store_unavailable` when the shared store cannot count
   */
  consume(key: string): Promise<void>;
}

/** An event over its rate limit: the caller answers 429 with `Retry-After`. */
export class LimitReached extends Error {
  readonly brand = 'LimitReached';

  constructor(
    /** seconds until the window ends and the key may act again (at least 1) */
    readonly retryAfterSeconds: number,
  ) {
    super(`rate limit reached; retry after ${retryAfterSeconds} s`);
    this.name = 'LimitReached';
  }
}

export function isLimitReached(error: unknown): error is LimitReached {
  return error instanceof LimitReached || (typeof error === 'object' && error !== null && (error as { brand?: unknown }).brand === 'LimitReached');
}

/**
 * - `store_full`: the in-memory store has reached its memory budget and refuses new entries
 *   (it never evicts one); retry later. HTTP 503.
 * - `store_unavailable`: the shared store cannot be reached or did not answer in time. HTTP 503.
 */
export type StoreErrorCode = 'store_full' | 'store_unavailable';

/** A store that cannot do what was asked now; nothing stored was lost. */
export class StoreError extends Error {
  /** Recognised across copies of this module (Next.js may bundle one per route), like `isStoreError`. */
  readonly brand = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    /** seconds after which trying again makes sense (the `Retry-After` of a 503) */
    readonly retryAfterSeconds: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

export function isStoreError(error: unknown): error is StoreError {
  return error instanceof StoreError || (typeof error === 'object' && error !== null && (error as { brand?: unknown }).brand === 'StoreError');
}

/** Refuses a TTL that is not a positive, finite number of seconds (a programming error, not input). */
export function checkTtl(ttlSeconds: number): number {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new RangeError(`ttlSeconds must be a positive number, not ${ttlSeconds}`);
  return ttlSeconds;
}

/** The JSON text of a value; `undefined` (which JSON cannot hold) is refused. */
export function serialise(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('a store value must be JSON-serialisable');
  return text;
}

/**
 * The same store with every key under `prefix`: the app and its embedded emulator share one
 * store (one Redis) without sharing keys. Closing the view closes nothing; the owner closes.
 */
export function namespaced(store: Store, prefix: string): Store {
  return {
    description: `${store.description}, under '${prefix}'`,
    get: (key) => store.get(prefix + key),
    set: (key, value, ttlSeconds) => store.set(prefix + key, value, ttlSeconds),
    setIfAbsent: (key, value, ttlSeconds) => store.setIfAbsent(prefix + key, value, ttlSeconds),
    take: (key) => store.take(prefix + key),
    replace: (key, value, ttlSeconds) => store.replace(prefix + key, value, ttlSeconds),
    renew: (key, value, ttlSeconds) => store.renew(prefix + key, value, ttlSeconds),
    delete: (key) => store.delete(prefix + key),
    setOwned: (owner, key, value, ttlSeconds) => store.setOwned(prefix + owner, prefix + key, value, ttlSeconds),
    deleteOwned: (owner) => store.deleteOwned(prefix + owner),
    limiter: (name, points, windowSeconds) => store.limiter(prefix + name, points, windowSeconds),
    ping: () => store.ping(),
    close: async () => {},
  };
}
