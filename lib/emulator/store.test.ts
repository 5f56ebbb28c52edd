import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store';
import { Records } from './store';

describe('Records', () => {
  const setup = () => {
    let now = 1_000_000;
    const store = new MemoryStore({ now: () => now });
    return { store, records: new Records<{ step: number }>(store, 'interaction', () => now), advance: (ms: number) => (now += ms) };
  };

  it('update writes back a changed value and keeps the expiry it was stored with', async () => {
    const { records, advance } = setup();
    await records.set('i1', { step: 1 }, 600);
    advance(500_000);
    expect(await records.update('i1', { step: 2 })).toBe(true);
    expect(await records.get('i1')).toEqual({ step: 2 });
    advance(100_001);
    expect(await records.get('i1')).toBeUndefined();
    expect(await records.update('i1', { step: 3 })).toBe(false);
  });

  it('update of an item taken meanwhile fails and does not bring it back', async () => {
    const { records } = setup();
    await records.set('i2', { step: 1 }, 600);
    // Read-modify-write on one instance, a completion on another in between.
    const [updated, taken] = await Promise.all([records.update('i2', { step: 2 }), records.take('i2')]);
    expect(taken).toEqual({ step: 1 });
    expect(updated).toBe(false);
    expect(await records.get('i2')).toBeUndefined();
    expect(await records.wasTaken('i2')).toBe(true);
  });

  it('take returns an item once, and remembers it was taken until it would have expired', async () => {
    const { records, advance } = setup();
    await records.set('c1', { step: 1 }, 60);
    expect(await records.take('c1')).toEqual({ step: 1 });
    expect(await records.take('c1')).toBeUndefined();
    expect(await records.wasTaken('c1')).toBe(true);
    expect(await records.wasTaken('never')).toBe(false);
    advance(60_001);
    expect(await records.wasTaken('c1')).toBe(false);
  });
});
