/**
 * Sign-out leaves no personal data behind (ARCHITECTURE.md "Security choices"): everything a browser owns
 * (results, pending flows, failure records) is deleted at once, on Redis in one atomic step, also
 * a result that two callbacks completing at the same moment left behind. Runs a redis-server and
 * a production server of its own, and reads every key the app wrote.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from '@redis/client';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startAppServer } from '../test/support/app-server';
import { startRedisServer } from '../test/support/redis-server';
import { startVerification } from './flows';

const PREFIX = 'e2e-sign-out:';
/** What Ingrid's verification and the typed lookup put in the store, any of which is personal. */
const PERSONAL = ['Ingrid Solberg Haugen', '14038726421', 'FK4820713', '1987-03-14'];

/** Starts a verification and approves it as Ingrid, returning the callback URL without following it. */
async function callbackUrl(page: Page, app: string): Promise<string> {
  await startVerification(page, app, { preset: 'full-kyc' });
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  let callback = '';
  await page.route(`${app}/emulator/auth`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    callback = response.headers().location ?? '';
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'stopped before the callback' });
  });
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect.poll(() => callback).toContain('/auth/callback?');
  await page.unroute(`${app}/emulator/auth`);
  return callback;
}

test('after two callbacks racing in one browser and a pending lookup with a typed personal number, sign-out leaves no personal value in the store', async ({
  context,
}) => {
  test.setTimeout(90_000);
  const redis = await startRedisServer();
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-sign-out',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    REDIS_URL: redis.url,
    IDV_REDIS_PREFIX: PREFIX,
  });
  const client = createClient({ url: redis.url });
  await client.connect();
  /** Every value under the app's own keys (the embedded emulator's, the service's side, are not ours). */
  const appValues = async (): Promise<string[]> => {
    const values: string[] = [];
    for (const key of await client.keys(`${PREFIX}*`)) {
      if (key.startsWith(`${PREFIX}emulator:`)) continue;
      const type = await client.type(key);
      if (type === 'string') values.push(String(await client.get(key)));
      else if (type === 'set') values.push(...(await client.sMembers(key)).map(String));
      else if (type === 'hash') values.push(JSON.stringify(await client.hGetAll(key)));
      else values.push(`${key}: ${type}`);
    }
    return values;
  };
  const personalIn = (values: string[]) => values.filter((value) => PERSONAL.some((personal) => value.includes(personal)));
  try {
    await server.ready();

    // A lookup in the population register with a typed number, left pending.
    const pending = await context.newPage();
    await startVerification(pending, app, { trust_framework: 'standard', claim: ['name'], evidence: 'population_register', personal_number: '14038726421' });
    await expect(pending).toHaveURL(/\/emulator\/auth\?/);

    // Two verifications whose callbacks arrive at the same moment.
    const page = await context.newPage();
    const first = await callbackUrl(page, app);
    const second = await callbackUrl(page, app);
    const completed = await Promise.all([first, second].map((url) => context.request.get(url, { maxRedirects: 0 })));
    expect(completed.map((response) => response.headers().location)).toEqual([`${app}/result`, `${app}/result`]);
    // The store holds them (so this test can see a personal value where one is): the pending
    // lookup and the newest result, and the other result too when the two callbacks overlapped
    // (whether they do is the machine's timing; Store.deleteOwned's contract test covers every
    // record a browser owns either way).
    expect(personalIn(await appValues()).length).toBeGreaterThanOrEqual(2);

    const signedOut = await context.request.post(`${app}/auth/signout`, { headers: { origin: app }, maxRedirects: 0 });
    expect(signedOut.status()).toBe(303);
    expect(personalIn(await appValues())).toEqual([]);
  } finally {
    await client.close();
    server.kill('SIGKILL');
    await redis.close();
  }
});
