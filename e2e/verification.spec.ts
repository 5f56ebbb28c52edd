import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { decideInEmulatedApp, startDefaultVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

test('a person verifies with the Norwegian passport persona and sees name, portrait and document', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');

  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  const portrait = page.getByTestId('portrait');
  await expect(portrait).toBeVisible();
  // Served on its own, so the page does not carry it twice (in its HTML and its React payload).
  expect(await portrait.getAttribute('src')).toBe('/result/portrait');
  await expect.poll(() => portrait.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBeGreaterThan(0);
  await expect(page.getByText('14 March 1987')).toBeVisible();
  await expect(page.getByText('Norway (NOR)').first()).toBeVisible();
  await expect(page.getByText('Passport', { exact: true })).toBeVisible();
});

test('cancelling in the identity app ends on the failure page with access_denied', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');

  await expect(page).toHaveURL(/\/failure\?/);
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The service refused the verification');
  await expect(page.getByTestId('service-error')).toHaveText('access_denied');
});

test('a callback replayed after the flow completed is refused with state_mismatch', async ({ page }) => {
  await startDefaultVerification(page, APP);
  let callbackUrl = '';
  page.on('request', (request) => {
    if (request.url().startsWith(`${APP}/auth/callback`)) callbackUrl = request.url();
  });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);

  await page.goto(callbackUrl);
  await expect(page.getByTestId('error-code')).toHaveText('state_mismatch');
});

test('the portrait and the trace are served only to the browser that owns the result, never cached, and not after sign-out', async ({ page, browser }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);

  const portrait = await page.request.get(`${APP}/result/portrait`);
  expect(portrait.status()).toBe(200);
  expect(portrait.headers()['content-type']).toBe('image/jpeg');
  expect(portrait.headers()['cache-control']).toBe('private, no-store');
  expect(portrait.headers()['cross-origin-resource-policy']).toBe('same-origin');
  expect((await portrait.body()).subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  const trace = await page.request.get(`${APP}/result/trace`);
  expect(trace.headers()['cache-control']).toBe('private, no-store');
  const steps = ((await trace.json()) as { step: string; sections: unknown[] }[]).map((entry) => entry.step);
  expect(steps).toContain('par');
  expect(steps).toContain('id_token');

  const stranger = await browser.newContext();
  for (const part of ['portrait', 'trace']) expect((await stranger.request.get(`${APP}/result/${part}`)).status()).toBe(404);
  await stranger.close();

  await page.getByRole('button', { name: 'Sign out and delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signed out' })).toBeVisible();
  for (const part of ['portrait', 'trace']) expect((await page.request.get(`${APP}/result/${part}`)).status()).toBe(404);
});

