import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory-store';
import { RedisStore } from '@/lib/store/redis-store';
import { startRedisServer } from '@/test/support/redis-server';
import { ConfigurationError } from './env';
import { readiness } from './health';

describe('readiness', () => {
  it('is ready with a valid configuration and a store that answers', async () => {
    const result = await readiness(async () => ({ config: { mode: 'emulator', state: { store: 'memory' } }, store: new MemoryStore() }));
    expect(result).toEqual({ status: 'ready', checks: { configuration: 'ok', store: 'ok' }, store: 'memory', mode: 'emulator' });
  });

  it('is not ready, without details, when the configuration is invalid', async () => {
    const result = await readiness(async () => {
      throw new ConfigurationError('REDIS_URL', 'cannot connect to Redis at redis://u:***@cache:6379');
    });
    expect(result).toEqual({ status: 'not_ready', checks: { configuration: 'invalid', store: 'not_checked' } });
  });

  it('is not ready while Redis is down, and ready again when it returns', async () => {
    const server = await startRedisServer();
    const store = await RedisStore.connect({ url: server.url, prefix: 'health:' });
    const load = async () => ({ config: { mode: 'provider' as const, state: { store: 'redis' as const, url: server.url, prefix: 'health:' } }, store });
    try {
      expect((await readiness(load)).status).toBe('ready');
      await server.stop();
      expect(await readiness(load)).toEqual({ status: 'not_ready', checks: { configuration: 'ok', store: 'store_unavailable' }, store: 'redis', mode: 'provider' });
      await server.start();
      await expect.poll(async () => (await readiness(load)).status, { timeout: 8000, interval: 200 }).toBe('ready');
    } finally {
      await store.close();
      await server.close();
    }
  }, 20_000);
});
