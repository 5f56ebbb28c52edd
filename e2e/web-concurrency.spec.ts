/**
 * WEB_CONCURRENCY: `npm start` runs several server processes on one port (node:cluster), their
 * state shared through a real redis-server this spec starts. Which process answers a connection
 * is read from Linux's own tables (test/support/serving-process.ts): the app does not say.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
import { clientKeys } from '../test/support/client-keys';
import { redisClientCount, startHeldService } from '../test/support/held-service';
import { startRedisServer, type RedisServer } from '../test/support/redis-server';
import { requestOnOwnConnection, type Answer } from '../test/support/serving-process';

/** The pids of the server processes that said they are ready, by their number (1, 2). */
function readyProcesses(server: AppServer): Map<number, number> {
  const ready = new Map<number, number>();
  for (const [, number, pid] of server.output().matchAll(/\[idv\] server process (\d+) of 2 \(pid (\d+)\) is ready/g)) ready.set(Number(number), Number(pid));
  return ready;
}

async function bothReady(server: AppServer, app: string): Promise<number[]> {
  await expect.poll(() => readyProcesses(server).size, { timeout: 90_000 }).toBe(2);
  await expect
    .poll(
      () =>
        fetch(`${app}/readyz`).then(
          (response) => response.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
  return [...readyProcesses(server).values()];
}

/** A browser's cookies for one origin, each request on a connection of its own. */
class Browser {
  readonly #cookies = new Map<string, string>();
  /** the process that answered each request */
  readonly servedBy: number[] = [];

  constructor(private readonly pids: () => number[]) {}

  async request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
    const cookie = [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const answer = await requestOnOwnConnection(url, this.pids(), { ...init, headers: { ...init.headers, ...(cookie ? { cookie } : {}) } });
    for (const line of [answer.headers['set-cookie'] ?? []].flat()) {
      const [pair] = line.split(';');
      this.#cookies.set(pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1));
    }
    this.servedBy.push(answer.pid);
    return answer;
  }
}

/** A whole verification in emulator mode, as a browser without scripts makes it; the result page. */
async function verify(app: string, browser: Browser): Promise<string> {
  await browser.request(`${app}/`);
  const started = await browser.request(`${app}/auth/start`, {
    method: 'POST',
    headers: { origin: app, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'preset=full-kyc',
  });
  expect(started.status).toBe(303);
  const authorization = started.headers.location!;
  expect(authorization).toMatch(new RegExp(`^${app}/emulator/auth\\?`));
  const page = (await browser.request(authorization)).body;
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';
  const decided = await browser.request(`${app}/emulator/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ interaction: field('interaction'), browser: field('browser'), persona: 'ingrid-haugen', outcome: 'approve' }).toString(),
  });
  expect(decided.status).toBe(303);
  const completed = await browser.request(decided.headers.location!);
  expect(completed.headers.location).toBe(`${app}/result`);
  return (await browser.request(`${app}/result`)).body;
}

test('WEB_CONCURRENCY=2 without REDIS_URL: `npm start` refuses to start, naming both variables', async () => {
  const server = startAppServer(await freePort(), { WEB_CONCURRENCY: '2', REDIS_URL: '' });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain(
    '[idv] configuration error: WEB_CONCURRENCY is 2, and several server processes share their state only through Redis: set REDIS_URL (without it each process keeps its state in its own memory, so a verification started in one process and completed in another would fail), or set WEB_CONCURRENCY=1',
  );
  // Refused before any server process started.
  expect(server.output()).not.toContain('[idv] starting');
  expect(server.output()).not.toContain('Next.js');
});

test('a configuration error in the server processes stops them all, and `npm start` exits 1 rather than restarting them', async () => {
  test.setTimeout(90_000);
  // Nothing listens there: every process stops at start-up, naming REDIS_URL.
  const server = startAppServer(await freePort(), {
    WEB_CONCURRENCY: '2',
    REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: '.data/e2e-web-concurrency-refused',
  });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('[idv] configuration error: REDIS_URL');
  expect(server.output()).toMatch(/\[idv\] server process \d \(pid \d+\) exited with exit code 1 before it started: stopping the others/);
  expect(server.output()).not.toContain('starting another');
});

test.describe('two server processes in emulator mode, no client keys configured', () => {
  let redis: RedisServer;
  let server: AppServer;
  let app: string;
  let pids: number[];

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    redis = await startRedisServer();
    const port = await freePort();
    app = `http://127.0.0.1:${port}`;
    server = startAppServer(port, {
      WEB_CONCURRENCY: '2',
      APP_URL: app,
      REDIS_URL: redis.url,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      IDV_DATA_DIR: '.data/e2e-web-concurrency',
      IDV_START_LIMIT_PER_ADDRESS: '1000',
      // Not configured (empty is unset): both processes race to store development keys in Redis.
      IDV_SIGNING_KEY: '',
      IDV_ENCRYPTION_KEY: '',
      IDV_BASE_URL: '',
    });
    pids = await bothReady(server, app);
  });

  test.afterAll(async () => {
    server?.kill('SIGKILL');
    await redis?.close();
  });

  test('start-up says how many processes run; a verification whose requests land on both completes', async () => {
    expect(server.output()).toContain('[idv] starting 2 server processes (WEB_CONCURRENCY=2) on one port, sharing their state through REDIS_URL');
    expect(new Set(pids).size).toBe(2);
    // Both use the one pair of development keys stored in Redis, whichever stored it.
    const said = [...server.output().matchAll(/using shared development keys from the store for: IDV_SIGNING_KEY \(kid ([^)]+)\)/g)].map((line) => line[1]);
    expect(said).toHaveLength(2);
    expect(said[1]).toBe(said[0]);

    const browser = new Browser(() => pids);
    const result = await verify(app, browser);
    expect(result).toContain('Ingrid Solberg Haugen');
    // Six requests, each on a new connection, which the round robin hands to one process then the other.
    expect(new Set(browser.servedBy)).toEqual(new Set(pids));
  });

  test('a server process that dies is logged and replaced, and the app serves throughout', async () => {
    const [victim, survivor] = pids as [number, number];
    process.kill(victim, 'SIGKILL');
    await expect
      .poll(() => server.output())
      .toMatch(new RegExp(`server process \\d \\(pid ${victim}\\) exited unexpectedly with signal SIGKILL: starting another in 1 s`));
    // Meanwhile the other one answers.
    expect((await requestOnOwnConnection(`${app}/readyz`, [survivor])).status).toBe(200);
    await expect.poll(() => server.output(), { timeout: 60_000 }).toMatch(/server process \d of 2 \(pid \d+\) is ready, replacing the one that exited/);
    const replacement = [...readyProcesses(server).values()].find((pid) => !pids.includes(pid))!;
    expect(replacement).toBeDefined();
    pids = [survivor, replacement];
    const browser = new Browser(() => pids);
    expect(await verify(app, browser)).toContain('Ingrid Solberg Haugen');
    expect(new Set(browser.servedBy)).toEqual(new Set(pids));
    expect(server.running()).toBe(true);
  });
});

