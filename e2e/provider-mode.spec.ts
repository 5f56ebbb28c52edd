import { expect, test } from '@playwright/test';
import { decideInEmulatedApp, startDefaultVerification } from './flows';
import { PROVIDER_APP, STRICT_EMULATOR_APP } from './servers';

/**
 * Provider mode: a second copy of the app, configured only by IDV_* variables, uses the strict
 * emulator (another copy, EMULATOR_STRICT=on) as its provider, as it would use
 * staging (see playwright.config.ts). The strict emulator refuses whatever the spec does not list
 * or shape, so a verification that completes here sent nothing else.
 */
const STRICT_EMULATOR = `${STRICT_EMULATOR_APP}/emulator`;

test('a second app instance configured by IDV_* variables completes a flow against the strict emulator', async ({ page }) => {
  await page.goto(`${PROVIDER_APP}/`);
  await expect(page.getByTestId('mode-badge')).toContainText('Provider');
  await expect(page.getByTestId('mode-badge')).toContainText(STRICT_EMULATOR);

  await startDefaultVerification(page, PROVIDER_APP);
  await expect(page).toHaveURL(new RegExp(`^${STRICT_EMULATOR}/auth\\?client_id=second-rp&request_uri=`));
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');

  await expect(page).toHaveURL(`${PROVIDER_APP}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lars Olof Eriksson');
  await expect(page.getByTestId('portrait')).toBeVisible();
});

test.describe('in Norwegian', () => {
  test.use({ locale: 'en-US' });

  test('sends no ui_locales (spec 2.2 does not list it), so the strict emulator completes the flow and its pages follow the browser', async ({ page }) => {
    await page.goto(`${PROVIDER_APP}/`);
    await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Norsk' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verifiser en identitet');
    await page.getByRole('button', { name: 'Start verifisering' }).click();
    await expect(page).toHaveURL(new RegExp(`^${STRICT_EMULATOR}/auth\\?`));
    // No ui_locales: the service's page speaks the browser's English, not the app's Norwegian.
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${PROVIDER_APP}/result`);
    await expect(page.getByTestId('verdict-badge')).toHaveText(/Verifisert/);
  });
});

test('in provider mode the embedded emulator answers 404', async ({ request }) => {
  const response = await request.get(`${PROVIDER_APP}/emulator/.well-known/openid-configuration`);
  expect(response.status()).toBe(404);
});
