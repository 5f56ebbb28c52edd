/**
 * The emulator's own pages as a customer sees them on a shared screen: nothing wider than a
 * 360 px phone; the persona the relying party suggests (login_hint) pre-selected on the
 * authorization page and in the app; the client's name and logo; and the app's dark theme
 * followed, with axe passing in dark. One emulator-mode app of this spec's own, with a second
 * client registered (`shop-rp`, "Nordlys Bank", a PNG logo) whose keys this spec holds, so it can
 * push its own authorization requests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { SignJWT, importJWK } from 'jose';
import { clientKeys } from '../test/support/client-keys';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';

const PANEL_PASSWORD = randomBytes(18).toString('base64url');
const CLIENT_ID = 'shop-rp';
const CLIENT_NAME = 'Nordlys Bank';
const LOGO = `data:image/png;base64,${readFileSync('public/icons/icon-192.png').toString('base64')}`;
const keys = clientKeys(CLIENT_ID);

let server: AppServer;
let dataDir: string;
let app: string;
let issuer: string;
/** `shop-rp`'s redirect URI: a page of its own that only says it is the client. */
let callback: string;
let client: Server;

test.beforeAll(async () => {
  const clientPort = await freePort();
  callback = `http://127.0.0.1:${clientPort}/callback`;
  client = createServer((_request, response) => response.writeHead(200, { 'Content-Type': 'text/plain' }).end('the client'));
  await new Promise<void>((resolve) => client.listen(clientPort, '127.0.0.1', resolve));
  const port = await freePort();
  app = `http://localhost:${port}`;
  issuer = `${app}/emulator`;
  dataDir = mkdtempSync(join(tmpdir(), 'idv-emulator-pages-'));
  server = startAppServer(port, {
    APP_URL: app,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: dataDir,
    EMULATOR_PANEL_PASSWORD: PANEL_PASSWORD,
    EMULATOR_CLIENTS: JSON.stringify([
      { client_id: CLIENT_ID, name: CLIENT_NAME, logo_uri: LOGO, jwks: keys.jwks, redirect_uris: [callback], population_register: false },
    ]),
  });
  await expect.poll(async () => (await fetch(`${app}/readyz`).catch(() => undefined))?.status, { timeout: 30_000, message: server.output() }).toBe(200);
});

