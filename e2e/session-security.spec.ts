/**
 * The session binds a flow to the browser that started it; state-changing routes refuse other sites.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { decideInEmulatedApp, startDefaultVerification } from './flows';
import { EMULATOR_APP as APP, EMULATOR_DATA_DIR } from './servers';

/**
 * Starts a flow and decides in the emulated app, returning the callback URL the emulator
 * redirects to, without letting this browser follow it.
 */
async function callbackUrlFor(page: import('@playwright/test').Page, outcome: 'approve' | 'cancel'): Promise<string> {
  await startDefaultVerification(page, APP);
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  let callback = '';
  await page.route(`${APP}/emulator/auth`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    callback = response.headers().location ?? '';
    await route.fulfill({ status: 200, contentType: 'text/plain', body: 'stopped before the callback' });
  });
  await page.locator(`button[name="outcome"][value="${outcome}"]`).click();
  await expect.poll(() => callback).toContain('/auth/callback?');
  await page.unroute(`${APP}/emulator/auth`);
  return callback;
}

test('a callback opened in another browser is refused there, and the starting browser can still finish', async ({ page, browser }) => {
  const callback = await callbackUrlFor(page, 'approve');

  const other = await browser.newContext();
  const attacker = await other.newPage();
  await attacker.goto(callback);
  await expect(attacker.getByTestId('error-code')).toHaveText('state_mismatch');
  await other.close();

  await page.goto(callback);
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
});

test('a callback replayed after a failed completion is refused with state_mismatch', async ({ page }) => {
  const callback = await callbackUrlFor(page, 'cancel');
  await page.goto(callback);
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  await page.goto(callback);
  await expect(page.getByTestId('error-code')).toHaveText('state_mismatch');
});

test('sign-out from another site is refused', async ({ request }) => {
  const response = await request.post(`${APP}/auth/signout`, { headers: { origin: 'https://evil.example' }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toContain('code=forbidden_origin');
});

test('pages carry the security headers', async ({ request }) => {
  const headers = (await request.get(`${APP}/`)).headers();
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-powered-by']).toBeUndefined();
  expect(headers['strict-transport-security']).toBe('max-age=63072000');
});

test('the not-found page of a path that looks like a file, which proxy.ts does not see, runs no script at all', async ({ page, request }) => {
  const answer = await request.get(`${APP}/no-such-page.php`);
  expect(answer.status()).toBe(404);
  expect(answer.headers()['content-security-policy']).toContain("script-src 'none'");
  expect(await answer.text()).toContain('<script');
  const blocked: string[] = [];
  await page.exposeFunction('reportViolation', (directive: string) => blocked.push(directive));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(d: string): void }).reportViolation(event.effectiveDirective),
    );
  });
  await page.goto(`${APP}/no-such-page.php`);
  await expect.poll(() => blocked).toContain('script-src-elem');
});

test('every page rendered per request runs only the scripts with the nonce of its response’s Content-Security-Policy, and an injected script does not run', async ({
  page,
  request,
}) => {
  for (const path of ['/', '/?preset=full-kyc', '/result', '/failure?code=access_denied', '/no-such-page']) {
    const first = await request.get(`${APP}${path}`);
    const second = await request.get(`${APP}${path}`);
    const policy = first.headers()['content-security-policy'] ?? '';
    const nonce = /script-src 'self' 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(policy)?.[1];
    expect(nonce, `${path}: ${policy}`).toBeDefined();
    // Its policy alone: the static files' (next.config.mjs), which allows no script, is not added to it.
    expect(policy, path).not.toContain("script-src 'none'");
    expect(second.headers()['content-security-policy']).not.toContain(nonce);
    // Every script element of the page carries this response's nonce.
    const scripts = [...(await first.text()).matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length, path).toBeGreaterThan(0);
    for (const script of scripts) expect(script, path).toContain(`nonce="${nonce}"`);
  }

  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (directive: string) => violations.push(directive));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(d: string): void }).reportViolation(event.effectiveDirective),
    );
  });
  await page.goto(`${APP}/?preset=full-kyc`);
  // The page hydrated: the picker's client code runs (unticking a claim updates the live preview).
  await page.getByRole('checkbox', { name: /^Given name/ }).uncheck();
  await expect(page.getByTestId('claims-preview')).not.toContainText('given_name');
  expect(violations).toEqual([]);
  // What an HTML injection would bring: an inline event handler.
  await page.evaluate(() => {
    document.body.insertAdjacentHTML('beforeend', '<img alt="" src="/no-such-image.png" onerror="window.injected = 1">');
  });
  await expect.poll(() => violations).toContain('script-src-attr');
  expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
});

test('the session cookie is a browser-session cookie: HttpOnly, SameSite=Lax, no expiry', async ({ page, context }) => {
  await page.goto(`${APP}/`);
  const session = (await context.cookies(APP)).find((cookie) => cookie.name === 'idv_rp_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', expires: -1 });
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  expect((await context.cookies(APP)).find((cookie) => cookie.name === 'idv_rp_session')?.expires).toBe(-1);
});

