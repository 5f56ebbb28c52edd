/**
 * Screenshots of the pages at phone and desktop widths, in dark mode and in Norwegian, kept in
 * e2e/artifacts/: to look at after a change, and the README's own in e2e/artifacts/readme/
 * (e2e/readme-screenshots.ts), which `npm run screenshots` copies into docs/screenshots/. A project of its own
 * (playwright.config.ts), so that taking them never slows or hides what the axe scans prove. Each
 * page is reached as a person would, and the test fails when one cannot be.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startAppServer } from '../test/support/app-server';
import { decideInEmulatedApp, openPanelSignedIn, startDefaultVerification } from './flows';
import type { README_SCREENSHOTS } from './readme-screenshots';
import { EMULATOR_APP as APP } from './servers';

/** The widths the issue of record names: a desktop screen shared in a meeting, and a phone. */
const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1440, height: 900 } } as const;

/** A whole page, to look at. */
async function shoot(page: Page, name: string, size: string): Promise<void> {
  const path = `e2e/artifacts/${name}-${size}.png`;
  await mkdir(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
}

/** One of the README's screenshots, by its name there: what the screen shows, or the whole page. */
async function readme(name: (typeof README_SCREENSHOTS)[number], page: Page, { fullPage = false } = {}): Promise<void> {
  await mkdir('e2e/artifacts/readme', { recursive: true });
  // The portrait and the logos are loaded before the picture is taken.
  await page.waitForLoadState('load');
  await page.screenshot({ path: `e2e/artifacts/readme/${name}.png`, fullPage });
}

for (const size of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
  test.describe(`at ${size} width`, () => {
    test.use({ viewport: WIDTHS[size] });

    test('the picker, the authorization page, the result and the failure page', async ({ page }) => {
      await page.goto(`${APP}/`);
      await shoot(page, 'picker', size);
      if (size === 'desktop') await readme('picker-desktop', page);
      await page.getByRole('button', { name: 'Start verification' }).click();
      await expect(page).toHaveURL(/\/emulator\/auth\?/);
      await shoot(page, 'emulator-authorization', size);
      if (size === 'desktop') await readme('emulator-authorization-desktop', page);
      await page.locator('input[name="persona"][value="sofia-costa"]').check();
      await page.locator('button[name="outcome"][value="approve"]').click();
      await expect(page).toHaveURL(`${APP}/result`);
      await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
      if (size === 'desktop') await readme('result-desktop', page);
      else await readme('result-phone', page);
      await page.locator('[data-step=id_token] summary').click();
      await expect(page.locator('[data-step=id_token]')).toContainText('Signed ID token: payload');
      await shoot(page, 'result', size);
      await startDefaultVerification(page, APP);
      await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
      await expect(page.getByTestId('error-code')).toHaveText('access_denied');
      await shoot(page, 'failure', size);
      if (size === 'desktop') await readme('failure-desktop', page);
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
      // what a tester sees first
      if (size === 'desktop') await readme('failure-check-top-desktop', page);
    });

    test('the QA panel and the identity app’s screens', async ({ page }) => {
      await openPanelSignedIn(page, APP);
      await shoot(page, 'emulator-panel', size);
      if (size === 'desktop') await readme('emulator-panel-desktop', page);
      await startDefaultVerification(page, APP);
      await page.getByTestId('use-app-on-this-device').click();
      await expect(page.getByTestId('persona-ingrid-haugen')).toBeVisible();
      await shoot(page, 'app-1-document', size);
      await page.getByTestId('persona-ingrid-haugen').click();
      await expect(page.getByTestId('scan-document')).toBeVisible();
      await shoot(page, 'app-2-scan', size);
      if (size === 'phone') await readme('app-2-scan-phone', page, { fullPage: true });
      await page.getByTestId('scan-document').click();
      await page.getByTestId('read-chip').click();
      await expect(page.getByTestId('chip-result')).toBeVisible();
      await shoot(page, 'app-3-chip', size);
      await page.getByTestId('continue').click();
      await page.getByTestId('check-face').click();
      await expect(page.getByTestId('face-result')).toBeVisible();
      await shoot(page, 'app-4-face', size);
      if (size === 'phone') await readme('app-4-face-phone', page, { fullPage: true });
      await page.getByTestId('continue').click();
      await expect(page.getByTestId('share')).toBeVisible();
      await shoot(page, 'app-5-consent', size);
    });

    test.describe('in dark mode', () => {
      test.use({ colorScheme: 'dark' });

      test('the picker, the authorization page and the result', async ({ page }) => {
        await page.goto(`${APP}/`);
        await shoot(page, 'picker', `${size}-dark`);
        await startDefaultVerification(page, APP);
        await shoot(page, 'emulator-authorization', `${size}-dark`);
        await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
        await expect(page).toHaveURL(`${APP}/result`);
        await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
        if (size === 'desktop') await readme('dark-desktop', page);
        else await readme('dark-phone', page);
        await page.locator('[data-step=id_token] summary').click();
        await expect(page.locator('[data-step=id_token]')).toContainText('Signed ID token: payload');
        await shoot(page, 'result', `${size}-dark`);
      });
    });

    test.describe('in Norwegian', () => {
      test.use({ locale: 'nb-NO' });

      test('the picker, the authorization page and the result', async ({ page }) => {
        await page.goto(`${APP}/`);
        await shoot(page, 'picker', `${size}-nb`);
        await page.getByRole('button', { name: 'Start verifisering' }).click();
        await expect(page).toHaveURL(/\/emulator\/auth\?/);
        await shoot(page, 'emulator-authorization', `${size}-nb`);
        await decideInEmulatedApp(page, 'sofia-costa', 'approve');
        await expect(page).toHaveURL(`${APP}/result`);
        await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
        if (size === 'desktop') await readme('norwegian-desktop', page);
        await page.locator('[data-step=id_token] summary').click();
        await expect(page.locator('[data-step=id_token]')).toContainText('Signert ID-token: payload');
        await shoot(page, 'result', `${size}-nb`);
      });
    });

    test('presenter mode on a result', async ({ page }) => {
      await startDefaultVerification(page, APP);
      await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
      await expect(page).toHaveURL(`${APP}/result`);
      await page.getByTestId('presenter-switch').click();
      await expect(page.getByTestId('presenter-banner')).toBeVisible();
      await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
      if (size === 'desktop') await readme('presenter-desktop', page);
      else await readme('presenter-phone', page);
      // the browser remembers it: turned off again for the tests after this one
      await page.getByTestId('presenter-switch').click();
      await expect(page.getByTestId('presenter-banner')).toHaveCount(0);
    });
  });
}

/**
 * Every page in every look, to review a change of layout by eye (e2e/artifacts/all/, with
 * `npm run screenshots -- --every-page`): the picker,
 * the authorization page with its QR code and once a phone is confirmed, the phone's own page, the
 * result (and in presenter mode), a failure and the QA panel, at both widths, in both languages and
 * both themes.
 */
async function everyPage(page: Page, app: string, look: string, { panel = true } = {}): Promise<void> {
  const shot = (name: string) => shoot(page, `all/${name}`, look);
  await page.goto(`${app}/`);
  await shot('picker');
  await page.getByTestId('start').click();
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  await shot('emulator-authorization');
  // A phone opens the QR code's link and is confirmed by its code.
  await page.getByTestId('show-device-link').click();
  const link = (await page.getByTestId('device-url').textContent())!.trim();
  const phone = await page.context().browser()!.newContext({ viewport: WIDTHS.phone, isMobile: true, hasTouch: true, colorScheme: 'no-preference' });
  const phonePage = await phone.newPage();
  await phonePage.goto(link);
  const code = (await phonePage.getByTestId('phone-code').textContent())!.trim();
  await shoot(phonePage, 'all/phone-code', look);
  await phone.close();
  await page.locator('#phone-code').fill(code);
  await page.getByTestId('confirm-phone').click();
  await expect(page.getByTestId('phone-confirmed')).toBeVisible();
  await shot('emulator-phone-confirmed');
  // The quick test on the computer decides it (the page is now GET /auth/page).
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page).toHaveURL(`${app}/result`);
  await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
  await shot('result');
  await page.getByTestId('presenter-switch').click();
  await expect(page.getByTestId('presenter-banner')).toBeVisible();
  await shot('result-presenter');
  await page.getByTestId('presenter-switch').click();
  await expect(page.getByTestId('presenter-banner')).toHaveCount(0);
  await page.goto(`${app}/?preset=population-register`);
  await page.getByTestId('start').click();
  await decideInEmulatedApp(page, 'amira-nilsen', 'approve');
  await expect(page).toHaveURL(`${app}/result`);
  await shot('result-population-register');
  await page.goto(`${app}/`);
  await page.getByTestId('start').click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  await shot('failure');
  if (panel) {
    await openPanelSignedIn(page, app);
    await shot('emulator-panel');
  }
}

