/**
 * A demo in the customer's name: IDV_DEMO_NAME and IDV_DEMO_LOGO in the header and on the
 * embedded emulator's pages (its client's name and logo), the logo served at GET /demo-logo, and
 * IDV_CUSTOMER_MODE, which leaves everything of QA's off the pages: the links to the QA panel and
 * the doctor (they stay reachable by URL), the health badge, the protocol's role, QA's controls. A server of this spec's own, in emulator mode with those settings.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
import { decideInEmulatedApp } from './flows';
import { EMULATOR_APP } from './servers';

const LOGO = 'e2e/fixtures/acme-logo.png';
const PANEL_PASSWORD = randomBytes(18).toString('base64url');
let server: AppServer;
let app: string;

test.beforeAll(async () => {
  const port = await freePort();
  app = `http://localhost:${port}`;
  server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-customer-demo',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    EMULATOR_PANEL_PASSWORD: PANEL_PASSWORD,
    IDV_DEMO_NAME: 'Acme Bank',
    // relative: the project folder's (scripts/start.mjs)
    IDV_DEMO_LOGO: LOGO,
    IDV_CUSTOMER_MODE: 'on',
  });
  await server.ready(45_000);
});

test.afterAll(() => server?.kill('SIGTERM'));

test('the header shows the customer’s name and logo at a fixed size, in either language', async ({ page }) => {
  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`${app}/`);
    const name = page.getByTestId('site-name');
    await expect(name).toContainText('Acme Bank');
    await expect(name).not.toContainText('Identity verification');
    const logo = page.getByTestId('demo-logo');
    await expect(logo).toHaveAttribute('alt', 'Acme Bank logo');
    expect(await logo.evaluate(async (image: HTMLImageElement) => (await image.decode(), image.naturalWidth))).toBe(64);
    const box = (await logo.boundingBox())!;
    expect(box.width).toBe(box.height);
    expect(box.width).toBe(viewport.width === 390 ? 28 : 32);
  }
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Norsk' }).click();
  await expect(page.getByTestId('demo-logo')).toHaveAttribute('alt', 'Logoen til Acme Bank');
  await expect(page.getByTestId('site-name')).toContainText('Acme Bank');
});

test('GET /demo-logo serves the file’s bytes as the PNG it is, never sniffed, cached; 404 where no logo is set', async ({ request }) => {
  const response = await request.get(`${app}/demo-logo`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('image/png');
  expect(response.headers()['x-content-type-options']).toBe('nosniff');
  expect(response.headers()['cache-control']).toMatch(/max-age=\d+/);
  expect(Buffer.compare(await response.body(), await readFile(LOGO))).toBe(0);
  expect((await request.get(`${EMULATOR_APP}/demo-logo`)).status()).toBe(404);
});

test('customer mode shows nothing of QA’s: no link to the QA panel or the doctor, no health badge, no role, no QA control, on the app’s pages or the emulator’s; both tools stay reachable by URL', async ({
  page,
}) => {
  // Even a browser signed in to the QA panel, as the person giving the demo may be.
  await page.goto(`${app}/emulator`);
  await page.getByLabel('Panel password').fill(PANEL_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('panel-access')).toHaveAttribute('data-access', 'signed-in');

  const qaLinks = page.locator('a[href="/doctor"], a[href^="/emulator"]');
  await page.goto(`${app}/`);
  await expect(page.getByTestId('start')).toBeVisible();
  await expect(page).toHaveTitle('Identity verification');
  await expect(qaLinks).toHaveCount(0);
  await expect(page.getByTestId('mode-badge')).toHaveCount(0);
  await expect(page.getByTestId('site-header')).not.toContainText('relying party');
  // A selection the service would refuse: its problem is said, but QA's "send it anyway" is not offered.
  await page.getByRole('radio', { name: 'standard_etsi' }).check();
  await page.getByRole('checkbox', { name: /^Given name/ }).uncheck();
  await expect(page.getByTestId('selection-problems')).toContainText('requires given_name and family_name');
  await expect(page.getByTestId('selection-problems').getByRole('checkbox')).toHaveCount(0);
  await page.goto(`${app}/`);

  await page.getByTestId('start').click();
  // the emulator's page names the client by the demo's name, and offers no QA answer
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acme Bank wants to verify your identity');
  await expect(page.getByText('QA: answer this verification with…')).toHaveCount(0);
  const emulatorLogo = page.getByTestId('client-logo');
  await expect(emulatorLogo).toHaveAttribute('src', `${app}/demo-logo`);
  expect(await emulatorLogo.evaluate(async (image: HTMLImageElement) => (await image.decode(), image.naturalWidth))).toBe(64);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${app}/result`);
  await expect(qaLinks).toHaveCount(0);
  await expect(page.getByTestId('mode-badge')).toHaveCount(0);

  for (const path of ['/doctor', '/emulator']) expect((await page.request.get(`${app}${path}`)).status()).toBe(200);
});

test('without customer mode the picker links to both (the suite’s own app)', async ({ page }) => {
  await page.goto(`${EMULATOR_APP}/`);
  await expect(page.getByTestId('qa-panel-link')).toHaveAttribute('href', '/emulator');
  await expect(page.getByTestId('doctor-link')).toHaveAttribute('href', '/doctor');
  await expect(page.getByTestId('mode-badge').getByRole('link')).toHaveAttribute('href', '/doctor');
});
