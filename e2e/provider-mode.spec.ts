import { expect, test } from '@playwright/test';
import { decideInEmulatedApp, startDefaultVerification } from './flows';

/**
 * Provider mode: a second copy of the app (port 3101), configured only by IDV_* variables, uses the
 * first instance's emulator as its provider, as it would use staging (see playwright.config.ts).
 */
const PROVIDER_APP = 'http://127.0.0.1:3101';

test('a second app instance configured by IDV_* variables completes a flow against the first one’s emulator', async ({ page }) => {
  await page.goto(`${PROVIDER_APP}/`);
  await expect(page.getByTestId('mode-badge')).toContainText('Provider');
  await expect(page.getByTestId('mode-badge')).toContainText('http://localhost:3100/emulator');

  await startDefaultVerification(page, PROVIDER_APP);
  await expect(page).toHaveURL(/^http:\/\/localhost:3100\/emulator\/auth\?client_id=second-rp&request_uri=/);
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');

  await expect(page).toHaveURL(`${PROVIDER_APP}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lars Olof Eriksson');
  await expect(page.getByTestId('portrait')).toBeVisible();
});

test('in provider mode the embedded emulator answers 404', async ({ request }) => {
  const response = await request.get(`${PROVIDER_APP}/emulator/.well-known/openid-configuration`);
  expect(response.status()).toBe(404);
});
