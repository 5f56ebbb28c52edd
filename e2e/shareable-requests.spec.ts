/**
 * Shareable requests: the picker's selection lives in the address bar, so a link (or a reload)
 * opens the same request; never the personal number to look up.
 */
import { expect, test } from '@playwright/test';

const APP = 'http://localhost:3100';

test('an unchanged preset is a short link that opens the preset again', async ({ page }) => {
  await page.goto(`${APP}/`);
  await expect(page).toHaveURL(`${APP}/`);
  await page.getByRole('button', { name: /^ETSI/ }).click();
  await expect(page).toHaveURL(`${APP}/?preset=etsi`);
  await page.reload();
  await expect(page.getByRole('button', { name: /^ETSI/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('radio', { name: 'standard_etsi' })).toBeChecked();
  await expect(page.getByTestId('preset-policy')).toContainText('ETSI');
});

test('a link made in one browser opens the same request in another, without the personal number', async ({ page, browser }) => {
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: /^Age and name/ }).click();
  await page.getByRole('checkbox', { name: /^Nationalities/ }).check();
  await page.getByRole('checkbox', { name: /^Population register/ }).check();
  await page.getByLabel('Personal number to look up (optional, 11 digits)').fill('14038712345');
  await expect(page).toHaveURL(/claim=nationalities/);
  const link = page.url();
  expect(link).not.toContain('14038712345');

  const other = await browser.newContext();
  const shared = await other.newPage();
  await shared.goto(link);
  await expect(shared.getByRole('checkbox', { name: /^Nationalities/ })).toBeChecked();
  await expect(shared.getByRole('checkbox', { name: /^Population register/ })).toBeChecked();
  await expect(shared.getByLabel('Personal number to look up (optional, 11 digits)')).toHaveValue('');
  await expect(shared.getByTestId('claims-preview')).toContainText('"nationalities"');
  await expect(shared.getByTestId('claims-preview')).not.toContainText('14038712345');
  await other.close();
});

test('the copy button puts the link on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(`${APP}/?preset=population-register`);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link')).toHaveText('Link copied');
  // said to screen readers too, in a live region
  await expect(page.getByRole('status').filter({ hasText: 'The link to this request is on the clipboard.' })).toHaveCount(1);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${APP}/?preset=population-register`);
});

test('a link the app cannot read says so and shows the default request', async ({ page }) => {
  await page.goto(`${APP}/?claim=shoe_size`);
  await expect(page.getByTestId('link-problem')).toContainText('a value is not a known claim');
  await expect(page.getByRole('checkbox', { name: /^Full name/ })).toBeChecked();
  await expect(page).toHaveURL(`${APP}/`);
});
