import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory-store';
import { recordStore } from './result-store';

describe('recordStore', () => {
  it('keeps each kind of record apart in one store', async () => {
    const store = new MemoryStore();
    const results = recordStore<string>(store, 'result');
    const failures = recordStore<string>(store, 'failure');
    await results.set('same-id', 'a result', 60);
    await failures.set('same-id', 'a failure', 60);
    expect(await results.get('same-id')).toBe('a result');
    expect(await failures.take('same-id')).toBe('a failure');
    expect(await failures.get('same-id')).toBeUndefined();
    expect(await store.get('result:same-id')).toBe('a result');
  });

  it('take returns a record once; delete removes it', async () => {
    const flows = recordStore<{ issuer: string }>(new MemoryStore(), 'flow');
    await flows.set('state-1', { issuer: 'https://idv.example' }, 60);
    expect(await flows.take('state-1')).toEqual({ issuer: 'https://idv.example' });
    expect(await flows.take('state-1')).toBeUndefined();
    await flows.set('state-2', { issuer: 'x' }, 60);
    await flows.delete('state-2');
    expect(await flows.get('state-2')).toBeUndefined();
  });
});
