import { describe, expect, it } from 'vitest';
import { MemoryResultStore } from './result-store';

describe('MemoryResultStore', () => {
  it('returns a value until its time-to-live passes', async () => {
    let now = 0;
    const store = new MemoryResultStore<string>(10, () => now);
    await store.set('a', 'A', 60);
    now = 59_999;
    expect(await store.get('a')).toBe('A');
    now = 60_000;
    expect(await store.get('a')).toBeUndefined();
  });

  it('take returns the value once', async () => {
    const store = new MemoryResultStore<string>();
    await store.set('a', 'A', 60);
    expect(await store.take('a')).toBe('A');
    expect(await store.take('a')).toBeUndefined();
  });

  it('evicts the oldest entries beyond its bound', async () => {
    const store = new MemoryResultStore<number>(3);
    for (let i = 0; i < 5; i++) await store.set(`k${i}`, i, 60);
    expect(store.size).toBe(3);
    expect(await store.get('k0')).toBeUndefined();
    expect(await store.get('k4')).toBe(4);
  });
});
