/**
 * An attacker on the network with bad input (ARCHITECTURE.md "Security choices"): a flood of invalid
 * starts, callbacks and settings, with and without a browser binding, leaves nothing stored for
 * requests without a binding, a bounded number of bounded failure records for one with, the
 * store ready, and a real verification working; and a client cannot pick its own address with
 * X-Forwarded-For when no proxy is trusted. Runs servers of its own (the built app, production,
 * the in-memory store with a small budget).
 */
import { randomBytes } from 'node:crypto';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
import { decideInEmulatedApp, startDefaultVerification } from './flows';

function appServer(port: number, name: string, env: Record<string, string> = {}): AppServer {
  return startAppServer(port, {
    APP_URL: `http://localhost:${port}`,
    IDV_DATA_DIR: `.data/e2e-${name}`,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_MEMORY_BUDGET_MIB: '4',
    ...env,
  });
}

/** Runs `tasks` with at most `concurrency` in flight. */
async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

test('a flood of bad input (16,000-character claims, forged callbacks, unknown settings; with and without a binding) stores nothing it cannot bound, and a real verification still completes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const app = `http://localhost:${port}`;
  // Limits out of the way: this is about what the store keeps (the start limits have their own test).
  const server = appServer(port, 'flood', { IDV_START_LIMIT_PER_ADDRESS: '100000', IDV_START_LIMIT_OVERALL: '100000' });
  const anonymous = await playwrightRequest.newContext();
  const bound = await playwrightRequest.newContext();
  try {
    await server.ready();
    // The binding the home page hands out, as a browser would have it.
    await bound.get(`${app}/`);
    expect((await bound.storageState()).cookies.map((cookie) => cookie.name)).toContain('idv_rp_session');

    const huge = 'x'.repeat(16_000);
    const codes = new Map<string, number>();
    await inParallel(600, 16, async (index) => {
      const client = index % 2 === 0 ? anonymous : bound;
      const kind = index % 3;
      const response =
        kind === 0
          ? await client.post(`${app}/auth/start`, { form: { claim: huge }, headers: { origin: app }, maxRedirects: 0 })
          : kind === 1
            ? await client.get(`${app}/auth/callback?state=${huge.slice(0, 8000)}&code=x`, { maxRedirects: 0 })
            : await client.post(`${app}/preferences`, { form: { [`x${index}`]: 'y'.repeat(900) }, headers: { origin: app }, maxRedirects: 0 });
      const location = new URL(response.headers().location ?? '/', app);
      const key = `${response.status()} ${location.pathname} ${location.searchParams.get('code')} ${location.searchParams.has('id') ? 'with-record' : 'code-only'}`;
      codes.set(key, (codes.get(key) ?? 0) + 1);
    });
    // Every request got its failure page's code; none a 503; only a bounded number got a record.
    expect([...codes.keys()].every((key) => key.startsWith('303 /failure '))).toBe(true);
    const recorded = [...codes].filter(([key]) => key.endsWith(' with-record')).reduce((sum, [, count]) => sum + count, 0);
    expect(recorded).toBeGreaterThan(0);
    expect(recorded).toBeLessThanOrEqual(30);

    expect((await request.get(`${app}/readyz`)).status()).toBe(200);
    await startDefaultVerification(page, app);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${app}/result`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  } finally {
    await anonymous.dispose();
    await bound.dispose();
    server.kill('SIGKILL');
  }
});

test('a recorded failure keeps no request input: the failure page of a 16,000-character claim names no part of it', async ({ page }) => {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const server = appServer(port, 'flood-record');
  try {
    await server.ready();
    await page.goto(`${app}/`);
    const marker = `leak${'q'.repeat(15_996)}`;
    await page.evaluate((claim) => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/auth/start';
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = 'claim';
      input.value = claim;
      form.append(input);
      document.body.append(form);
      form.submit();
    }, marker);
    await expect(page).toHaveURL(/\/failure\?code=invalid_selection&id=/);
    await expect(page.getByTestId('error-code')).toHaveText('invalid_selection');
    await expect(page.getByTestId('error-detail')).toHaveText('A value of 16000 characters is not a known claim.');
    expect(await page.content()).not.toContain('leakq');
  } finally {
    server.kill('SIGKILL');
  }
});

test('starts over the per-address limit reach the failure page, served with 429 and Retry-After, and with no trusted proxy (TRUST_PROXY=0) the limit holds whatever X-Forwarded-For a client sends', async ({
  request,
  page,
}) => {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const server = appServer(port, 'forwarded-for', { IDV_START_LIMIT_PER_ADDRESS: '3' });
  try {
    await server.ready();
    const responses = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      responses.push(
        await request.post(`${app}/auth/start`, {
          form: { preset: 'age-and-name' },
          headers: { origin: app, 'x-forwarded-for': `203.0.113.${attempt}`, 'x-idv-client-address': `198.51.100.${attempt}` },
          maxRedirects: 0,
        }),
      );
    }
    // The refused starts are sent to the failure page, which answers 429 with Retry-After.
    expect(responses.map((response) => response.status())).toEqual([303, 303, 303, 303, 303]);
    const locations = responses.map((response) => new URL(response.headers().location!, app));
    expect(locations.map((location) => location.pathname)).toEqual(['/emulator/auth', '/emulator/auth', '/emulator/auth', '/failure', '/failure']);
    expect(locations[4]!.searchParams.get('code')).toBe('rate_limited');
    const refused = await page.goto(locations[4]!.href);
    expect(refused!.status()).toBe(429);
    expect(Number(refused!.headers()['retry-after'])).toBeGreaterThan(0);
    await expect(page.getByTestId('error-code')).toHaveText('rate_limited');
    await expect(page.getByTestId('retry-after')).toContainText('Try again in');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Too many verifications');
  } finally {
    server.kill('SIGKILL');
  }
});
