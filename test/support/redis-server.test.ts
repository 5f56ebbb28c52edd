import { createClient } from '@redis/client';
import { describe, expect, it } from 'vitest';
import { startRedisServer } from './redis-server';

/** The value of `key` on the server at `url`, read on a connection of its own. */
async function read(url: string, key: string): Promise<string | null> {
  const client = createClient({ url });
  await client.connect();
  try {
    return await client.get(key);
  } finally {
    client.destroy();
  }
}

async function write(url: string, key: string, value: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    await client.set(key, value);
  } finally {
    client.destroy();
  }
}

describe('the test redis-server', () => {
  it('adds no exit listener per start: a worker that starts it many times stays under Node’s limit of ten', async () => {
    const server = await startRedisServer();
    const before = process.listenerCount('exit');
    for (let restart = 0; restart < 12; restart += 1) {
      await server.stop();
      await server.start();
    }
    expect(process.listenerCount('exit')).toBe(before);
    await server.close();
  });

  it('starts again empty after an outage, or, persistent, with every write it acknowledged', async () => {
    const [plain, persistent] = await Promise.all([startRedisServer(), startRedisServer({ persistent: true })]);
    try {
      for (const server of [plain, persistent]) {
        await write(server.url, 'written', 'before the outage');
        await server.stop();
        await server.start();
      }
      expect(await read(plain.url, 'written')).toBeNull();
      expect(await read(persistent.url, 'written')).toBe('before the outage');
    } finally {
      await Promise.all([plain.close(), persistent.close()]);
    }
  });
});
