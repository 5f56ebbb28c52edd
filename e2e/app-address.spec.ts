/**
 * The app has one address, APP_URL (its redirect URI, cookies and same-origin checks hang on it).
 * A page opened under another name of the same server is sent there, or, where the server cannot
 * be sure the browser reaches APP_URL, says which address to open before anything is pressed.
 * Start-up prints the address.
 */
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { freePort, startAppServer } from '../test/support/app-server';
import { EMULATOR_APP as APP } from './servers';

test('a page opened at 127.0.0.1 is sent to APP_URL at localhost, path and query kept, and Start then works', async ({ page }) => {
  const other = APP.replace('//localhost:', '//127.0.0.1:');
  expect(other).not.toBe(APP);
  await page.goto(`${other}/doctor?from=address`);
  await expect(page).toHaveURL(`${APP}/doctor?from=address`);
  await page.goto(`${other}/`);
  await expect(page).toHaveURL(`${APP}/`);
  await expect(page.getByTestId('address-notice')).toHaveCount(0);
  await page.getByRole('button', { name: 'Start verification' }).click();
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
});

/**
 * Links with any character, opened under another name of this server (`other`), are sent to APP_URL
 * (`app`) with their path and query byte for byte, never a 500; opened at APP_URL, they are the
 * page itself. A route handler (a health check) answers where it was asked.
 */
async function linksGoToAppUrl(request: APIRequestContext, app: string, other: string): Promise<void> {
  const page = { accept: 'text/html,application/xhtml+xml' };
  for (const path of ['/?preset=%00', '/?claim=%E2%82%AC', '/%E2%82%AC', '/result?x=%E2%82%AC', '/doctor?from=%2526']) {
    const answer = await request.get(`${other}${path}`, { headers: page, maxRedirects: 0 });
    expect(answer.status(), path).toBe(307);
    expect(answer.headers().location, path).toBe(`${app}${path}`);
  }
  // A byte that is no UTF-8 reaches the app as Next.js decoded it: U+FFFD, percent-encoded.
  const invalid = await request.get(`${other}/?preset=%FF`, { headers: page, maxRedirects: 0 });
  expect(invalid.status()).toBe(307);
  expect(invalid.headers().location).toBe(`${app}/?preset=%EF%BF%BD`);
  for (const path of ['/?preset=%00', '/?preset=%FF', '/?claim=%E2%82%AC']) {
    const answer = await request.get(`${app}${path}`, { headers: page, maxRedirects: 0 });
    expect(answer.status(), path).toBe(200);
    expect(await answer.text(), path).toContain('data-testid="link-problem"');
  }
  expect((await request.get(`${other}/healthz`, { headers: page, maxRedirects: 0 })).status()).toBe(200);
}

test('a link with any character, opened at 127.0.0.1, is sent to APP_URL at localhost percent-encoded, never a 500; a health check there answers where it asked', async ({
  request,
}) => {
  await linksGoToAppUrl(request, APP, APP.replace('//localhost:', '//127.0.0.1:'));
});

test('with APP_URL at 127.0.0.1, the server listening there, a link opened at localhost is sent to APP_URL too, never a 500', async ({ request }) => {
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  const server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-app-address-loopback',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  });
  try {
    await server.ready();
    await linksGoToAppUrl(request, app, `http://localhost:${port}`);
  } finally {
    server.kill('SIGKILL');
  }
});

test('behind a trusted proxy the page stays where it was opened and says which address to open, in the page’s language; start-up prints it', async ({
  page,
}) => {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const server = startAppServer(port, {
    APP_URL: app,
    TRUST_PROXY: '1',
    IDV_DATA_DIR: '.data/e2e-app-address',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  });
  try {
    await server.ready();
    expect(server.output()).toContain(`[idv] open ${app}/ : the app’s address (APP_URL)`);

    const other = `http://127.0.0.1:${port}`;
    await page.goto(`${other}/`);
    await expect(page).toHaveURL(`${other}/`);
    const notice = page.getByTestId('address-notice');
    await expect(notice).toContainText(`This page is open at ${other}, but the app’s address is ${app}.`);
    await expect(notice).toContainText('set to an address that device reaches');
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);
    // The header's switch posts to /preferences, which is refused from this address: the cookie it would set.
    await page.context().addCookies([{ name: 'idv_lang', value: 'nb', url: other }]);
    await page.reload();
    await expect(notice).toContainText(`Denne siden er åpnet på ${other}, men appens adresse er ${app}.`);
    await expect(page.getByTestId('address-notice-link')).toHaveText(`Åpne ${app}`);

    await page.getByTestId('address-notice-link').click();
    await expect(page).toHaveURL(`${app}/`);
    await expect(page.getByTestId('address-notice')).toHaveCount(0);
    await page.getByRole('button', { name: 'Start verification' }).click();
    await expect(page).toHaveURL(/\/emulator\/auth\?/);
  } finally {
    server.kill('SIGKILL');
  }
});
