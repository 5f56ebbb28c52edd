/**
 * Several instances: two production instances of the app in emulator mode share one Redis
 * behind a round-robin balancer (e2e/servers.ts), so consecutive requests of one
 * verification, the browser's and the app's own calls to its emulator alike, land on
 * alternate instances. A third pair, started by this spec on a redis-server of its own, has no
 * client keys configured at all.
 */
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startAppServer, startBalancer, type AppServer } from '../test/support/app-server';
import { startRedisServer, type RedisServer } from '../test/support/redis-server';
import { decideInEmulatedApp, openPanelSignedIn, signInToPanel } from './flows';
import {
  CLUSTER_APP as CLUSTER,
  CLUSTER_INSTANCES as INSTANCES,
  PROVIDER_CLUSTER_APP as PROVIDER_CLUSTER,
  PROVIDER_CLUSTER_INSTANCES,
  STRICT_EMULATOR_APP,
  needServers,
} from './servers';

needServers('clusters');

/** Records which instance served each document the page loaded. */
function servedBy(page: Page): string[] {
  const seen: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document') seen.push(response.headers()['x-served-by'] ?? '?');
  });
  return seen;
}

async function verify(page: Page, cluster = CLUSTER): Promise<void> {
  await page.goto(`${cluster}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${cluster}/result`);
}

