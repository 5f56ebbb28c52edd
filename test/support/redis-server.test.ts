import { describe, expect, it } from 'vitest';
import { startRedisServer } from './redis-server';

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
});
