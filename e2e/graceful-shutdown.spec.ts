/**
 * SIGTERM: a production server on a shared Redis finishes the requests in flight (the store still
 * answering for them), then exits and releases its Redis connection; stopped under load, it loses
 * no verification. Each test runs its own server (the built app: in provider mode against a
 * deliberately slow "service" of this test, or in emulator mode) and its own redis-server.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { verify, waitFor, type Answer } from '../scripts/container/verification';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
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
    // While they are in flight it still accepts, and says it is stopping: a balancer sends it nothing new.
    const readiness = await request.get(`${app}/readyz`);
    expect(readiness.status()).toBe(503);
    expect(await readiness.json()).toMatchObject({ status: 'not_ready', stopping: true });
    expect(readiness.headers().connection).toBe('close');
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

test('stopped under load, a server loses no verification: each one started before its process exited completes, none on network_error', async () => {
  test.setTimeout(90_000);
  const redis = await startRedisServer();
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  const env = {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-shutdown-load',
    REDIS_URL: redis.url,
    IDV_REDIS_PREFIX: 'shutdown-load:',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_START_LIMIT_PER_ADDRESS: '100000',
    IDV_START_LIMIT_OVERALL: '100000',
    EMULATOR_RATE_LIMITS: JSON.stringify({ par: 100_000, token: 100_000, interaction: 100_000 }),
  };
  const first = startAppServer(port, env);
  let second: AppServer | undefined;
  try {
    await waitFor(`${app}/readyz`, 30_000);
    const answers: Answer[] = [];
    const failures: string[] = [];
    let completed = 0;
    let starting = true;
    // Four browsers, each starting one verification after another until two seconds after the
    // SIGTERM. A request that gets no answer (the stopping server accepts no new connection) is
    // sent again until the next server, on the same port and Redis, answers it.
    const retryUnansweredUntil = Date.now() + 75_000;
    const loop = async () => {
      while (starting) {
        try {
          await verify(app, { retryUnansweredUntil, onAnswer: (answer) => answers.push(answer) });
          completed += 1;
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    await expect.poll(() => completed + failures.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    const stoppedAt = Date.now();
    first.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 2000));
    starting = false;
    // It goes on accepting while a request is in flight (its calls to its emulator come on new
    // connections), closes each connection after its answer, and exits once none is in flight.
    expect(await first.exited).toBe(143);
    const exitedAt = Date.now();
    second = startAppServer(port, env);
    await Promise.all(loops);

    // None ended on a failure page (the issue: network_error after the start or the callback, whose
    // pending flow was then used up): each completed, the last ones on the next server.
    expect(failures).toEqual([]);
    // The stopping server answered starts (a PAR each) and callbacks (a token request each) after
    // the SIGTERM, its calls to its embedded emulator included, when one was in flight then.
    const backChannel = answers.filter(
      (answer) => answer.at > stoppedAt && answer.at < exitedAt && (answer.url.endsWith('/auth/start') || answer.url.includes('/auth/callback?')),
    );
    console.info(
      `${completed} verifications completed; after the SIGTERM the stopping server answered ${backChannel.length} starts and callbacks in ${exitedAt - stoppedAt} ms, and the next one ${answers.filter((answer) => answer.sent > 1).length} requests the stopping one no longer accepted`,
    );
  } finally {
    first.kill('SIGKILL');
    second?.kill('SIGKILL');
    await redis.close();
  }
});
