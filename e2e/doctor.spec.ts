/**
 * The doctor's page (GET /doctor): against the embedded emulator every line passes, with our
 * public JWKS to register.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { EMULATOR_APP as APP } from './servers';

test('the doctor page passes every line against the embedded emulator and shows our public JWKS', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.getByRole('link', { name: /^Doctor/ }).click();
  await expect(page).toHaveURL(`${APP}/doctor`);
  const lines = page.getByTestId('doctor').locator('li');
  expect(await lines.count()).toBeGreaterThan(15);
  await expect(page.getByTestId('doctor').locator('li:not([data-status="pass"])')).toHaveCount(0);
  await expect(page.getByTestId('doctor').locator('li[data-check="issuer"]')).toContainText('Issuer equals IDV_BASE_URL');
  await expect(page.getByTestId('doctor-summary')).toContainText('0 failed');
  const jwks = JSON.parse((await page.getByTestId('doctor-jwks').textContent())!) as { keys: Record<string, unknown>[] };
  expect(jwks.keys.map((key) => key.use)).toEqual(['sig', 'enc']);
  expect(jwks.keys.some((key) => 'd' in key)).toBe(false);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
});

test('the doctor page speaks Norwegian to a reader who chose it, codes and member names as written', async ({ page, context }) => {
  await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
  await page.goto(`${APP}/doctor`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Diagnose');
  await expect(page).toHaveTitle(/^Diagnose/);
  await expect(page.getByTestId('doctor').locator('li:not([data-status="pass"])')).toHaveCount(0);
  await expect(page.getByTestId('doctor').locator('li[data-check="issuer"]')).toContainText('Utstederen er lik IDV_BASE_URL');
  await expect(page.getByTestId('doctor').locator('li[data-check="par"]')).toContainText('require_pushed_authorization_requests: true');
  await expect(page.getByTestId('doctor').locator('li[data-check="issuer"]')).toContainText('OK:');
  await expect(page.getByTestId('doctor-summary')).toContainText('0 med feil');
  await expect(page.getByRole('region', { name: 'Vår offentlige JWKS, som skal registreres hos tjenesten' })).toBeVisible();
  await expect(page.getByText('npm run doctor -- --lang nb')).toBeVisible();
});

test('the doctor page gives the variables for staging, placeholders for what it does not know, with a copy button', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${APP}/doctor`);
  const card = page.getByRole('region', { name: 'The variables for staging' });
  const text = (await page.getByTestId('doctor-environment').textContent())!;
  expect(text).toContain('IDV_BASE_URL=<https://base URL of the service>');
  expect(text).toContain('IDV_CLIENT_ID=<client_id>');
  expect(text).toContain('IDV_SIGNING_KEY=<private signing JWK from npm run keys>');
  expect(text).toContain(`APP_URL=${APP}\n`);
  expect(text).toContain(`the redirect URI to register with the service is ${APP}/auth/callback`);
  expect(text).not.toMatch(/"d"|"kty"/);
  await card.getByRole('button', { name: 'Copy the variables' }).click();
  await expect(card.getByRole('status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
  // The header's badge: the embedded emulator, green.
  await expect(page.getByTestId('mode-badge')).toHaveAttribute('data-state', 'ok');
  await expect(page.getByRole('link', { name: /^Embedded emulator: OK/ })).toBeVisible();
});
