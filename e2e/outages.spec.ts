/**
 * Outages of several instances on one Redis: the built app twice (production, emulator mode)
 * behind the round-robin test balancer, with a redis-server of this spec's own, since these tests
 * stop and restart them. Redis goes away and comes back; then an instance goes away mid-flow.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startAppServer, startBalancer, type AppServer } from '../test/support/app-server';
import { startRedisServer, type RedisServer } from '../test/support/redis-server';
import { decideInEmulatedApp } from './flows';

const HOST = '127.0.0.4';

let redis: RedisServer;
let instances: AppServer[];
let balancer: { stop(): void };
let cluster: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(90_000);
  redis = await startRedisServer();
  const [balancerPort, one, two] = [await freePort(), await freePort(), await freePort()];
  cluster = `http://${HOST}:${balancerPort}`;
  const shared = {
    APP_URL: cluster,
    REDIS_URL: redis.url,
    IDV_REDIS_PREFIX: 'outages:',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_START_LIMIT_PER_ADDRESS: '1000',
    EMULATOR_DEVICE_URL: cluster,
  };
  // The same client keys on both: with REDIS_URL, the first instance stores development keys in
  // Redis and the second takes them from there (lib/server/shared-dev-keys.ts).
  instances = [startAppServer(one, { ...shared, IDV_DATA_DIR: '.data/e2e-outages' })];
  await expect
    .poll(
      () =>
        request.get(`http://127.0.0.1:${one}/readyz`).then(
          (r) => r.status(),
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
  instances.push(startAppServer(two, { ...shared, IDV_DATA_DIR: '.data/e2e-outages' }));
  await expect
    .poll(
      () =>
        request.get(`http://127.0.0.1:${two}/readyz`).then(
          (r) => r.status(),
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
  balancer = await startBalancer(HOST, balancerPort, [one, two]);
});

test.afterAll(async () => {
  balancer?.stop();
  for (const instance of instances ?? []) instance.kill('SIGKILL');
  await redis?.close();
});

/** Records which instance served each document the page loaded. */
function servedBy(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document') seen.push(response.headers()['x-served-by'] ?? '?');
  });
  return seen;
}

async function verify(page: Page): Promise<void> {
  await page.goto(`${cluster}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${cluster}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
}

test('Redis stopped mid-run: a start gets the clear 503 page at once; Redis back, the next verification completes without a restart', async ({
  page,
  request,
}) => {
  await redis.stop();
  await page.goto(`${cluster}/`);
  const started = Date.now();
  // The start is sent to the failure page, which answers 503 with Retry-After.
  const [answer] = await Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === '/failure'),
    page.getByRole('button', { name: 'Start verification' }).click(),
  ]);
  expect(answer.status()).toBe(503);
  expect(Number(answer.headers()['retry-after'])).toBeGreaterThan(0);
  await expect(page.getByTestId('error-code')).toHaveText('store_unavailable');
  expect(Date.now() - started).toBeLessThan(5000);
  // Both instances keep running and say why they cannot serve.
  for (const instance of instances) {
    const ready = await request.get(`http://127.0.0.1:${instance.port}/readyz`);
    expect(ready.status()).toBe(503);
    expect(instance.running()).toBe(true);
  }

  await redis.start();
  // Each instance's client reconnects on its own (within about two seconds).
  for (const instance of instances) {
    await expect.poll(() => request.get(`http://127.0.0.1:${instance.port}/readyz`).then((r) => r.status()), { timeout: 10_000 }).toBe(200);
  }
  await verify(page);
});

test('an instance stopped mid-flow: the flow completes on the other', async ({ page }) => {
  const seen = servedBy(page);
  await page.goto(`${cluster}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  // The instance that opened the interaction (served the authorization page) goes away.
  const stopped = instances.find((instance) => String(instance.port) === seen.at(-1))!;
  const survivor = instances.find((instance) => instance !== stopped)!;
  expect(stopped).toBeDefined();

  stopped.kill('SIGTERM');
  expect(await stopped.exited).toBe(143);
  seen.length = 0;
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${cluster}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  await expect(page.getByTestId('portrait')).toBeVisible();
  expect(new Set(seen)).toEqual(new Set([String(survivor.port)]));
});