test('a verification whose requests alternate between two instances completes', async ({ page }) => {
  const seen = servedBy(page);
  await verify(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  await expect(page.getByTestId('portrait')).toBeVisible();
  expect(new Set(seen)).toEqual(new Set(INSTANCES.map((instance) => new URL(instance).port)));
});

test('provider mode: a verification whose requests alternate between two instances completes', async ({ page }) => {
  // Only the pages themselves go through the balancer (the forms work without scripts), so the
  // round robin alternates them: home, start, callback, result.
  await page.route(`${PROVIDER_CLUSTER}/**`, (route) => (route.request().resourceType() === 'document' ? route.continue() : route.abort()));
  const seen = servedBy(page);
  await page.goto(`${PROVIDER_CLUSTER}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
  // The provider is another app's (strict) emulator: the balancer is not in front of it.
  await expect(page).toHaveURL(new RegExp(`^${STRICT_EMULATOR_APP}/emulator/auth\\?`));
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${PROVIDER_CLUSTER}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  const ours = seen.filter((port) => port !== '?');
  expect(ours).toHaveLength(4);
  for (const instance of PROVIDER_CLUSTER_INSTANCES) expect(ours.filter((port) => port === new URL(instance).port)).toHaveLength(2);
});

test('sign-out on one instance deletes the result on both', async ({ page }) => {
  await verify(page);
  // Two loads of the result page: one from each instance.
  for (let load = 0; load < 2; load += 1) {
    await page.goto(`${CLUSTER}/result`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  }
  await page.getByRole('button', { name: 'Sign out and delete' }).click();
  for (let load = 0; load < 2; load += 1) {
    await page.goto(`${CLUSTER}/result`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No verified identity');
  }
});

test('a fault armed on one instance’s panel spoils the next flow, whichever instance serves it, once', async ({ page, request }) => {
  await signInToPanel(request, INSTANCES[1]!);
  const armed = await request.post(`${INSTANCES[1]}/emulator/panel`, { form: { action: 'arm_fault', fault: 'par_server_error' }, maxRedirects: 0 });
  expect(armed.status()).toBe(303);
  await page.goto(`${CLUSTER}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
  await expect(page.getByTestId('error-code')).toHaveText('server_error');
  // One-shot across instances: the next verification completes.
  await verify(page);
});

test('the QA panel’s forms work in a browser on a public origin other than the one the server sees', async ({ page }) => {
  // The browser posts with Origin CLUSTER (127.0.0.2, their APP_URL); the instances see 127.0.0.1.
  await openPanelSignedIn(page, CLUSTER);
  const fault = page.getByTestId('fault-wrong_nonce');
  await fault.getByRole('button', { name: 'Arm' }).click();
  await expect(fault).toHaveAttribute('data-armed', 'true');
  await fault.getByRole('button', { name: 'Disarm' }).click();
  await expect(fault).toHaveAttribute('data-armed', 'false');
  await expect(page.getByTestId('panel-error')).toHaveCount(0);
});

test.describe('two instances on one Redis with no client keys configured', () => {
  let redis: RedisServer;
  let instances: AppServer[] = [];
  let balancer: { stop(): void } | undefined;
  let cluster: string;

  test.beforeAll(async ({ request }) => {
    test.setTimeout(90_000);
    redis = await startRedisServer();
    const [balancerPort, one, two] = [await freePort(), await freePort(), await freePort()];
    cluster = `http://127.0.0.5:${balancerPort}`;
    const shared = {
      APP_URL: cluster,
      EMULATOR_DEVICE_URL: cluster,
      REDIS_URL: redis.url,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      IDV_START_LIMIT_PER_ADDRESS: '1000',
      // Not configured (empty is unset), whatever the environment the tests run in holds.
      IDV_SIGNING_KEY: '',
      IDV_ENCRYPTION_KEY: '',
      IDV_BASE_URL: '',
    };
    // Started together, each with a data folder of its own (two machines): they race to store
    // their development keys, and both must end up using the one pair that won.
    instances = [one, two].map((port) => startAppServer(port, { ...shared, IDV_DATA_DIR: `.data/e2e-no-keys-${port}` }));
    for (const instance of instances) {
      await expect
        .poll(
          () =>
            request.get(`http://127.0.0.1:${instance.port}/readyz`).then(
              (r) => r.status(),
              () => 0,
            ),
          { timeout: 60_000 },
        )
        .toBe(200);
    }
    balancer = await startBalancer('127.0.0.5', balancerPort, [one, two]);
  });

  test.afterAll(async () => {
    balancer?.stop();
    for (const instance of instances) instance.kill('SIGKILL');
    await redis?.close();
  });

  test('each says at start-up that it uses the shared development keys from the store, the same ones, stored by one of them', () => {
    const said = instances.map((instance) =>
      /using shared development keys from the store for: IDV_SIGNING_KEY \(kid ([^)]+)\), IDV_ENCRYPTION_KEY \(kid ([^)]+)\); stored under idv:dev-client-keys by (this instance|the instance that started first)/.exec(
        instance.output(),
      ),
    );
    expect(said[0], instances[0]!.output()).not.toBeNull();
    expect(said[1], instances[1]!.output()).not.toBeNull();
    expect(said[1]!.slice(1, 3)).toEqual(said[0]!.slice(1, 3));
    expect(said.map((line) => line![3]).sort()).toEqual(['the instance that started first', 'this instance']);
  });

  test('verifications whose requests alternate between them all complete (none ends in invalid_client)', async ({ page }) => {
    const seen = servedBy(page);
    // Without shared keys about three in four failed: four in a row completing leaves next to no room for luck.
    for (let verification = 0; verification < 4; verification += 1) {
      await verify(page, cluster);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
    }
    expect(new Set(seen)).toEqual(new Set(instances.map((instance) => String(instance.port))));
  });
});

// Last: after a rotation the relying party refetches the JWKS only after its 30 s cool-down.
test('both instances publish one JWKS, and a key rotated on one is current on both', async ({ request }) => {
  // Sorted: the JWKS lists its keys in a new order each time (spec 4.4).
  const kids = async (instance: string) =>
    ((await (await request.get(`${instance}/emulator/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid).sort();
  expect(await kids(INSTANCES[0]!)).toEqual(await kids(INSTANCES[1]!));
  const before = await kids(INSTANCES[1]!);
  // Signed in on the other instance: the sign-in is in the store both share.
  await signInToPanel(request, INSTANCES[1]!);
  const rotated = await request.post(`${INSTANCES[0]}/emulator/panel`, { form: { action: 'rotate_keys' }, maxRedirects: 0 });
  expect(rotated.status()).toBe(303);
  const after = await kids(INSTANCES[1]!);
  // Every key stays published (the next one now current, the old one retiring) and a new next key appears.
  expect(after).toEqual(expect.arrayContaining(before));
  expect(after.length).toBe(before.length + 1);
  expect(await kids(INSTANCES[0]!)).toEqual(after);
});
