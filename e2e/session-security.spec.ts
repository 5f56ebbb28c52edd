/**
 * The session binds a flow to the browser that started it; state-changing routes refuse other sites.
 */
import { expect, test } from '@playwright/test';
import { decideInEmulatedApp, startDefaultVerification } from './flows';

const APP = 'http://localhost:3100';

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
