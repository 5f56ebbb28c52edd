import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@/lib/store/memory-store';
import { RedisStore } from '@/lib/store/redis-store';
import { startRedisServer } from '@/test/support/redis-server';
import { ConfigurationError } from './env';
import { PROBE_BYTES, readiness } from './health';

describe('readiness', () => {
  it('is ready with a valid configuration and a store that answers', async () => {
    const result = await readiness(async () => ({ config: { mode: 'emulator', state: { store: 'memory', budgetMiB: 64 } }, store: new MemoryStore() }));
    expect(result).toEqual({ status: 'ready', checks: { configuration: 'ok', store: 'ok' }, store: 'memory', mode: 'emulator' });
  });

  it('is not ready while the store refuses new work (the memory store at its budget), ready again once there is room, and leaves nothing behind', async () => {
    const store = new MemoryStore({ budgetBytes: 1024 * 1024 });
    const load = async () => ({ config: { mode: 'emulator' as const, state: { store: 'memory' as const, budgetMiB: 1 } }, store });
    expect((await readiness(load)).status).toBe('ready');
    expect(store.usedBytes).toBe(0);
    // Filled to within less than what a result takes.
    let filled = 0;
    while (store.usedBytes + 2 * PROBE_BYTES < 1024 * 1024) await store.set(`filler:${filled++}`, 'y'.repeat(16 * 1024), 60);
    await store.set('filler:last', 'y'.repeat(Math.floor((1024 * 1024 - store.usedBytes) / 2) - 200), 60);
    expect(await readiness(load)).toEqual({ status: 'not_ready', checks: { configuration: 'ok', store: 'store_full' }, store: 'memory', mode: 'emulator' });
    await store.delete('filler:last');
    await store.delete('filler:0');
    expect((await readiness(load)).status).toBe('ready');
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
      expect(await readiness(load)).toEqual({
        status: 'not_ready',
        checks: { configuration: 'ok', store: 'store_unavailable' },
        store: 'redis',
        mode: 'provider',
      });
      await server.start();
      await expect.poll(async () => (await readiness(load)).status, { timeout: 8000, interval: 200 }).toBe('ready');
    } finally {
      await store.close();
      await server.close();
    }
  }, 20_000);
});
