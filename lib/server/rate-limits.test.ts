import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory-store';
import { RedisStore } from '@/lib/store/redis-store';
import { isStoreError } from '@/lib/store/store';
import { startRedisServer, type RedisServer } from '@/test/support/redis-server';
import { createStartLimiter, isRateLimited, type StartLimiter } from './rate-limits';

const LIMITS = { perAddress: 3, overall: 5, windowSeconds: 60 };

async function attempts(limiter: StartLimiter, addresses: string[]): Promise<string[]> {
  const outcomes: string[] = [];
  for (const address of addresses) {
    outcomes.push(
      await limiter.consume(address).then(
        () => 'ok',
        (error: unknown) => (isRateLimited(error) ? `limited:${error.scope}` : `error:${(error as Error).message}`),
      ),
    );
  }
  return outcomes;
}

describe('start rate limits in memory', () => {
  it('refuses an address over its limit, and everyone over the overall limit, with a Retry-After', async () => {
    const limiter = createStartLimiter(new MemoryStore(), LIMITS);
    expect(await attempts(limiter, ['a', 'a', 'a', 'a'])).toEqual(['ok', 'ok', 'ok', 'limited:address']);
    // 'a' used three of the five overall; 'b' gets two, then everyone is refused.
    expect(await attempts(limiter, ['b', 'b', 'c'])).toEqual(['ok', 'ok', 'limited:overall']);
    const refusal = await limiter.consume('d').catch((error: unknown) => error);
    expect(isRateLimited(refusal) && refusal.retryAfterSeconds).toBeGreaterThan(0);
    expect(isRateLimited(refusal) && refusal.retryAfterSeconds).toBeLessThanOrEqual(60);
  });
});

describe('start rate limits in Redis', () => {
  let server: RedisServer;
  const stores: RedisStore[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await server.close();
  });
  const limiterOnInstance = async () => {
    const store = await RedisStore.connect({ url: server.url, prefix: 'rl:' });
    stores.push(store);
    return createStartLimiter(store, LIMITS);
  };

  it('holds across instances sharing one Redis', async () => {
    const [one, two] = [await limiterOnInstance(), await limiterOnInstance()];
    expect(await attempts(one, ['x', 'x'])).toEqual(['ok', 'ok']);
    expect(await attempts(two, ['x', 'x'])).toEqual(['ok', 'limited:address']);
  });

  it('answers store_unavailable at once while Redis is down', async () => {
    const limiter = await limiterOnInstance();
    await server.stop();
    const started = Date.now();
    const failure = await limiter.consume('y').catch((error: unknown) => error);
    expect(isStoreError(failure) && failure.code).toBe('store_unavailable');
    expect(Date.now() - started).toBeLessThan(3000);
    await server.start();
  });
});