test('signing out deletes the result', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);

  await page.getByRole('button', { name: 'Sign out and delete' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signed out' })).toBeVisible();
  await page.goto(`${APP}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No verified identity');
});

test('a start request from another site is refused', async ({ request }) => {
  const response = await request.post(`${APP}/auth/start`, {
    headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    data: '',
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toContain('code=forbidden_origin');
});

test('the national identity and document numbers are masked alike on the cards, in the trace and in its download, with one switch to show them all', async ({
  page,
}) => {
  const fnr = '14038726421';
  const documentNumber = 'FK4820713';
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);

  // Masked: not on the page, in its React payload or in the trace it loads, not even hidden.
  for (const [path, headers] of [
    ['/result', {}],
    ['/result', { RSC: '1' }],
    ['/result/trace', {}],
  ] as const) {
    const body = await (await page.request.get(`${APP}${path}`, { headers })).text();
    expect(body, path).not.toContain(fnr);
    expect(body, path).not.toContain(documentNumber);
  }
  const documentCard = page.getByRole('region', { name: 'Identity document' });
  await expect(documentCard.getByText('•••••0713')).toBeVisible();
  await expect(documentCard.getByText('•••••••6421')).toBeVisible();
  await page.locator('[data-step=id_token] summary').click();
  const payload = page.getByRole('region', { name: 'ID token decrypted and verified: Signed ID token: payload' });
  await expect(payload).toContainText('"document_number": "•••••0713"');
  await expect(payload).toContainText('"value": "•••••••6421"');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  const downloaded = await readFile(await (await download).path(), 'utf8');
  expect(downloaded).toContain('•••••••6421');
  expect(downloaded).not.toContain(fnr);

  // One switch shows them everywhere.
  await page.getByRole('link', { name: 'Show the numbers' }).click();
  await expect(page.getByTestId('numbers-switch')).toHaveAttribute('data-revealed', 'true');
  await expect(documentCard.getByText(documentNumber)).toBeVisible();
  await expect(documentCard.getByText(fnr)).toBeVisible();
  await page.locator('[data-step=id_token] summary').click();
  await expect(payload).toContainText(`"value": "${fnr}"`);
  const revealedDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  expect(await readFile(await (await revealedDownload).path(), 'utf8')).toContain(fnr);

  // And masks them again.
  await page.getByRole('link', { name: 'Mask the numbers' }).click();
  await expect(page.getByTestId('numbers-switch')).toHaveAttribute('data-revealed', 'false');
  await expect(documentCard.getByText(fnr)).toHaveCount(0);
});

test('an exchange of the trace opened before the page is hydrated shows its detail once it is', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  // The page again, its scripts held back until an exchange is open: React was not listening to
  // the toggle when it happened.
  const held: (() => Promise<void>)[] = [];
  await page.route('**/_next/static/chunks/**', (route) => {
    held.push(() => route.continue());
  });
  await page.reload({ waitUntil: 'commit' });
  const par = page.locator('[data-testid=trace-entry][data-step=par]');
  // (Opened as a click opens it: the page is not painted yet, so a pointer has nothing to hit.)
  await par.locator('details').evaluate((details: HTMLDetailsElement) => {
    details.open = true;
  });
  await expect(par).toContainText('Loading the detail…');
  for (const release of held) await release();
  await page.unroute('**/_next/static/chunks/**');
  await expect(par).toContainText('Form parameters sent');
});

test.describe('Start, while the request is pushed', () => {
  /**
   * Holds the form's submission back after the picker has seen it, as a slow service holds the
   * answer to POST /auth/start (it pushes the request first): the page stays in that moment.
   * (Playwright cannot look into a page whose navigation is pending, whether its request is
   * routed or slowed by the network, so the wait is made here, after React's own handler.)
   */
  async function holdSubmission(page: import('@playwright/test').Page) {
    await page.evaluate(() => window.addEventListener('submit', (event) => event.preventDefault()));
  }

  test('says it is working: disabled, a spinner, “Starting…”, aria-busy and a status message', async ({ page }) => {
    await page.goto(`${APP}/`);
    await holdSubmission(page);
    const start = page.getByTestId('start');
    await start.click();
    await expect(start).toBeDisabled();
    await expect(start).toHaveText('Starting…');
    await expect(page.getByTestId('start-spinner')).toBeVisible();
    await expect(page.getByTestId('picker')).toHaveAttribute('aria-busy', 'true');
    await expect(page.getByRole('status').filter({ hasText: 'Starting the verification: pushing the request to the service…' })).toHaveCount(1);
    // What the browser fires when it shows the page again from its back-forward cache, state and all.
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })));
    await expect(start).toBeEnabled();
    await expect(start).toHaveText('Start verification');
    await expect(page.getByTestId('picker')).toHaveAttribute('aria-busy', 'false');
    await expect(page.getByTestId('start-status')).toHaveText('');
  });

  test('a double press sends one request, and the flow goes on', async ({ page }) => {
    await page.goto(`${APP}/`);
    let posts = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/auth/start') posts += 1;
    });
    await page.getByTestId('start').dblclick();
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    expect(posts).toBe(1);
  });

  test('is ready again back from the service’s page', async ({ page }) => {
    await page.goto(`${APP}/`);
    await page.getByTestId('start').click();
    await expect(page).toHaveURL(/\/emulator\/auth\?/);
    await page.goBack();
    await expect(page.getByTestId('start')).toBeEnabled();
    await expect(page.getByTestId('start')).toHaveText('Start verification');
  });

  test.describe('in Norwegian', () => {
    test('says «Starter …»', async ({ page, context }) => {
      await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
      await page.goto(`${APP}/`);
      await holdSubmission(page);
      await page.getByTestId('start').click();
      await expect(page.getByTestId('start')).toHaveText('Starter …');
      await expect(page.getByTestId('start')).toBeDisabled();
      await expect(page.getByRole('status').filter({ hasText: 'Starter verifiseringen: sender forespørselen til tjenesten …' })).toHaveCount(1);
    });
  });
});
