import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_ASSERTION_LIFETIME_SECONDS,
  EDDSA_ASSERTION_BURST,
  createClientAssertion,
  generateClientKeys,
  isIdvError,
  type GeneratedClientKeys,
} from '@/lib/oidc';
import { MemoryStore } from '@/lib/store/memory-store';
import { RedisStore } from '@/lib/store/redis-store';
import { isStoreError, type Store } from '@/lib/store/store';
import { startRedisServer, type RedisServer } from '@/test/support/redis-server';
import { storeExpAllocator } from './client-assertion-exps';

const AUDIENCE = 'https://idv.example';

let redis: RedisServer;
let keys: GeneratedClientKeys;
const opened: RedisStore[] = [];
let prefixes = 0;

beforeAll(async () => {
  [redis, keys] = await Promise.all([startRedisServer(), generateClientKeys('EdDSA')]);
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis.close();
});

/** Two instances' stores: two connections to one redis-server, under one prefix, as two app instances have. */
async function twoRedisStores(): Promise<[RedisStore, RedisStore]> {
  const prefix = `assertion-exps-${++prefixes}:`;
  const stores: [RedisStore, RedisStore] = [await RedisStore.connect({ url: redis.url, prefix }), await RedisStore.connect({ url: redis.url, prefix })];
  opened.push(...stores);
  return stores;
}

/**
 * `count` client assertions at once, from the same EdDSA key, at the same moment, each through
 * the allocator of the store it is given in turn: every exp made, and every refusal.
 */
async function burst(stores: Store[], count: number, now: number): Promise<{ exps: number[]; assertions: string[]; refusals: unknown[] }> {
  const client = { clientId: 'client-1', signingKey: keys.signingKey };
  const outcomes = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      createClientAssertion({ client, audience: AUDIENCE, now, expAllocator: storeExpAllocator(stores[i % stores.length]!) }),
    ),
  );
  const assertions = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  return {
    assertions,
    exps: assertions.map((assertion) => decodeJwt(assertion).exp!),
    refusals: outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : [])),
  };
}

describe('storeExpAllocator: the exp seconds of an EdDSA key, claimed in the shared store', () => {
  it('never hands out one second twice to two instances on one real Redis, racing for the same seconds', async () => {
    const [one, two] = await twoRedisStores();
    const [a, b] = [storeExpAllocator(one), storeExpAllocator(two)];
    const second = Math.floor(Date.now() / 1000) + 60;
    const races = await Promise.all(
      Array.from({ length: 200 }, (_, i) => Promise.all([a.claimExp('kid-1', second - (i % 40)), b.claimExp('kid-1', second - (i % 40))])),
    );
    const granted = races.flat().filter(Boolean).length;
    // Forty distinct seconds, each granted once, to one of the two.
    expect(granted).toBe(40);
    // Another key's seconds are its own.
    expect(await b.claimExp('kid-2', second)).toBe(true);
  });

  it('gives a burst across two instances on one real Redis distinct exps within the lifetime, and refuses the rest with client_assertion_rate_exceeded', async () => {
    const stores = await twoRedisStores();
    const now = Date.now();
    const { exps, assertions, refusals } = await burst(stores, 60, now);
    expect(new Set(exps).size).toBe(exps.length);
    expect(new Set(assertions).size).toBe(assertions.length);
    for (const exp of exps) {
      expect(exp).toBeLessThanOrEqual(now / 1000 + CLIENT_ASSERTION_LIFETIME_SECONDS);
      expect(exp - now / 1000).toBeGreaterThan(CLIENT_ASSERTION_LIFETIME_SECONDS - EDDSA_ASSERTION_BURST);
    }
    expect(exps).toHaveLength(EDDSA_ASSERTION_BURST);
    expect(refusals).toHaveLength(60 - EDDSA_ASSERTION_BURST);
    for (const refusal of refusals) expect(isIdvError(refusal) && refusal.code).toBe('client_assertion_rate_exceeded');

    // Another process knows nothing of this one's memory (the core's in-process record, which
    // every copy of the core in a process shares under a registered symbol): forgotten here, the
    // seconds are still taken, in Redis.
    (globalThis as Record<symbol, unknown>)[Symbol.for('idv-oidc.client-assertion.used-eddsa-exp-seconds')] = new Map();
    const later = await burst([stores[1]], 5, now);
    expect(later.exps).toEqual([]);
    for (const refusal of later.refusals) expect(isIdvError(refusal) && refusal.code).toBe('client_assertion_rate_exceeded');
  });

  it('holds each claim in Redis no longer than an assertion lives', async () => {
    const [store] = await twoRedisStores();
    const now = Date.now();
    const [exp] = (await burst([store], 1, now)).exps;
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: redis.url });
    await raw.connect();
    const pttl = await raw.pTTL(`assertion-exps-${prefixes}:client-assertion-exp:${keys.signingKey.kid}:${exp}`);
    await raw.close();
    expect(pttl).toBeGreaterThan((CLIENT_ASSERTION_LIFETIME_SECONDS - 5) * 1000);
    expect(pttl).toBeLessThanOrEqual(CLIENT_ASSERTION_LIFETIME_SECONDS * 1000);
  });

  it('does the same in memory, for one instance', async () => {
    const now = Date.now() + 3_600_000;
    const { exps, refusals } = await burst([new MemoryStore()], 40, now);
    expect(new Set(exps).size).toBe(EDDSA_ASSERTION_BURST);
    expect(Math.max(...exps)).toBeLessThanOrEqual(now / 1000 + CLIENT_ASSERTION_LIFETIME_SECONDS);
    expect(refusals).toHaveLength(40 - EDDSA_ASSERTION_BURST);
  });

  it('fails with the store’s store_unavailable, not a replayable assertion, while Redis is down', async () => {
    const [store] = await twoRedisStores();
    await redis.stop();
    try {
      const { exps, refusals } = await burst([store], 1, Date.now());
      expect(exps).toEqual([]);
      expect(isStoreError(refusals[0]) && refusals[0].code).toBe('store_unavailable');
    } finally {
      await redis.start();
    }
  });
});
