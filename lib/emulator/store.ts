/**
 * The emulator's state in a `Store` (lib/store): pushed requests, interactions, authorization
 * codes and seen client assertions, each kind under its own key prefix. In memory by default;
 * the app passes its own store, so with Redis every instance sees the same state and one-time
 * items are consumed once across all of them (the store's `take` and `setIfAbsent` are atomic).
 * @see spec part 3 (objects produced in flow order), part 8 (lifetimes)
 */
import type { Store } from '../store/store';

/** What is stored: the value and when it expires (ms), so a consumed item's tombstone can outlive it exactly. */
interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * One kind of item with a time-to-live. `take` is the one-time read of RFC 9126 §7.3 and RFC 6749
 * §4.1.2: the value is returned once, and `wasTaken` remembers that it was until it would have
 * expired (so "already used" can be told from "unknown or expired").
 */
export class Records<T> {
  /**
   * @param kind key prefix, e.g. "par"
   * @param now clock in ms (the emulator's)
   */
  constructor(
    private readonly store: Store,
    private readonly kind: string,
    private readonly now: () => number,
  ) {}

  /** Stores a value for `ttlSeconds`, replacing one stored under the key. */
  async set(key: string, value: T, ttlSeconds: number): Promise<void> {
    await this.store.set(this.#key(key), { value, expiresAt: this.now() + ttlSeconds * 1000 } satisfies Entry<T>, ttlSeconds);
  }

  /** Stores a value only if none is stored under the key; true when it was stored. */
  async setIfAbsent(key: string, value: T, ttlSeconds: number): Promise<boolean> {
    return this.store.setIfAbsent(this.#key(key), { value, expiresAt: this.now() + ttlSeconds * 1000 } satisfies Entry<T>, ttlSeconds);
  }

  /**
   * Writes back a changed value, keeping the expiry it was stored with; false once it is gone.
   * The write is the store's atomic `replace`, so an item taken (or expired) between the read and
   * the write stays gone: an interaction completed on another instance is never brought back.
   */
  async update(key: string, value: T): Promise<boolean> {
    const entry = await this.store.get<Entry<T>>(this.#key(key));
    const remaining = entry ? (entry.expiresAt - this.now()) / 1000 : 0;
    if (!entry || remaining <= 0) return false;
    return this.store.replace(this.#key(key), { value, expiresAt: entry.expiresAt } satisfies Entry<T>, remaining);
  }

  /** The value if present and not expired or taken. */
  async get(key: string): Promise<T | undefined> {
    return (await this.store.get<Entry<T>>(this.#key(key)))?.value;
  }

  /** Returns the value and removes it, atomically: of callers racing on one key, one gets it. */
  async take(key: string): Promise<T | undefined> {
    const entry = await this.store.take<Entry<T>>(this.#key(key));
    if (!entry) return undefined;
    const remaining = (entry.expiresAt - this.now()) / 1000;
    if (remaining > 0) await this.store.set(this.#tombstone(key), true, remaining);
    return entry.value;
  }

  /** Whether `take` already returned this key's value (and it has not expired since). */
  async wasTaken(key: string): Promise<boolean> {
    return (await this.store.get<boolean>(this.#tombstone(key))) === true;
  }

  #key(key: string): string {
    return `${this.kind}:${key}`;
  }

  #tombstone(key: string): string {
    return `${this.kind}-taken:${key}`;
  }
}
