/**
 * In-memory state with a time-to-live: pushed requests, interactions, authorization codes and
 * seen client assertions. One instance per kind of state, per emulator.
 * @see spec part 3 (objects produced in flow order), part 8 (lifetimes)
 */
import { MAX_STORE_ENTRIES } from './config';
import { TemporarilyUnavailable } from './errors';

interface Entry<T> {
  value: T;
  expiresAt: number;
  /** set by `take`: the entry stays as a tombstone until it expires, so reuse can be told apart */
  taken: boolean;
}

/**
 * A map whose entries expire. `take` is the one-time read of RFC 9126 §7.3 and RFC 6749 §4.1.2:
 * the value is returned once, and `wasTaken` remembers that it was until it would have expired.
 * @see spec part 3
 */
export class TtlStore<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private nextSweepAt = 0;

  /** @param now clock in ms */
  constructor(
    private readonly now: () => number,
    private readonly maxEntries = MAX_STORE_ENTRIES,
  ) {}

  /** Adds a value for `ttlSeconds`; refuses with 503 rather than grow past the bound. */
  set(key: string, value: T, ttlSeconds: number): void {
    this.sweep(this.entries.size >= this.maxEntries);
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) {
      throw new TemporarilyUnavailable('too many pending requests; try again later');
    }
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000, taken: false });
  }

  /** The value if present, not expired and not taken. */
  get(key: string): T | undefined {
    const entry = this.live(key);
    return entry && !entry.taken ? entry.value : undefined;
  }

  /** Returns the value and marks it used, atomically (no await in between). */
  take(key: string): T | undefined {
    const entry = this.live(key);
    if (!entry || entry.taken) return undefined;
    entry.taken = true;
    return entry.value;
  }

  /** Whether `take` already returned this key's value (and it has not expired since). */
  wasTaken(key: string): boolean {
    return this.live(key)?.taken ?? false;
  }

  private live(key: string): Entry<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops expired entries at most once a second (or when full), so each call stays cheap. */
  private sweep(force: boolean): void {
    const now = this.now();
    if (!force && now < this.nextSweepAt) return;
    this.nextSweepAt = now + 1000;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
    }
  }
}