test.afterAll(async () => {
  client.close();
  server.kill('SIGTERM');
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A pushed authorization request of `shop-rp`, as a relying party sends it, with `extra` claims in
 * its request object and `form` parameters beside it; returns the authorization URL to open.
 */
async function pushedAuthorization(extra: Record<string, unknown> = {}, form: Record<string, string> = {}): Promise<string> {
  const key = await importJWK(keys.signing, 'ES256');
  const now = Math.floor(Date.now() / 1000);
  const header = { alg: 'ES256', kid: keys.signing.kid, typ: 'JWT' };
  const clientAssertion = await new SignJWT({ iss: CLIENT_ID, sub: CLIENT_ID, aud: issuer, exp: now + 60 }).setProtectedHeader(header).sign(key);
  const request = await new SignJWT({
    iss: CLIENT_ID,
    sub: CLIENT_ID,
    aud: issuer,
    exp: now + 300,
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: callback,
    scope: 'openid',
    state: randomBytes(24).toString('base64url'),
    nonce: randomBytes(24).toString('base64url'),
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    claims: {
      id_token: {
        verified_claims: {
          verification: { trust_framework: { value: 'standard' } },
          claims: { given_name: { essential: true }, family_name: { essential: true } },
        },
      },
    },
    ...extra,
  })
    .setProtectedHeader(header)
    .sign(key);
  const response = await fetch(`${issuer}/par`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: CLIENT_ID,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: clientAssertion,
      request,
      ...form,
    }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  const { request_uri: requestUri } = (await response.json()) as { request_uri: string };
  return `${issuer}/auth?${new URLSearchParams({ client_id: CLIENT_ID, request_uri: requestUri })}`;
}

/** How much wider than the window the page is (0: nothing overflows sideways). */
function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

/**
 * Every kind of emulator page, in order, calling `visit` on each: the authorization page, the
 * app's five steps, the finished page, the error page and the QA panel (signed out and in).
 */
async function everyPage(page: Page, visit: (name: string) => Promise<void>): Promise<void> {
  await page.goto(await pushedAuthorization({ login_hint: 'lars-eriksson' }));
  await visit('authorization page');
  await page.getByTestId('use-app-on-this-device').click();
  await expect(page.getByTestId('app-step')).toHaveText(/1/);
  await visit('app: choose document');
  await page.getByTestId('persona-lars-eriksson').click();
  await expect(page.getByTestId('scan-document')).toBeVisible();
  await visit('app: scan');
  await page.getByTestId('scan-document').click();
  await expect(page.getByTestId('read-chip')).toBeVisible();
  await visit('app: chip');
  await page.getByTestId('read-chip').click();
  await page.getByTestId('continue').click();
  await page.getByTestId('check-face').click();
  await expect(page.getByTestId('face-result')).toBeVisible();
  await visit('app: face');
  await page.getByTestId('continue').click();
  await expect(page.getByTestId('share')).toBeVisible();
  await visit('app: consent');
  // Shared: the redirect reaches the client with a code; the app's link now shows the finished page.
  const appUrl = page.url();
  await page.getByTestId('share').click();
  await expect(page).toHaveURL(new RegExp(`^${callback}\\?code=`));
  await page.goto(appUrl);
  await expect(page.getByTestId('used-flow')).toBeVisible();
  await visit('app: finished');
  await page.goto(`${issuer}/auth?client_id=${CLIENT_ID}&request_uri=urn:ietf:params:oauth:request_uri:unknown`);
  await expect(page.getByTestId('error-code')).toHaveText('invalid_request_uri');
  await visit('error page');
  await page.goto(issuer);
  await expect(page.getByTestId('panel-access')).toBeVisible();
  await visit('QA panel, signed out');
  await page.getByLabel(/Panel password|Panelpassord/).fill(PANEL_PASSWORD);
  await page.getByLabel(/Panel password|Panelpassord/).press('Enter');
  await expect(page.getByTestId('panel-access')).toHaveAttribute('data-access', 'signed-in');
  await visit('QA panel');
}

for (const locale of ['en', 'nb'] as const) {
  test(`at 360 px, in ${locale === 'en' ? 'English' : 'Norwegian'}, no emulator page is wider than the screen and the header keeps "ID Check" on one line`, async ({
    page,
    context,
  }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await context.addCookies([{ name: 'idv_emulator_lang', value: locale, url: issuer }]);
    const widths: Record<string, number> = {};
    await everyPage(page, async (name) => {
      widths[name] = await overflow(page);
      const brand = page.locator('.brand');
      if (await brand.count()) {
        // One line: the brand is as tall as one line of its text.
        const { height, lineHeight } = await brand.evaluate((element) => ({
          height: element.getBoundingClientRect().height,
          lineHeight: parseFloat(getComputedStyle(element).lineHeight),
        }));
        expect(height, `${name}: the brand wraps`).toBeLessThanOrEqual(lineHeight + 1);
      }
    });
    expect(Object.keys(widths)).toHaveLength(10);
    expect(Object.entries(widths).filter(([, extra]) => extra > 0)).toEqual([]);
  });
}

test('a PAR with login_hint pre-selects that persona on the authorization page and in the app, saying who suggested it', async ({ page }) => {
  await page.goto(await pushedAuthorization({ login_hint: 'lars-eriksson' }));
  await expect(page.locator('input[name="persona"]:checked')).toHaveValue('lars-eriksson');
  await expect(page.locator('label.persona', { has: page.locator('input[value="lars-eriksson"]') }).getByTestId('suggested-persona')).toHaveText(
    `Suggested by ${CLIENT_NAME}`,
  );
  await expect(page.getByTestId('suggested-persona')).toHaveCount(1);

  await page.getByTestId('use-app-on-this-device').click();
  await expect(page.getByTestId('persona-lars-eriksson')).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('persona-lars-eriksson').getByTestId('suggested-persona')).toHaveText(`Suggested by ${CLIENT_NAME}`);
  await expect(page.locator('[data-testid^="persona-"][aria-current="true"]')).toHaveCount(1);

  // As a PAR form parameter beside the request object, in Norwegian.
  await page.goto(await pushedAuthorization({ ui_locales: 'nb' }, { login_hint: 'sofia-costa' }));
  await expect(page.locator('input[name="persona"]:checked')).toHaveValue('sofia-costa');
  await expect(page.getByTestId('suggested-persona')).toHaveText(`Foreslått av ${CLIENT_NAME}`);

  // Without a hint, or with one that names nobody, nothing is suggested: the first persona, as before.
  for (const extra of [{}, { login_hint: 'nobody-at-all' }]) {
    await page.goto(await pushedAuthorization(extra));
    await expect(page.locator('input[name="persona"]:checked')).toHaveValue('ingrid-haugen');
    await expect(page.getByTestId('suggested-persona')).toHaveCount(0);
  }
});

test('at 390 px the tag saying who suggested the persona keeps to one line, on the authorization page and in the app, in both languages; at 1440 px tags stay under their words', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  /** One line: the tag is no taller than one line of its text and its border. */
  const oneLine = async (where: string) => {
    const tag = page.getByTestId('suggested-persona');
    await expect(tag).toBeVisible();
    const { height, lineHeight, text } = await tag.evaluate((element) => ({
      height: element.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(element).lineHeight),
      text: element.textContent,
    }));
    expect(height, `${where}: "${text}" wraps`).toBeLessThanOrEqual(lineHeight + 2);
  };
  for (const locale of ['en', 'nb'] as const) {
    await context.addCookies([{ name: 'idv_emulator_lang', value: locale, url: issuer }]);
    await page.goto(await pushedAuthorization({ login_hint: 'lars-eriksson' }));
    await expect(page.getByTestId('suggested-persona')).toHaveText(locale === 'en' ? `Suggested by ${CLIENT_NAME}` : `Foreslått av ${CLIENT_NAME}`);
    await oneLine(`${locale}, authorization page`);
    await page.getByTestId('use-app-on-this-device').click();
    await oneLine(`${locale}, the app`);
  }
  // Two personas a row at 1440 px: a card as tall as its neighbour keeps its tags under its words.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(await pushedAuthorization({ login_hint: 'lars-eriksson' }));
  const gaps = await page
    .locator('label.persona:has(.tags)')
    .evaluateAll((labels) =>
      labels.map(
        (label) => label.querySelector('.tags')!.getBoundingClientRect().top - label.querySelector(':scope > span:not(.tags)')!.getBoundingClientRect().bottom,
      ),
    );
  expect(gaps.length).toBeGreaterThan(2);
  for (const gap of gaps) expect(gap).toBeLessThanOrEqual(10);
});