// Only when asked (`npm run screenshots -- --every-page`): some 120 pictures, two minutes of a CI run.
if (process.env.E2E_EVERY_PAGE === '1') {
  for (const size of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
    for (const locale of ['en-GB', 'nb-NO'] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        test.describe(`every page at ${size} width, ${locale}, ${colorScheme}`, () => {
          test.use({ viewport: WIDTHS[size], locale, colorScheme });

          test('every page', async ({ page }) => {
            await everyPage(page, APP, `${size}-${locale.slice(0, 2)}-${colorScheme}`);
          });
        });
      }
    }
  }

  test.describe('every page in customer mode', () => {
    let server: ReturnType<typeof startAppServer>;
    let app: string;
    test.beforeAll(async () => {
      const port = await freePort();
      app = `http://localhost:${port}`;
      server = startAppServer(port, {
        APP_URL: app,
        IDV_DATA_DIR: '.data/e2e-screenshots-customer-all',
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        IDV_DEMO_NAME: 'Acme Bank',
        IDV_DEMO_LOGO: 'e2e/fixtures/acme-logo.png',
        IDV_CUSTOMER_MODE: 'on',
        EMULATOR_DEVICE_URL: app,
      });
      await server.ready(45_000);
    });
    test.afterAll(() => server.kill('SIGKILL'));

    for (const size of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
      for (const [locale, colorScheme] of [
        ['en-GB', 'light'],
        ['en-GB', 'dark'],
        ['nb-NO', 'light'],
      ] as const) {
        test.describe(`at ${size} width, ${locale}, ${colorScheme}`, () => {
          test.use({ viewport: WIDTHS[size], locale, colorScheme });

          test('every page but the QA panel', async ({ page }) => {
            await everyPage(page, app, `customer-${size}-${locale.slice(0, 2)}-${colorScheme}`, { panel: false });
          });
        });
      }
    }
  });
}

