import 'server-only';
/**
 * Where verified results live between the callback and the result page (DESIGN.md: portraits are
 * tens of kilobytes, so never in the cookie). `ResultStore` is the seam for a shared store when
 * several instances run; the default keeps entries in memory on `globalThis` so that dev reloads
 * keep them.
 */

export interface ResultStore<T> {
  get(id: string): Promise<T | undefined>;
  set(id: string, value: T, ttlSeconds: number): Promise<void>;
  /** get and delete in one step */
  take(id: string): Promise<T | undefined>;
  delete(id: string): Promise<void>;
}

/** An in-memory store with a time-to-live and a bound on its size (oldest entries go first). */
export class MemoryResultStore<T> implements ResultStore<T> {
  readonly #entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly maxEntries = 500,
    private readonly now: () => number = Date.now,
  ) {}

  async get(id: string): Promise<T | undefined> {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry.value;
  }

  async set(id: string, value: T, ttlSeconds: number): Promise<void> {
    this.#sweep();
    this.#entries.delete(id);
    this.#entries.set(id, { value, expiresAt: this.now() + ttlSeconds * 1000 });
    // Map keeps insertion order, so the first keys are the oldest.
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries) break;
      this.#entries.delete(oldest);
    }
  }

  async take(id: string): Promise<T | undefined> {
    const value = await this.get(id);
    this.#entries.delete(id);
    return value;
  }

  async delete(id: string): Promise<void> {
    this.#entries.delete(id);
  }

  get size(): number {
    return this.#entries.size;
  }

  #sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(id);
  }
}
