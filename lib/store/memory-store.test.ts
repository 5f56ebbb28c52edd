import { describe, expect, it } from 'vitest';
import { storeContract } from '@/test/support/store-contract';
import { MemoryStore } from './memory-store';
import { isStoreError } from './store';

storeContract('MemoryStore', {
  async open() {
    const store = new MemoryStore();
    // In one process, "another instance" is the same store: its callers race in one event loop.
    return { store, other: store };
  },
  async close() {},
});

describe('MemoryStore: the memory budget', () => {
  const entry = { payload: 'x'.repeat(1000) };

  it('refuses a new entry with store_full (503, Retry-After) when full, and loses nothing already stored', async () => {
    const store = new MemoryStore({ budgetBytes: 20_000 });
    let stored = 0;
    let refusal: unknown;
    for (; stored < 100; stored += 1) {
      try {
        await store.set(`flow:${stored}`, entry, 600);
      } catch (error) {
        refusal = error;
        break;
      }
    }
    expect(stored).toBeGreaterThan(5);
    expect(stored).toBeLessThan(100);
    expect(isStoreError(refusal) && refusal.code).toBe('store_full');
    expect(isStoreError(refusal) && refusal.retryAfterSeconds).toBeGreaterThan(0);
    for (let index = 0; index < stored; index += 1) expect(await store.get(`flow:${index}`)).toEqual(entry);
    expect(await store.get(`flow:${stored}`)).toBeUndefined();
    await expect(store.setIfAbsent('another', entry, 600)).rejects.toMatchObject({ code: 'store_full' });
  });

  it('makes room when entries are taken, deleted or expire, and lets an entry be replaced in place', async () => {
    let now = 0;
    const probe = new MemoryStore();
    await probe.set('three-more', entry, 1);
    // Room for eight entries and not nine.
    const store = new MemoryStore({ budgetBytes: Math.floor(8.5 * probe.usedBytes), now: () => now });
    for (let index = 0; index < 4; index += 1) await store.set(`short:${index}`, entry, 10);
    for (let index = 0; index < 4; index += 1) await store.set(`long:${index}`, entry, 600);
    await expect(store.set('one-more', entry, 600)).rejects.toMatchObject({ code: 'store_full' });

    // Replacing an entry with one of the same size needs no room.
    await store.set('long:0', { payload: 'y'.repeat(1000) }, 600);

    await store.take('long:1');
    await store.set('one-more', entry, 600);
    await store.delete('long:2');
    await store.set('two-more', entry, 600);
    await expect(store.set('three-more', entry, 600)).rejects.toMatchObject({ code: 'store_full' });

    now += 11_000; // the short entries expire
    await store.set('three-more', entry, 600);
    expect(await store.get('long:3')).toEqual(entry);
  });
});
