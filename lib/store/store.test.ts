import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store';
import { StoreError, isStoreError, namespaced } from './store';

describe('namespaced', () => {
  it('keeps every key of the view under its prefix, and leaves the store open when the view closes', async () => {
    const store = new MemoryStore();
    const emulator = namespaced(store, 'emulator:');
    await emulator.set('code:1', 'a', 60);
    expect(await store.get('emulator:code:1')).toBe('a');
    expect(await store.get('code:1')).toBeUndefined();
    expect(await emulator.setIfAbsent('code:1', 'b', 60)).toBe(false);
    expect(await emulator.take('code:1')).toBe('a');
    await emulator.close();
    await store.set('k', 1, 60);
    expect(await store.get('k')).toBe(1);
    expect(emulator.description).toContain("under 'emulator:'");
  });
});

describe('isStoreError', () => {
  it('recognises a StoreError, also one from another copy of this module (by its brand)', () => {
    expect(isStoreError(new StoreError('store_full', 'full', 30))).toBe(true);
    expect(isStoreError({ brand: 'StoreError', code: 'store_unavailable' })).toBe(true);
    expect(isStoreError(new Error('other'))).toBe(false);
    expect(isStoreError(undefined)).toBe(false);
  });
});
