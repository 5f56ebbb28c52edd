/**
 * The in-memory store: the default, for one instance, with nothing to install. It is bounded by a
 * memory budget and, when full, refuses new entries with `store_full` (a 503 with Retry-After)
 * instead of evicting one: an evicted pending flow or result would be someone's verification
 * lost without a word. Expired entries are swept before a refusal, so only live entries count.
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { asLimiter, checkLimit } from './limiter';
import { StoreError, checkTtl, serialise, type Limiter, type Renewal, type Store } from './store';

interface Entry {
  text: string;
  /** ms since the epoch */
  expiresAt: number;
  /** what this entry counts against the budget */
  bytes: number;
}

/** Bytes an entry costs: its key and JSON text (UTF-16 in memory), plus the Map's own overhead. */
function cost(key: string, text: string): number {
  return 2 * (key.length + text.length) + 96;
}

/** Where the keys an owner owns are listed (a key the app's own keys never take: they name their kind first). */
function ownerKey(owner: string): string {
  return `\u0000owned:${owner}`;
}

export interface MemoryStoreOptions {
  /** the most bytes of keys and values held at once; default 64 MiB */
  budgetBytes?: number;
  /** clock in ms, for tests */
  now?: () => number;
}

export class MemoryStore implements Store {
  readonly description: string;
  readonly #entries = new Map<string, Entry>();
  readonly #budget: number;
  readonly #now: () => number;
  /** Limiters by name: every caller of one name counts against the same events, as on Redis. */
  readonly #limiters = new Map<string, Limiter>();
  #used = 0;
  #nextSweepAt = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#budget = options.budgetBytes ?? 64 * 1024 * 1024;
    this.#now = options.now ?? Date.now;
    this.description = `in memory (this instance only; budget ${Math.round(this.#budget / 1024 / 1024)} MiB)`;
  }

  /** Bytes held by live and not yet swept entries. */
  get usedBytes(): number {
    return this.#used;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.#live(key);
    return entry ? (JSON.parse(entry.text) as T) : undefined;
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    this.#put(key, serialise(value), checkTtl(ttlSeconds));
  }

  async setIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    const text = serialise(value);
    checkTtl(ttlSeconds);
    // No await between the check and the write: one caller wins, as on Redis.
    if (this.#live(key)) return false;
    this.#put(key, text, ttlSeconds);
    return true;
  }

  async take<T>(key: string): Promise<T | undefined> {
    const entry = this.#live(key);
    if (!entry) return undefined;
    this.#remove(key, entry);
    return JSON.parse(entry.text) as T;
  }

  async replace(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    const text = serialise(value);
    checkTtl(ttlSeconds);
    // No await between the check and the write, as in setIfAbsent.
    if (!this.#live(key)) return false;
    this.#put(key, text, ttlSeconds);
    return true;
  }

  async renew(key: string, value: unknown, ttlSeconds: number): Promise<Renewal> {
    const text = serialise(value);
    checkTtl(ttlSeconds);
    // No await between the check and the write, as in setIfAbsent.
    const entry = this.#live(key);
    if (entry && entry.text !== text) return 'different';
    this.#put(key, text, ttlSeconds);
    return entry ? 'renewed' : 'stored';
  }

  /**
   * Rate-limit counters live beside the entries, outside the budget: each is a number per key
   * and window, dropped when its window ends.
   */
  limiter(name: string, points: number, windowSeconds: number): Limiter {
    checkLimit(points, windowSeconds);
    let limiter = this.#limiters.get(name);
    if (!limiter) {
      limiter = asLimiter(new RateLimiterMemory({ keyPrefix: name, points, duration: windowSeconds }));
      this.#limiters.set(name, limiter);
    }
    return limiter;
  }

  async setOwned(owner: string, key: string, value: unknown, ttlSeconds: number): Promise<void> {
    const text = serialise(value);
    checkTtl(ttlSeconds);
    // No await between the steps: atomic, as on Redis. The owner's list first: if the value does
    // not fit, the list names a key that is not there, which deleteOwned passes over.
    const listKey = ownerKey(owner);
    const list = this.#live(listKey);
    const now = this.#now();
    const keys = (list ? (JSON.parse(list.text) as string[]) : []).filter((owned) => owned !== key && this.#live(owned));
    keys.push(key);
    const listTtl = Math.max(ttlSeconds, list ? (list.expiresAt - now) / 1000 : 0);
    this.#put(listKey, JSON.stringify(keys), listTtl);
    this.#put(key, text, ttlSeconds);
  }

  async deleteOwned(owner: string): Promise<number> {
    const list = this.#live(ownerKey(owner));
    if (!list) return 0;
    let deleted = 0;
    for (const key of JSON.parse(list.text) as string[]) {
      const entry = this.#live(key);
      if (entry) {
        this.#remove(key, entry);
        deleted++;
      }
    }
    this.#remove(ownerKey(owner), list);
    return deleted;
  }

  async delete(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry) this.#remove(key, entry);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  #put(key: string, text: string, ttlSeconds: number): void {
    const bytes = cost(key, text);
    const previous = this.#live(key);
    const needed = this.#used - (previous?.bytes ?? 0) + bytes;
    if (needed > this.#budget) {
      this.#sweep(true);
      if (this.#used - (previous?.bytes ?? 0) + bytes > this.#budget) {
        throw new StoreError('store_full', 'the in-memory store is full; nothing was stored, and nothing stored was lost', 30);
      }
    } else {
      this.#sweep(false);
    }
    if (previous) this.#remove(key, previous);
    this.#entries.set(key, { text, expiresAt: this.#now() + ttlSeconds * 1000, bytes });
    this.#used += bytes;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#remove(key, entry);
      return undefined;
    }
    return entry;
  }

  #remove(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#used -= entry.bytes;
  }

  /** Drops expired entries at most once a second, or at once when the budget is reached. */
  #sweep(force: boolean): void {
    const now = this.#now();
    if (!force && now < this.#nextSweepAt) return;
    this.#nextSweepAt = now + 1000;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#remove(key, entry);
  }
}
