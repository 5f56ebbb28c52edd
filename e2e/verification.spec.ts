import { mkdir } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { decideInEmulatedApp, startDefaultVerification } from './flows';

const APP = 'http://localhost:3100';

test('a person verifies with the Norwegian passport persona and sees name, portrait and document', async ({ page }, testInfo) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');

  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  const portrait = page.getByTestId('portrait');
  await expect(portrait).toBeVisible();
  expect(await portrait.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
  expect(await portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByText('14 March 1987')).toBeVisible();
  await expect(page.getByText('Norway (NOR)').first()).toBeVisible();
  await expect(page.getByText('Passport', { exact: true })).toBeVisible();

  await mkdir('e2e/artifacts', { recursive: true });
  const screenshot = await page.screenshot({ path: 'e2e/artifacts/result-desktop.png', fullPage: true });
  await testInfo.attach('result page', { body: screenshot, contentType: 'image/png' });
});

test('cancelling in the identity app ends on the failure page with access_denied', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');

  await expect(page).toHaveURL(/\/error\?/);
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verification cancelled');
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

test('signing out deletes the result', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);

  await page.getByRole('button', { name: 'Sign out and delete' }).click();
  await expect(page.getByRole('status')).toContainText('Signed out');
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