test('on SIGTERM each server process answers its requests in flight, then all exit, the primary with 0, leaving no Redis connection', async () => {
  test.setTimeout(150_000);
  const redis = await startRedisServer();
  // The "service": answers nothing until the test lets it, so starts stay in flight.
  const service = await startHeldService();
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  const keys = clientKeys('web-concurrency');
  const server = startAppServer(port, {
    WEB_CONCURRENCY: '2',
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-web-concurrency-shutdown',
    REDIS_URL: redis.url,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_START_LIMIT_PER_ADDRESS: '1000',
    IDV_BASE_URL: service.url,
    IDV_CLIENT_ID: 'web-concurrency-test',
    IDV_SIGNING_KEY: JSON.stringify(keys.signing),
    IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryption),
  });
  const clients = () => redisClientCount(redis.url);

  try {
    const pids = await bothReady(server, app);
    expect(await clients()).toBeGreaterThanOrEqual(2);
    const inFlight = Array.from({ length: 4 }, () =>
      requestOnOwnConnection(`${app}/auth/start`, pids, {
        method: 'POST',
        headers: { origin: app, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'preset=full-kyc',
      }),
    );
    // Both processes have accepted starts and wait on the service's discovery document.
    await expect.poll(() => service.seen(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    service.release();
    const answers = await Promise.all(inFlight);
    // Each got its whole answer: the failure page of an unavailable service, recorded in Redis
    // (the `id`) while its process was already shutting down.
    for (const answer of answers)
      expect(`${answer.status} ${answer.headers.location}`).toMatch(new RegExp(`^303 ${app}/failure\\?code=[a-z_]+&id=[A-Za-z0-9_-]+$`));
    expect(new Set(answers.map((answer) => answer.pid))).toEqual(new Set(pids));

    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('[idv] SIGTERM: passing it to the 2 server processes, which finish their requests in flight');
    expect(server.output().split('[idv] SIGTERM: finishing the requests in flight, then closing the store')).toHaveLength(3);
    expect(server.output()).toContain('[idv] every server process has stopped');
    expect(await clients()).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    await expect(fetch(`${app}/healthz`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
  } finally {
    service.release();
    server.kill('SIGKILL');
    service.close();
    await redis.close();
  }
});
