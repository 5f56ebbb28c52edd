import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@/test/support/redis-server';
import { storeContract } from '@/test/support/store-contract';
import { RedisStore, redactRedisUrl, redisUrlProblem } from './redis-store';
import { isStoreError } from './store';

let server: RedisServer;
const opened: RedisStore[] = [];

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await server.close();
});

async function connect(prefix = 'test:'): Promise<RedisStore> {
  const store = await RedisStore.connect({ url: server.url, prefix });
  opened.push(store);
  return store;
}

storeContract('RedisStore', {
  // Two clients, two connections: what two app instances sharing one Redis are.
  open: async () => ({ store: await connect(), other: await connect() }),
  async close() {},
});

describe('RedisStore', () => {
  it('keeps each prefix apart (deployments sharing one Redis)', async () => {
    const a = await connect('a:');
    const b = await connect('b:');
    await a.set('same-key', 'from a', 60);
    expect(await b.get('same-key')).toBeUndefined();
    await b.set('same-key', 'from b', 60);
    expect(await a.get('same-key')).toBe('from a');
  });

  it('stores with Redis’s own expiry (PX)', async () => {
    const store = await connect('ttl:');
    await store.set('k', 1, 30);
    const { createClient } = await import('@redis/client');
    const raw = createClient({ url: server.url });
    await raw.connect();
    const pttl = await raw.pTTL('ttl:k');
    await raw.close();
    expect(pttl).toBeGreaterThan(29_000);
    expect(pttl).toBeLessThanOrEqual(30_000);
  });

  it('fails within a few seconds with store_unavailable while Redis is down, and works again when it returns, without a new client', async () => {
    const store = await connect('outage:');
    await store.set('kept', 'before', 60);
    await server.stop();
    const started = Date.now();
    const failure = await store.get('kept').catch((error: unknown) => error);
    expect(isStoreError(failure) && failure.code).toBe('store_unavailable');
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(store.set('x', 1, 60)).rejects.toMatchObject({ code: 'store_unavailable' });
    await expect(store.ping()).rejects.toMatchObject({ code: 'store_unavailable' });

    await server.start();
    await expect
      .poll(
        () =>
          store.ping().then(
            () => 'up',
            () => 'down',
          ),
        { timeout: 8000, interval: 200 },
      )
      .toBe('up');
    await store.set('after', 'works', 60);
    expect(await store.get('after')).toBe('works');
  }, 20_000);

  it('refuses to start when Redis cannot be reached, naming the URL without its password', async () => {
    const url = `redis://user:hunter2@127.0.0.1:${server.port + 1}`;
    const error = await RedisStore.connect({ url, prefix: 'x:' }).catch((thrown: unknown) => thrown as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(`redis://user:***@127.0.0.1:${server.port + 1}`);
    expect((error as Error).message).not.toContain('hunter2');
  }, 15_000);
});

describe('Redis URLs', () => {
  it.each([
    ['redis://localhost:6379', undefined],
    ['rediss://user:pw@cache.example:6380/2', undefined],
    ['http://localhost:6379', /must use redis:\/\/ or rediss:\/\//],
    ['localhost:6379', /must use redis/],
    ['not a url', /must be a redis:\/\/ or rediss:\/\/ URL/],
    ['redis://localhost:6379/db/extra', /database number/],
  ])('%s', (url, problem) => {
    const found = redisUrlProblem(url);
    if (problem) expect(found).toMatch(problem);
    else expect(found).toBeUndefined();
  });

  it('never shows the password', () => {
    expect(redactRedisUrl('rediss://user:s3cret@cache.example:6380/2')).toBe('rediss://user:***@cache.example:6380/2');
  });
});
