import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory-store';
import { RedisStore } from '@/lib/store/redis-store';
import { startRedisServer, type RedisServer } from '@/test/support/redis-server';
import { boundedRecord, createFailureRecorder, MAX_DESCRIPTION_CHARACTERS, MAX_MESSAGE_CHARACTERS, MAX_RECORD_BYTES } from './failure-records';
import { recordStore } from './result-store';
import { STORED_FORMAT, type FailureRecord } from '@/lib/verification/stored';
import type { RecordedEvent } from '@/lib/verification/trace';

let next = 0;
function failure(overrides: Partial<FailureRecord> = {}): FailureRecord {
  return {
    format: STORED_FORMAT,
    id: `f${next++}`,
    browser: 'b'.repeat(43),
    code: 'invalid_selection',
    detail: { kind: 'unknown_value', field: 'claim', value: { text: 'shoe_size' } },
    createdAt: Date.now(),
    trace: [],
    ...overrides,
  };
}

describe('a failure record as it is kept', () => {
  it('clips the core’s message and the service’s description, and keeps a short record whole', () => {
    const short = failure({ description: 'the client is unknown' });
    expect(boundedRecord(short)).toEqual(short);
    const long = boundedRecord(
      failure({ detail: { kind: 'core_message', message: `The JWKS has no ES256 key with kid "${'x'.repeat(16_000)}"` }, description: 'd'.repeat(5000) }),
    );
    const message = long.detail?.kind === 'core_message' ? long.detail.message : '';
    expect(message).toHaveLength(MAX_MESSAGE_CHARACTERS);
    expect(message.endsWith('…')).toBe(true);
    expect(long.description).toHaveLength(MAX_DESCRIPTION_CHARACTERS);
  });

  it('drops a trace that would make it larger than its bound, keeping the code and the detail', () => {
    const entry: RecordedEvent = { type: 'note', step: 'par', at: 0, detail: { text: 'z'.repeat(4000) } };
    const kept = boundedRecord(failure({ trace: [entry, entry] }));
    expect(kept.trace).toHaveLength(2);
    const dropped = boundedRecord(failure({ trace: Array.from({ length: 10 }, () => entry) }));
    expect(dropped.trace).toEqual([]);
    expect(dropped.code).toBe('invalid_selection');
    expect(dropped.detail).toEqual(failure().detail);
    expect(JSON.stringify(dropped).length).toBeLessThanOrEqual(MAX_RECORD_BYTES);
  });
});

describe('keeping failure records', () => {
  it('keeps nothing for a request without a browser binding: no one could ever read it', async () => {
    const store = new MemoryStore();
    const recorder = createFailureRecorder(recordStore<FailureRecord>(store, 'failure'), store);
    const unbound = failure({ browser: undefined });
    expect(await recorder.keep(unbound, '192.0.2.1')).toBe(false);
    expect(store.usedBytes).toBe(0);
  });

  it('looks up what else to record only once the limits allowed the record, and keeps it with it', async () => {
    const store = new MemoryStore();
    const records = recordStore<FailureRecord>(store, 'failure');
    const recorder = createFailureRecorder(records, store, { perAddress: 1, overall: 10, windowSeconds: 60 });
    let lookups = 0;
    const more = async () => {
      lookups += 1;
      return { emulatorAnswer: { faults: ['wrong_nonce'], chosen: 'panel' as const } };
    };
    const first = failure();
    expect(await recorder.keep(first, '192.0.2.1', more)).toBe(true);
    expect((await records.get(first.id))?.emulatorAnswer).toEqual({ faults: ['wrong_nonce'], chosen: 'panel' });
    expect(await recorder.keep(failure(), '192.0.2.1', more)).toBe(false);
    expect(await recorder.keep(failure({ browser: undefined }), '192.0.2.2', more)).toBe(false);
    expect(lookups).toBe(1);
  });

  it('keeps a bound record, bounded, for the failure page', async () => {
    const store = new MemoryStore();
    const records = recordStore<FailureRecord>(store, 'failure');
    const recorder = createFailureRecorder(records, store);
    const record = failure({ detail: { kind: 'core_message', message: `The ID token cannot be verified: ${'x'.repeat(16_000)}` } });
    expect(await recorder.keep(record, '192.0.2.1')).toBe(true);
    expect((await records.get(record.id))?.detail).toEqual({ kind: 'core_message', message: expect.stringMatching(/^The ID token cannot be verified: x+…$/) });
    expect(JSON.stringify((await records.get(record.id))?.detail).length).toBeLessThan(MAX_MESSAGE_CHARACTERS + 50);
  });

  it('keeps at most perAddress records per address and overall for everyone in a window', async () => {
    const store = new MemoryStore();
    const records = recordStore<FailureRecord>(store, 'failure');
    const recorder = createFailureRecorder(records, store, { perAddress: 3, overall: 5, windowSeconds: 60 });
    const kept = [];
    for (let i = 0; i < 4; i++) kept.push(await recorder.keep(failure(), '192.0.2.1'));
    expect(kept).toEqual([true, true, true, false]);
    // Another address still has its own, until the overall limit.
    expect(await recorder.keep(failure(), '192.0.2.2')).toBe(true);
    expect(await recorder.keep(failure(), '192.0.2.3')).toBe(true);
    const refused = failure();
    expect(await recorder.keep(refused, '192.0.2.4')).toBe(false);
    expect(await records.get(refused.id)).toBeUndefined();
  });

  describe('on Redis', () => {
    let server: RedisServer;
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      await server.close();
    });

    it('counts the limits across instances', async () => {
      const [one, two] = await Promise.all([
        RedisStore.connect({ url: server.url, prefix: 'failures:' }),
        RedisStore.connect({ url: server.url, prefix: 'failures:' }),
      ]);
      try {
        const limits = { perAddress: 2, overall: 10, windowSeconds: 60 };
        const first = createFailureRecorder(recordStore<FailureRecord>(one, 'failure'), one, limits);
        const second = createFailureRecorder(recordStore<FailureRecord>(two, 'failure'), two, limits);
        expect(await first.keep(failure(), '198.51.100.7')).toBe(true);
        expect(await second.keep(failure(), '198.51.100.7')).toBe(true);
        const third = failure();
        expect(await first.keep(third, '198.51.100.7')).toBe(false);
        expect(await recordStore<FailureRecord>(two, 'failure').get(third.id)).toBeUndefined();
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  });
});
