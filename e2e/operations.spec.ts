/**
 * Operations: the health endpoints a balancer or an orchestrator polls.
 */
import { expect, test } from '@playwright/test';

test('GET /healthz says the process is alive, never cached', async ({ request }) => {
  const response = await request.get('/healthz');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  expect(await response.json()).toEqual({ status: 'alive' });
});

test('GET /readyz says the instance is ready, with its mode and store, and no secrets', async ({ request }) => {
  const response = await request.get('/readyz');
  expect(response.status()).toBe(200);
  expect(response.headers()['cache-control']).toBe('no-store');
  const body = await response.text();
  expect(JSON.parse(body)).toEqual({ status: 'ready', checks: { configuration: 'ok', store: 'ok' }, store: 'memory', mode: 'emulator' });
  expect(body).not.toMatch(/http|demo-relying-party|kid|secret/i);
});

test('starts over the per-address rate limit get 429 with Retry-After and the failure page', async ({ request, page }) => {
  const PROVIDER_APP = 'http://localhost:3101';
  // An address of its own (TRUST_PROXY=0: Next.js keeps a client's X-Forwarded-For), so the
  // provider-mode tests' starts from this machine are not counted with these.
  const address = `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
  const start = () => request.post(`${PROVIDER_APP}/auth/start`, { headers: { 'x-forwarded-for': address }, maxRedirects: 0 });
  for (let attempt = 0; attempt < 5; attempt += 1) expect((await start()).status()).toBe(303);
  const refused = await start();
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
  await page.setContent(await refused.text());
  await expect(page.getByTestId('error-code')).toHaveText('rate_limited');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Too many verifications');
});
