/**
 * A JWKS outage (the emulator's `jwks_error` and `jwks_timeout` faults) as the relying party meets
 * it: a failure page with a stable code, within the app's own timeout, whether the fault was chosen
 * for one verification or armed on the QA panel; and, once the app has the signing key cached, no
 * JWKS request at all, so the page says the fault was never reached. Runs an app of its own (the
 * built app, production), so that its JWKS cache starts empty: the suite's shared app cached the key
 * at its first verification and does not ask again for a day (spec 4.4, `max-age=86400`).
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer } from '../test/support/app-server';
import { armFault, chooseAnswer, decideInEmulatedApp, openPanelSignedIn, startDefaultVerification } from './flows';

test('a JWKS outage: timeout and jwks_fetch_failed while the app must fetch the keys; never reached once it has them cached', async ({ page }) => {
  test.setTimeout(90_000);
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-jwks-outage',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    EMULATOR_PANEL_PASSWORD: process.env.E2E_PANEL_PASSWORD!,
  });
  try {
    await server.ready();

    // Chosen for this one verification on its own page: the JWKS is held 15 s, the app gives up at
    // its 10 s and says so.
    await openPanelSignedIn(page, app);
    await startDefaultVerification(page, app);
    await chooseAnswer(page, 'fault:jwks_timeout');
    const startedAt = Date.now();
    await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
    await page.locator('button[name="outcome"][value="approve"]').click();
    await expect(page.getByTestId('error-code')).toHaveText('timeout', { timeout: 20_000 });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    await expect(page.getByTestId('fault-cause').locator('[data-fault=jwks_timeout]')).toContainText('JWKS endpoint timeout');
    await expect(page.getByTestId('fault-cause')).toContainText('Chosen for this verification on the emulator’s page.');

    // Armed on the panel: the JWKS answers 500 once; the app names the code, and when it asks again.
    await page.waitForTimeout(1_000); // the app's back-off after the first failure
    await armFault(page, app, 'jwks_error');
    await startDefaultVerification(page, app);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page.getByTestId('error-code')).toHaveText('jwks_fetch_failed');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signing keys unavailable');
    await expect(page.getByTestId('fault-cause').locator('[data-fault=jwks_error]')).toContainText('JWKS endpoint error');
    await expect(page.getByTestId('retry-after')).toContainText('The app asks the service again 2 seconds after this failure');

    // Once the back-off has passed, a normal verification fetches the keys, and the app keeps them.
    await page.waitForTimeout(2_000);
    await startDefaultVerification(page, app);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${app}/result`);

    // With the key cached the app asks for no JWKS: the outage is never reached, and says so; the
    // nonce fault armed with it is what failed.
    await armFault(page, app, 'jwks_error');
    await armFault(page, app, 'wrong_nonce');
    await startDefaultVerification(page, app);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');
    const cause = page.getByTestId('fault-cause');
    await expect(cause.locator('[data-fault]')).toHaveCount(1);
    await expect(cause.locator('[data-fault=wrong_nonce]')).toBeVisible();
    await expect(cause).toContainText('Armed for this verification, but never reached: no JWKS request followed its ID token');
    await expect(cause.locator('[data-unreached=jwks_error]')).toContainText('JWKS endpoint error');
    await page.goto(`${app}/emulator`);
    await expect(page.getByTestId('injected-faults').locator('li', { hasText: 'jwks_error' }).first().getByTestId('not-reached')).toBeVisible();
  } finally {
    server.kill('SIGTERM');
    await server.exited;
  }
});
