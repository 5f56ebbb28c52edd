/**
 * An axe scan of every page, at phone and desktop widths: no violation of WCAG 2.1 A and AA, and
 * none of axe's best practices (landmarks, regions, roles, headings), whatever its impact; the
 * app's pages in dark mode and in Norwegian as well. (The screenshots for the docs are taken by
 * e2e/screenshots.spec.ts, a project of its own.)
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { decideInEmulatedApp, openPanelSignedIn, startDefaultVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

const WIDTHS = { phone: { width: 390, height: 844 }, desktop: { width: 1440, height: 900 } } as const;

async function scan(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(
    results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    name,
  ).toEqual([]);
}

for (const size of Object.keys(WIDTHS) as (keyof typeof WIDTHS)[]) {
  test.describe(`at ${size} width`, () => {
    test.use({ viewport: WIDTHS[size] });

    test('the picker, the emulated identity app, the result and the failure page pass axe', async ({ page }) => {
      await page.goto(`${APP}/`);
      await scan(page, 'picker');

      await page.getByRole('button', { name: 'Start verification' }).click();
      await expect(page).toHaveURL(/\/emulator\/auth\?/);
      await scan(page, 'emulator authorization page');

      await page.locator('input[name="persona"][value="sofia-costa"]').check();
      await page.locator('button[name="outcome"][value="approve"]').click();
      await expect(page).toHaveURL(`${APP}/result`);
      await page.locator('[data-step=id_token] summary').click();
      await scan(page, 'result');

      await startDefaultVerification(page, APP);
      await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
      await expect(page.getByTestId('error-code')).toHaveText('access_denied');
      await scan(page, 'failure');

      await page.getByRole('link', { name: 'Back to the start' }).click();
      await page.goto(`${APP}/no-such-page`);
      await scan(page, 'not found');
    });

    test('the fault panel and the identity app’s screens pass axe', async ({ page }) => {
      await page.goto(`${APP}/emulator`);
      await scan(page, 'fault panel, signed out');
      await openPanelSignedIn(page, APP);
      await scan(page, 'fault panel');

      await startDefaultVerification(page, APP);
      await page.getByTestId('use-app-on-this-device').click();
      await expect(page.getByTestId('persona-ingrid-haugen')).toBeVisible();
      await scan(page, 'app: choose document');
      await page.getByTestId('persona-ingrid-haugen').click();
      await expect(page.getByTestId('scan-document')).toBeVisible();
      await scan(page, 'app: scan');
      await page.getByTestId('scan-document').click();
      await page.getByTestId('read-chip').click();
      await expect(page.getByTestId('chip-result')).toBeVisible();
      await scan(page, 'app: chip');
      await page.getByTestId('continue').click();
      await page.getByTestId('check-face').click();
      await expect(page.getByTestId('face-result')).toBeVisible();
      await scan(page, 'app: face');
      await page.getByTestId('continue').click();
      await expect(page.getByTestId('share')).toBeVisible();
      await scan(page, 'app: consent');
    });

    test('the empty result page passes axe', async ({ page }) => {
      await page.goto(`${APP}/result`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('No verified identity');
      await scan(page, 'empty result');
    });

    test('presenter mode passes axe: its banner, and a result with the person hidden', async ({ page }) => {
      await page.goto(`${APP}/`);
      await page.getByTestId('presenter-switch').click();
      await expect(page.getByTestId('presenter-banner')).toBeVisible();
      try {
        await scan(page, 'picker, presenter mode');
        await startDefaultVerification(page, APP);
        await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
        await expect(page).toHaveURL(`${APP}/result`);
        await scan(page, 'result, presenter mode');
      } finally {
        // the browser remembers it: off again for the tests after this one
        await page.getByTestId('presenter-switch').click();
      }
    });
  });
}

test.describe('in dark mode (prefers-color-scheme: dark), at desktop width', () => {
  test.use({ viewport: WIDTHS.desktop, colorScheme: 'dark' });

  test('the picker, the result with its verdict and trace, the failure page, the doctor and the not-found page pass axe', async ({ page }) => {
    await page.goto(`${APP}/`);
    // dark indeed: the page's background is the dark end of the scale
    expect(await page.evaluate(() => getComputedStyle(document.body).colorScheme)).toBe('dark');
    await scan(page, 'picker, dark');

    await startDefaultVerification(page, APP);
    await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    await page.locator('[data-step=id_token] summary').click();
    await scan(page, 'result, dark');

    await startDefaultVerification(page, APP);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
    await expect(page.getByTestId('error-code')).toHaveText('access_denied');
    await scan(page, 'failure, dark');

    await page.goto(`${APP}/doctor`);
    await scan(page, 'doctor, dark');
    await page.getByTestId('presenter-switch').click();
    await scan(page, 'presenter banner, dark');
    await page.getByTestId('presenter-switch').click();
    await page.goto(`${APP}/no-such-page`);
    await scan(page, 'not found, dark');
  });
});

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`in Norwegian (Accept-Language nb-NO), ${colorScheme}, at desktop width`, () => {
    test.use({ viewport: WIDTHS.desktop, colorScheme, locale: 'nb-NO' });

    test('the app’s pages and the emulator’s pass axe', async ({ page }) => {
      await page.goto(`${APP}/`);
      await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
      await scan(page, `picker, nb, ${colorScheme}`);

      await page.getByRole('button', { name: 'Start verifisering' }).click();
      await expect(page).toHaveURL(/\/emulator\/auth\?/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
      await scan(page, `emulator authorization page, nb, ${colorScheme}`);
      await page.getByTestId('use-app-on-this-device').click();
      await expect(page.getByTestId('persona-ingrid-haugen')).toBeVisible();
      await scan(page, `app: choose document, nb, ${colorScheme}`);
      await page.getByTestId('persona-ingrid-haugen').click();
      await expect(page.getByTestId('scan-document')).toBeVisible();
      await page.getByTestId('scan-document').click();
      await page.getByTestId('read-chip').click();
      await expect(page.getByTestId('chip-result')).toBeVisible();
      await page.getByTestId('continue').click();
      await page.getByTestId('check-face').click();
      await expect(page.getByTestId('face-result')).toBeVisible();
      await page.getByTestId('continue').click();
      await expect(page.getByTestId('share')).toBeVisible();
      await scan(page, `app: consent, nb, ${colorScheme}`);

      await decideInEmulatedAppAfterStart(page, 'sofia-costa');
      await page.locator('[data-step=id_token] summary').click();
      await scan(page, `result, nb, ${colorScheme}`);

      await page.goto(`${APP}/`);
      await page.getByRole('button', { name: 'Start verifisering' }).click();
      await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
      await expect(page.getByTestId('error-code')).toHaveText('access_denied');
      await scan(page, `failure, nb, ${colorScheme}`);

      await page.goto(`${APP}/doctor`);
      await scan(page, `doctor, nb, ${colorScheme}`);
      await page.goto(`${APP}/emulator`);
      await scan(page, `fault panel, signed out, nb, ${colorScheme}`);
      await page.goto(`${APP}/no-such-page`);
      await scan(page, `not found, nb, ${colorScheme}`);
    });
  });
}

/** From the home page in Norwegian: start the default request and approve it as `persona`. */
async function decideInEmulatedAppAfterStart(page: Page, persona: string): Promise<void> {
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: 'Start verifisering' }).click();
  await decideInEmulatedApp(page, persona, 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
}