test('every binding cookie’s seal carries its expiry, a day ahead: the one the home page hands out and the one a start without a binding issues', async ({
  page,
  context,
  request,
}) => {
  const expiry = (seal: string) => Number(seal.split('~')[0]!.split('*')[5]);
  const day = 24 * 3600 * 1000;
  await page.goto(`${APP}/`);
  const handedOut = (await context.cookies(APP)).find((cookie) => cookie.name === 'idv_rp_session')!.value;
  expect(expiry(handedOut) - Date.now()).toBeGreaterThan(day - 120_000);
  expect(expiry(handedOut) - Date.now()).toBeLessThanOrEqual(day);

  // A start without any cookie (a form posted straight to the route) binds the browser itself.
  const started = await request.post(`${APP}/auth/start`, { form: { preset: 'age-and-name' }, headers: { origin: APP }, maxRedirects: 0 });
  expect(started.status()).toBe(303);
  const issued = /idv_rp_session=([^;]+)/.exec(started.headers()['set-cookie'] ?? '')?.[1];
  expect(issued).toBeDefined();
  expect(expiry(decodeURIComponent(issued!)) - Date.now()).toBeGreaterThan(day - 120_000);
  expect(started.headers()['set-cookie']).not.toMatch(/max-age|expires/i);
});

test('a tampered session cookie does not lock the browser out', async ({ page, context }) => {
  await context.addCookies([{ name: 'idv_rp_session', value: '*******~2', url: APP }]);
  await startDefaultVerification(page, APP);
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
});

test('two tabs that start verifications at the same moment both complete', async ({ context }) => {
  const tabs = [await context.newPage(), await context.newPage()];
  await Promise.all(tabs.map((tab) => tab.goto(`${APP}/`)));
  // Both start before either response arrives: neither can see the other's flow in a cookie.
  await Promise.all(tabs.map((tab) => tab.getByRole('button', { name: 'Start verification' }).click()));
  for (const tab of tabs) await expect(tab).toHaveURL(/\/emulator\/auth\?/);
  await Promise.all(tabs.map((tab) => decideInEmulatedApp(tab, 'ingrid-haugen', 'approve')));
  for (const tab of tabs) {
    await expect(tab).toHaveURL(`${APP}/result`);
    await expect(tab.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  }
});

test('no page, nor its React Server Components payload, carries a private key member or a secret', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  // This worker's app's own secrets: its generated client keys (its data folder) and its session secret.
  const keys = JSON.parse(readFileSync(join(EMULATOR_DATA_DIR, 'dev-client-keys.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  const secrets = [process.env.E2E_EMULATOR_SESSION_SECRET!, process.env.E2E_PANEL_PASSWORD!];
  for (const jwk of Object.values(keys)) {
    for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) if (typeof jwk[member] === 'string') secrets.push(jwk[member] as string);
  }
  expect(secrets.length).toBeGreaterThan(6);
  for (const path of [
    '/',
    '/result',
    '/result/trace',
    '/failure?code=access_denied',
    '/emulator',
    '/emulator/.well-known/openid-configuration',
    '/emulator/jwks',
  ]) {
    for (const rsc of [false, true]) {
      const response = await page.request.get(`${APP}${path}`, { headers: rsc ? { RSC: '1' } : {} });
      const body = await response.text();
      expect(body.length, path).toBeGreaterThan(0);
      // No JWK on any page has a private member (Next's own payload uses one-letter keys too, so
      // only what lies between a JWK's "kty" and the end of its object is looked at).
      for (const match of body.matchAll(/\\?"kty\\?"/g)) {
        const jwk = body.slice(match.index, body.indexOf('}', match.index));
        expect(jwk, `${path}${rsc ? ' (RSC)' : ''}`).not.toMatch(/\\?"(d|p|q|dp|dq|qi|k)\\?":/);
      }
      for (const secret of secrets) expect(body.includes(secret), `${path}${rsc ? ' (RSC)' : ''} carries a secret`).toBe(false);
    }
  }
});

test('a failure page link shows the detail and the trace only to the browser whose failure it is', async ({ page, browser }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
  await expect(page).toHaveURL(/\/failure\?code=access_denied&id=/);
  await expect(page.getByTestId('trace')).toBeVisible();
  const link = page.url();

  const stranger = await browser.newContext();
  const other = await stranger.newPage();
  await other.goto(link);
  await expect(other.getByTestId('error-code')).toHaveText('access_denied');
  await expect(other.getByTestId('trace')).toHaveCount(0);
  expect(await other.content()).not.toContain('demo-relying-party');
  await stranger.close();
});

test('a link to the failure page under its old name, /error, lands on the failure page with its query', async ({ page }) => {
  const response = await page.goto(`${APP}/error?code=access_denied`);
  expect(response!.status()).toBe(200);
  await expect(page).toHaveURL(`${APP}/failure?code=access_denied`);
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
});
