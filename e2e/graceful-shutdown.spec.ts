/**
 * SIGTERM: a production server on a shared Redis finishes the requests in flight (the store still
 * answering for them), then exits and releases its Redis connection. Runs its own server (the
 * built app, in provider mode against a deliberately slow "service" of this test) and its own
 * redis-server.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer } from '../test/support/app-server';
import { clientKeys } from '../test/support/client-keys';
import { redisClientCount, startHeldService } from '../test/support/held-service';
import { startRedisServer } from '../test/support/redis-server';

test('on SIGTERM the server answers every request in flight, with the store still serving them, then exits and leaves no Redis connection behind', async ({
  request,
}) => {
  test.setTimeout(90_000);
  const redis = await startRedisServer();
  // The "service": answers nothing until the test lets it, so starts stay in flight.
  const service = await startHeldService();
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const keys = clientKeys('shutdown');
  const server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-shutdown',
    REDIS_URL: redis.url,
    IDV_REDIS_PREFIX: 'shutdown:',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_START_LIMIT_PER_ADDRESS: '1000',
    IDV_BASE_URL: service.url,
    IDV_CLIENT_ID: 'shutdown-test',
    // Provider mode on Redis: the client's keys must be configured (every instance signs with them).
    IDV_SIGNING_KEY: JSON.stringify(keys.signing),
    IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryption),
  });
  const clients = () => redisClientCount(redis.url);

  try {
    await expect
      .poll(
        () =>
          request.get(`${app}/readyz`).then(
            (response) => response.status(),
            () => 0,
          ),
        { timeout: 30_000 },
      )
      .toBe(200);
    expect(await clients()).toBeGreaterThan(0);

    const inFlight = Array.from({ length: 4 }, () => request.post(`${app}/auth/start`, { maxRedirects: 0 }));
    // Every start has been accepted and waits on the service's discovery document.
    await expect.poll(() => service.seen(), { timeout: 10_000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    service.release();
    const answers = await Promise.all(
      inFlight.map((pending) =>
        pending.then(
          (response) => `${response.status()} ${response.headers().location ?? ''}`,
          (error: Error) => error.message,
        ),
      ),
    );
    // Each got its whole answer: the failure page of an unavailable service, recorded in Redis
    // (the `id`) while the server was already shutting down.
    for (const answer of answers) expect(answer).toMatch(new RegExp(`^303 ${app}/failure\\?code=[a-z_]+&id=[A-Za-z0-9_-]+$`));

    expect(await server.exited).toBe(143);
    expect(server.output()).toContain('[idv] SIGTERM: finishing the requests in flight, then closing the store');
    expect(await clients()).toBe(0);
    // New connections are refused once it is gone.
    await expect(request.get(`${app}/healthz`, { timeout: 2000 })).rejects.toThrow();
  } finally {
    service.release();
    server.kill('SIGKILL');
    service.close();
    await redis.close();
  }
});
