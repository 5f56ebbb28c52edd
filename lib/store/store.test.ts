import { describe, expect, it } from 'vitest';
import { MemoryStore } from './memory-store';
import { LimitReached, StoreError, isLimitReached, isStoreError, namespaced } from './store';

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

  it('replaces, renews and counts rate limits under its prefix too', async () => {
    const store = new MemoryStore();
    const emulator = namespaced(store, 'emulator:');
    await store.set('emulator:flow', 1, 60);
    expect(await emulator.replace('flow', 2, 60)).toBe(true);
    expect(await store.get('emulator:flow')).toBe(2);
    expect(await emulator.replace('other', 1, 60)).toBe(false);
    expect(await emulator.renew('flow', 2, 60)).toBe('renewed');
    expect(await emulator.renew('keys', 'pair', 60)).toBe('stored');
    expect(await store.get('emulator:keys')).toBe('pair');
    expect(await store.get('keys')).toBeUndefined();
    await emulator.limiter('par', 1, 60).consume('client');
    // The view's limit is its own: the store's limiter of the same name has not counted.
    await expect(store.limiter('par', 1, 60).consume('client')).resolves.toBeUndefined();
    await expect(store.limiter('emulator:par', 1, 60).consume('client')).rejects.toSatisfy(isLimitReached);
  });
});

describe('isLimitReached', () => {
  it('recognises a LimitReached, also one from another copy of this module (by its brand)', () => {
    expect(isLimitReached(new LimitReached(3))).toBe(true);
    expect(isLimitReached({ brand: 'LimitReached', retryAfterSeconds: 1 })).toBe(true);
    expect(isLimitReached(new StoreError('store_full', 'full', 30))).toBe(false);
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
