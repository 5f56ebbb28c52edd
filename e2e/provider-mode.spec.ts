import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { rmSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
import { decideInEmulatedApp, startDefaultVerification } from './flows';
import { PROVIDER_APP, STRICT_EMULATOR_APP, needServers } from './servers';

/**
 * Provider mode: a second copy of the app, configured only by IDV_* variables, uses the strict
 * emulator (another copy, EMULATOR_STRICT=on) as its provider, as it would use
 * staging (see e2e/servers.ts). The strict emulator refuses whatever the spec does not list
 * or shape, so a verification that completes here sent nothing else.
 */
const STRICT_EMULATOR = `${STRICT_EMULATOR_APP}/emulator`;
needServers('providerApp');

test('a second app instance configured by IDV_* variables completes a flow against the strict emulator', async ({ page }) => {
  // The first page may say "Checking…" on a busy machine: the badge never holds a page up.
  await expect(await settledBadge(page, `${PROVIDER_APP}/`)).toContainText('Provider');
  await expect(page.getByTestId('service-issuer')).toContainText(STRICT_EMULATOR);
  // Green: discovery and the JWKS fetched, nothing for the doctor to warn of.
  await expect(page.getByTestId('mode-badge')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByRole('link', { name: /^Provider: OK/ })).toHaveAttribute('href', '/doctor');
  await expect(page.getByTestId('mode-badge-reason')).toHaveCount(0);

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
    await expect(page.getByTestId('verdict-title')).toHaveText(/Verifisert/);
  });
});

test('in provider mode the embedded emulator answers 404', async ({ request }) => {
  const response = await request.get(`${PROVIDER_APP}/emulator/.well-known/openid-configuration`);
  expect(response.status()).toBe(404);
});

/** Reloads until the header's badge has settled (its first findings may still be in the making: it never holds a page up). */
async function settledBadge(page: Page, url: string) {
  await expect(async () => {
    await page.goto(url);
    expect(await page.getByTestId('mode-badge').getAttribute('data-state')).not.toBe('checking');
  }).toPass({ timeout: 20_000 });
  return page.getByTestId('mode-badge');
}

test.describe('a provider whose discovery cannot be reached', () => {
  let app: AppServer;
  let dead: number;
  const dataDir = `.data/e2e-provider-dead-${process.pid}`;
  test.beforeAll(async () => {
    // A port that nothing listens on: every request to the "service" is refused.
    dead = await freePort();
    const port = await freePort();
    app = startAppServer(port, {
      APP_URL: `http://127.0.0.1:${port}`,
      IDV_BASE_URL: `http://127.0.0.1:${dead}/idv`,
      IDV_CLIENT_ID: 'nobody',
      IDV_DATA_DIR: dataDir,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
    });
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${app.port}/healthz`).catch(() => undefined))?.status, { timeout: 60_000 }).toBe(200);
  });
  test.afterAll(async () => {
    app.kill('SIGTERM');
    await app.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  const origin = () => `http://127.0.0.1:${app.port}`;

  test('the header’s badge turns red on every page, says why, and leads to the doctor, which names the cause and the fix', async ({ page }) => {
    const badge = await settledBadge(page, `${origin()}/`);
    await expect(badge).toHaveAttribute('data-state', 'down');
    // Its name says the state; the reason is written beside it (not only on hover) and is its description.
    const link = page.getByRole('link', { name: /^Provider: Unreachable/ });
    await expect(link).toHaveAccessibleDescription('Discovery: connection refused: nothing listens there');
    await expect(page.getByTestId('mode-badge-reason')).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const axe = await new AxeBuilder({ page }).include('header').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(axe.violations.map((violation) => `${colorScheme}: ${violation.id}`)).toEqual([]);
    }
    await expect(link).toHaveAttribute('title', new RegExp(`Service: http://127\\.0\\.0\\.1:${dead}/idv`));
    // Reached by keyboard, like any link.
    await link.focus();
    await expect(link).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`${origin()}/doctor`);
    const discovery = page.getByTestId('doctor').locator('li[data-check="discovery"]');
    await expect(discovery).toHaveAttribute('data-status', 'fail');
    await expect(discovery).toContainText(
      `connection refused: nothing listens there: The discovery endpoint could not be reached: connect ECONNREFUSED 127.0.0.1:${dead}`,
    );
    await expect(discovery).toContainText(`What to do: Nothing accepts connections at 127.0.0.1:${dead}: check the port in IDV_BASE_URL`);
    // Development keys in provider mode, and their fix.
    await expect(page.getByTestId('doctor').locator('li[data-check="signing-key"]')).toHaveAttribute('data-status', 'warn');
    await expect(page.getByTestId('doctor').locator('li[data-check="signing-key"]')).toContainText('run npm run keys');
    // The badge is in the header of the doctor's page too, and of a page that is not found.
    await expect(page.getByTestId('mode-badge')).toHaveAttribute('data-state', 'down');
    await page.goto(`${origin()}/no-such-page`);
    await expect(page.getByTestId('mode-badge')).toHaveAttribute('data-state', 'down');
  });

  test('in Norwegian', async ({ page, context }) => {
    await context.addCookies([{ name: 'idv_lang', value: 'nb', url: origin() }]);
    await settledBadge(page, `${origin()}/`);
    await expect(page.getByRole('link', { name: /^Leverandør: Utilgjengelig/ })).toHaveAccessibleDescription(
      'Discovery: tilkoblingen ble avvist: ingenting lytter der',
    );
  });
});

test('in provider mode presets suggest no test persona, and the form carries none', async ({ page }) => {
  await page.goto(`${PROVIDER_APP}/`);
  await page.getByTestId('preset-age-and-name').click();
  await expect(page.getByTestId('preset-persona')).toHaveCount(0);
  await expect(page.locator('input[name="persona"]')).toHaveCount(0);
});
