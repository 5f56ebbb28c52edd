/**
 * The screenshots for the docs (docs/screenshots/ holds the ones the README shows), at phone and
 * desktop widths, in dark mode and in Norwegian: kept in e2e/artifacts/. A project of its own
 * (playwright.config.ts), so that taking them never slows or hides what the axe scans prove. Each
 * page is reached as a person would, and the test fails when one cannot be.
 */
import { mkdir } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { decideInEmulatedApp, openPanelSignedIn, startDefaultVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 900 } } as const;

async function shoot(page: Page, name: string, size: string): Promise<void> {
  await mkdir('e2e/artifacts', { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/${name}-${size}.png`, fullPage: true });
}

for (const size of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
  test.describe(`at ${size} width`, () => {
    test.use({ viewport: WIDTHS[size] });

    test('the picker, the authorization page, the result and the failure page', async ({ page }) => {
      await page.goto(`${APP}/`);
      await shoot(page, 'picker', size);
      await page.getByRole('button', { name: 'Start verification' }).click();
      await expect(page).toHaveURL(/\/emulator\/auth\?/);
      await shoot(page, 'emulator-authorization', size);
      await page.locator('input[name="persona"][value="sofia-costa"]').check();
      await page.locator('button[name="outcome"][value="approve"]').click();
      await expect(page).toHaveURL(`${APP}/result`);
      await page.locator('[data-step=id_token] summary').click();
      await expect(page.locator('[data-step=id_token]')).toContainText('Signed ID token: payload');
      await shoot(page, 'result', size);
      await startDefaultVerification(page, APP);
      await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
      await expect(page.getByTestId('error-code')).toHaveText('access_denied');
      await shoot(page, 'failure', size);
    });

    test('a failure explained by the check that failed', async ({ page }) => {
      await openPanelSignedIn(page, APP);
      await page.getByTestId('fault-wrong_nonce').getByRole('button', { name: 'Arm' }).click();
      await expect(page.getByTestId('fault-wrong_nonce')).toHaveAttribute('data-armed', 'true');
      await startDefaultVerification(page, APP);
      await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
      await expect(page.getByTestId('failure-check')).toBeVisible();
      await expect(page.getByTestId('fault-cause')).toBeVisible();
      await shoot(page, 'failure-check', size);
      // what a tester sees first, for the README
      await page.screenshot({ path: `e2e/artifacts/failure-check-top-${size}.png` });
    });

    test('the QA panel and the identity app’s screens', async ({ page }) => {
      await openPanelSignedIn(page, APP);
      await shoot(page, 'emulator-panel', size);
      await startDefaultVerification(page, APP);
      await page.getByTestId('use-app-on-this-device').click();
      await expect(page.getByTestId('persona-ingrid-haugen')).toBeVisible();
      await shoot(page, 'app-1-document', size);
      await page.getByTestId('persona-ingrid-haugen').click();
      await expect(page.getByTestId('scan-document')).toBeVisible();
      await shoot(page, 'app-2-scan', size);
      await page.getByTestId('scan-document').click();
      await page.getByTestId('read-chip').click();
      await expect(page.getByTestId('chip-result')).toBeVisible();
      await shoot(page, 'app-3-chip', size);
      await page.getByTestId('continue').click();
      await page.getByTestId('check-face').click();
      await expect(page.getByTestId('face-result')).toBeVisible();
      await shoot(page, 'app-4-face', size);
      await page.getByTestId('continue').click();
      await expect(page.getByTestId('share')).toBeVisible();
      await shoot(page, 'app-5-consent', size);
    });
  });
}

test.describe('in dark mode, at desktop width', () => {
  test.use({ viewport: WIDTHS.desktop, colorScheme: 'dark' });

  test('the picker and the result', async ({ page }) => {
    await page.goto(`${APP}/`);
    await shoot(page, 'picker', 'desktop-dark');
    await startDefaultVerification(page, APP);
    await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    await page.locator('[data-step=id_token] summary').click();
    await expect(page.locator('[data-step=id_token]')).toContainText('Signed ID token: payload');
    await shoot(page, 'result', 'desktop-dark');
  });
});

test.describe('in Norwegian, at desktop width', () => {
  test.use({ viewport: WIDTHS.desktop, locale: 'nb-NO' });

  test('the result', async ({ page }) => {
    await page.goto(`${APP}/`);
    await page.getByRole('button', { name: 'Start verifisering' }).click();
    await decideInEmulatedApp(page, 'sofia-costa', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    await page.locator('[data-step=id_token] summary').click();
    await expect(page.locator('[data-step=id_token]')).toContainText('Signert ID-token: payload');
    await shoot(page, 'result-nb', 'desktop');
  });
});

test.describe('the verdict and presenter mode, at desktop width', () => {
  test.use({ viewport: WIDTHS.desktop });

  test('an expired passport, Not verified', async ({ page }) => {
    await startDefaultVerification(page, APP);
    await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    await expect(page.getByTestId('verdict-reasons')).toBeVisible();
    await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
    await page.screenshot({ path: 'e2e/artifacts/verdict-desktop.png' });
  });

  test('presenter mode on a result', async ({ page }) => {
    await startDefaultVerification(page, APP);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    await page.getByTestId('presenter-switch').click();
    await expect(page.getByTestId('presenter-banner')).toBeVisible();
    await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
    await page.screenshot({ path: 'e2e/artifacts/presenter-desktop.png' });
    // the browser remembers it: turned off again for the tests after this one
    await page.getByTestId('presenter-switch').click();
    await expect(page.getByTestId('presenter-banner')).toHaveCount(0);
  });
});