test('at 1440 px the QA panel’s clients table keeps each client_id and redirect URI on one line; at 1024 px it fits, a URI broken only after a slash', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(issuer);
  const codes = page.locator('#clients tbody').locator('td[data-label="client_id"] code, td:nth-child(3) code');
  await expect(codes).toHaveCount(4); // two clients, one redirect URI each
  const lines = await codes.evaluateAll((elements) => elements.map((element) => [element.textContent, element.getClientRects().length]));
  expect(lines.filter(([, count]) => count !== 1)).toEqual([]);
  // On a laptop the table fits without scrolling sideways: a redirect URI breaks after a slash.
  await page.setViewportSize({ width: 1024, height: 768 });
  const table = page.locator('#clients .table');
  expect(await table.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  const parts = await page.locator('#clients td code.url > span').evaluateAll((spans) => spans.map((span) => span.getClientRects().length));
  expect(parts.filter((count) => count !== 1)).toEqual([]);
});

test('the authorization page names the client and shows its logo, which its Content-Security-Policy lets load', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  const response = await page.goto(await pushedAuthorization());
  expect(response!.headers()['content-security-policy']).toMatch(new RegExp(`img-src 'self' ${app} data:;`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${CLIENT_NAME} wants to verify your identity`);
  const logo = page.getByRole('img', { name: CLIENT_NAME });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(192);
  expect(
    await logo.evaluate((image) => [image.getBoundingClientRect().width, image.getBoundingClientRect().height, getComputedStyle(image).objectFit]),
  ).toEqual([56, 56, 'contain']);
  await page.getByTestId('use-app-on-this-device').click();
  await expect(page.getByText(`${CLIENT_NAME} wants to verify your identity`)).toBeVisible();
  await expect(page.getByRole('img', { name: CLIENT_NAME })).toBeVisible();
  expect(refused).toEqual([]);
});

/** The relative luminance of an `rgb(…)` colour (WCAG 2.x): 0 black, 1 white. */
function luminance(color: string): number {
  const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((channel) => {
    const value = Number(channel) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The colour behind the page's main content: that of `main` or of the nearest ancestor that has one. */
const background = (page: Page) =>
  page.evaluate(() => {
    for (let element: Element | null = document.querySelector('main'); element; element = element.parentElement) {
      const color = getComputedStyle(element).backgroundColor;
      if (color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') return color;
    }
    return 'none';
  });

test('with the app’s theme cookie set to dark, every emulator page is dark, and axe passes in dark', async ({ page, context }) => {
  test.setTimeout(120_000);
  // The browser prefers light: the cookie alone makes the pages dark.
  await page.emulateMedia({ colorScheme: 'light' });
  await context.addCookies([{ name: 'idv_theme', value: 'dark', url: app }]);
  await everyPage(page, async (name) => {
    expect(await page.locator('html').getAttribute('data-theme'), name).toBe('dark');
    expect(luminance(await background(page)), `${name}: background ${await background(page)}`).toBeLessThan(0.05);
    const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
    expect(
      serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
      name,
    ).toEqual([]);
  });
});

test('the app’s theme cookie set to light wins over a browser that prefers dark; without the cookie the page follows the browser', async ({
  page,
  context,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const url = await pushedAuthorization();
  await page.goto(url);
  expect(luminance(await background(page))).toBeLessThan(0.05);
  // The code block keeps a panel of its own in dark: its background is not the card's.
  const code = page.locator('main code').first();
  expect(await code.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe(
    await page
      .locator('.card')
      .first()
      .evaluate((element) => getComputedStyle(element).backgroundColor),
  );

  await context.addCookies([{ name: 'idv_theme', value: 'light', url: app }]);
  await page.goto(issuer);
  expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
  expect(luminance(await background(page))).toBeGreaterThan(0.8);
});
