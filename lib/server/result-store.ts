import 'server-only';
/**
 * The app's records in the shared state layer (lib/store): verified results, failure records and
 * pending flows, each kind under its own key namespace. Portraits are tens of kilobytes, so
 * results never go in the cookie (ARCHITECTURE.md "Security choices"). Which store backs them (memory or Redis) is
 * decided once, in services.ts.
 */
import type { Store } from '@/lib/store/store';

/** One kind of record, by id, with a time-to-live. Failures are `StoreError`s. */
export interface RecordStore<T> {
  get(id: string): Promise<T | undefined>;
  set(id: string, value: T, ttlSeconds: number): Promise<void>;
  /** `set`, and `owner` owns it (`Store.setOwned`): sign-out deletes what a browser owns at once. */
  setOwned(owner: string, id: string, value: T, ttlSeconds: number): Promise<void>;
  /** get and delete in one atomic step: of two requests racing on one id, one gets the record */
  take(id: string): Promise<T | undefined>;
  delete(id: string): Promise<void>;
}

/** The owner a browser's records are kept under (`Store.setOwned`), by its session binding. */
export function ownerOf(browser: string): string {
  return `browser:${browser}`;
}

/** The records of one kind (`result`, `failure`, `flow`), kept under `<kind>:<id>`. */
export function recordStore<T>(store: Store, kind: string): RecordStore<T> {
  const key = (id: string) => `${kind}:${id}`;
  return {
    get: (id) => store.get<T>(key(id)),
    set: (id, value, ttlSeconds) => store.set(key(id), value, ttlSeconds),
    setOwned: (owner, id, value, ttlSeconds) => store.setOwned(ownerOf(owner), key(id), value, ttlSeconds),
    take: (id) => store.take<T>(key(id)),
    delete: (id) => store.delete(key(id)),
  };
}
