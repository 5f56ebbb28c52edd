/**
 * Redis restarted under load: `npm start` with two server processes (WEB_CONCURRENCY=2) in
 * emulator mode, no client keys configured, on a redis-server of this spec's own that keeps its
 * data as a production Redis does (every write in its append-only file). Four browsers verify one
 * after another while Redis is killed and, three seconds later, started again on the same port.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { expect, test } from '@playwright/test';
import { verify, waitFor, type Answer } from '../scripts/container/verification';
import { freePort, startAppServer } from '../test/support/app-server';
import { startRedisServer } from '../test/support/redis-server';

/** A verification's answers, and how it ended. */
interface Attempt {
  answers: Answer[];
  completed: boolean;
  error?: string;
}

/** The failure page's code of a redirect to it, if it is one. */
const failureCode = (answer: Answer | undefined) => (answer?.location?.includes('/failure?') ? new URL(answer.location).searchParams.get('code') : null);

test('Redis restarted under load: no process exits, the outage gets clear refusals at once and no 500, verifications complete again within seconds, and both processes keep the one pair of shared keys', async () => {
  test.setTimeout(120_000);
  const redis = await startRedisServer({ persistent: true });
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  const server = startAppServer(port, {
    WEB_CONCURRENCY: '2',
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-redis-restart',
    REDIS_URL: redis.url,
    IDV_REDIS_PREFIX: 'redis-restart:',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_START_LIMIT_PER_ADDRESS: '100000',
    IDV_START_LIMIT_OVERALL: '100000',
    EMULATOR_RATE_LIMITS: JSON.stringify({ par: 100_000, token: 100_000, interaction: 100_000 }),
    // Not configured (empty is unset): the two processes share development keys through Redis.
    IDV_SIGNING_KEY: '',
    IDV_ENCRYPTION_KEY: '',
    IDV_BASE_URL: '',
  });
  try {
    await expect.poll(() => server.output().match(/server process \d of 2 \(pid \d+\) is ready/g)?.length ?? 0, { timeout: 90_000 }).toBe(2);
    await waitFor(`${app}/readyz`, 30_000);

    const attempts: Attempt[] = [];
    let running = true;
    const loop = async () => {
      while (running) {
        const attempt: Attempt = { answers: [], completed: false };
        attempts.push(attempt);
        try {
          await verify(app, { onAnswer: (answer) => attempt.answers.push(answer) });
          attempt.completed = true;
        } catch (error) {
          attempt.error = (error as Error).message;
          // As a person would, a moment before starting again.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    };
    const loops = Array.from({ length: 4 }, loop);
    await expect.poll(() => attempts.filter((attempt) => attempt.completed).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    const downAt = Date.now();
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await redis.start();
    const upAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 8000));
    running = false;
    await Promise.all(loops);

    // No process exited, and none was replaced.
    expect(server.running()).toBe(true);
    expect(server.output()).not.toMatch(/exited|is ready, replacing/);

    // Every answer came at once (the store's commands time out after two seconds), and none was a
    // 500: what could not be served while Redis was away was refused with 503 (the emulator's
    // pages), or on the failure page with store_unavailable (a callback whose token request met the
    // emulator's store failing: the service's temporarily_unavailable); the result page shows
    // store_unavailable in its place.
    const answers = attempts.flatMap((attempt) => attempt.answers);
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(5000);
    expect([...new Set(answers.map((answer) => answer.status))].filter((status) => ![200, 303, 503].includes(status))).toEqual([]);
    const failed = attempts.filter((attempt) => !attempt.completed);
    expect(failed.length).toBeGreaterThan(0);
    for (const attempt of failed) {
      const last = attempt.answers.at(-1);
      expect(last?.at, attempt.error).toBeGreaterThanOrEqual(downAt);
      const clear =
        last?.status === 503 ||
        ['store_unavailable', 'temporarily_unavailable'].includes(failureCode(last) ?? '') ||
        (last?.url === `${app}/result` && attempt.error!.endsWith('it shows the failure code store_unavailable'));
      expect(clear, attempt.error).toBe(true);
    }
    const refusal = failed.map((attempt) => attempt.answers.at(-1)).find((answer) => failureCode(answer) === 'store_unavailable');
    expect(refusal).toBeDefined();
    const page = await fetch(refusal!.location!);
    expect(page.status).toBe(503);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await page.text()).toMatch(/data-testid="error-code"[^>]*>store_unavailable</);

    // Redis back, verifications complete again within seconds, and every one started once both
    // processes had reconnected (within two seconds) completed.
    const startedAfter = (at: number) => attempts.filter((attempt) => (attempt.answers[0]?.at ?? 0) > at);
    const firstAfterRestart = startedAfter(upAt).find((attempt) => attempt.completed);
    expect(firstAfterRestart).toBeDefined();
    expect(firstAfterRestart!.answers.at(-1)!.at - upAt).toBeLessThan(6000);
    const settled = startedAfter(upAt + 4000);
    expect(settled.length).toBeGreaterThanOrEqual(4);
    expect(settled.filter((attempt) => !attempt.completed).map((attempt) => attempt.error)).toEqual([]);

    // The one pair of development keys both processes sign with is the pair stored, and stays so.
    const kids = [...server.output().matchAll(/using shared development keys from the store for: IDV_SIGNING_KEY \(kid ([^)]+)\)/g)].map((match) => match[1]);
    expect(kids).toHaveLength(2);
    expect(kids[1]).toBe(kids[0]);
    const storedKid = async () => {
      const raw = createClient({ url: redis.url });
      await raw.connect();
      try {
        return (JSON.parse((await raw.get('redis-restart:dev-client-keys')) ?? '{}') as { signingKey?: { kid?: string } }).signingKey?.kid;
      } finally {
        raw.destroy();
      }
    };
    expect(await storedKid()).toBe(kids[0]);
    // Restarted without its data, Redis has the pair back within seconds, from the processes
    // running, before any instance starting could store another.
    const raw = createClient({ url: redis.url });
    await raw.connect();
    await raw.flushAll();
    raw.destroy();
    await redis.stop();
    await redis.start();
    await expect.poll(storedKid, { timeout: 10_000 }).toBe(kids[0]);
    expect(server.output()).toContain(
      "[idv] the shared development keys had gone from the store (expired, evicted, or Redis restarted empty): put this instance's back",
    );
    expect(server.output()).not.toContain('other development keys');
    console.info(
      `${attempts.length} verifications: ${failed.length} refused while Redis was away (${upAt - downAt} ms), the first started after its restart completed ${firstAfterRestart!.answers.at(-1)!.at - upAt} ms after it`,
    );
  } finally {
    server.kill('SIGKILL');
    await redis.close();
  }
});