test.describe('the verdict, at desktop width', () => {
  test.use({ viewport: WIDTHS.desktop });

  test('an expired passport, Not verified', async ({ page }) => {
    await startDefaultVerification(page, APP);
    await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    await expect(page.getByTestId('verdict-reasons')).toBeVisible();
    await expect(page.getByTestId('portrait')).toHaveJSProperty('complete', true);
    await readme('verdict-desktop', page);
  });
});

test.describe('a demo in the customer’s name, at desktop width', () => {
  test.use({ viewport: WIDTHS.desktop });

  test('the header with the customer’s name and logo, and the emulator’s page saying who asks, the suggested person chosen', async ({ page }) => {
    const port = await freePort();
    const app = `http://localhost:${port}`;
    const server = startAppServer(port, {
      APP_URL: app,
      IDV_DATA_DIR: '.data/e2e-screenshots-customer',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      IDV_DEMO_NAME: 'Acme Bank',
      IDV_DEMO_LOGO: 'e2e/fixtures/acme-logo.png',
      IDV_CUSTOMER_MODE: 'on',
    });
    try {
      await server.ready(45_000);
      await page.goto(`${app}/`);
      await expect(page.getByTestId('demo-logo')).toHaveJSProperty('complete', true);
      await readme('customer-demo-desktop', page);
      // A preset that suggests a person: the emulator's page has them chosen.
      const preset = page
        .locator('button[name="preset"]')
        .filter({ has: page.getByTestId('preset-persona') })
        .first();
      await preset.click();
      await page.getByTestId('start').click();
      await expect(page).toHaveURL(/\/emulator\/auth\?/);
      await expect(page.getByTestId('suggested-persona')).toBeVisible();
      await expect(page.getByTestId('client-logo')).toHaveJSProperty('complete', true);
      await readme('customer-demo-emulator-desktop', page);
    } finally {
      server.kill('SIGKILL');
    }
  });
});
