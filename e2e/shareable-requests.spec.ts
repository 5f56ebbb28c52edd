/**
 * Shareable requests: the picker's selection lives in the address bar, so a link (or a reload)
 * opens the same request; never the personal number to look up. A link that cannot be read wholly
 * opens with only its readable part ticked (or nothing), never the wider default, and says why.
 */
import { expect, test } from '@playwright/test';
import { EMULATOR_APP as APP } from './servers';

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

test('a link read only in part opens with only that part ticked, and says what it left out: /?claim=birthdate&claim=x', async ({ page }) => {
  await page.goto(`${APP}/?claim=birthdate&claim=x`);
  const problem = page.getByTestId('link-problem');
  await expect(problem).toHaveAttribute('role', 'alert');
  await expect(problem).toContainText('Only part of the link’s request could be read, so only that part is ticked');
  await expect(problem).toContainText('“x” is not a known claim.');
  await expect(problem).not.toContainText('default');

  // never wider than the link: birthdate only, no other claim, no evidence, no document detail
  const claims = page.getByRole('group', { name: 'Claims' });
  await expect(claims.getByRole('checkbox', { name: /^Date of birth/ })).toBeChecked();
  for (const name of [/^Full name/, /^Given name/, /^Family name/, /^Portrait/, /^Gender/, /^Nationalities/])
    await expect(claims.getByRole('checkbox', { name })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Identity document/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Population register/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'Document type' })).not.toBeChecked();
  await expect(page.getByTestId('claims-preview')).toContainText('"birthdate"');
  await expect(page.getByTestId('claims-preview')).not.toContainText('"given_name"');
  await expect(page.getByTestId('claims-preview')).not.toContainText('document_details');
  await expect(page.getByRole('button', { name: 'Start verification' })).toBeEnabled();

  // the address bar holds the part that was read, so a reload (or the copied link) stays as narrow
  await expect(page).toHaveURL(`${APP}/?trust_framework=standard&claim=birthdate`);
  await page.reload();
  await expect(page.getByTestId('link-problem')).toHaveCount(0);
  await expect(claims.getByRole('checkbox', { name: /^Date of birth/ })).toBeChecked();
  await expect(claims.getByRole('checkbox', { name: /^Full name/ })).not.toBeChecked();
});

test('a link read only in part is as narrow without JavaScript: the server renders only its readable part', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${APP}/?claim=birthdate&claim=x`);
  await expect(page.getByTestId('link-problem')).toContainText('“x” is not a known claim.');
  await expect(page.getByRole('checkbox', { name: /^Date of birth/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Full name/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Identity document/ })).not.toBeChecked();
  await context.close();
});

test('a link the app cannot read at all opens with nothing ticked, says why, and cannot start an empty request', async ({ page }) => {
  await page.goto(`${APP}/?claim=shoe_size`);
  const problem = page.getByTestId('link-problem');
  await expect(problem).toHaveAttribute('role', 'alert');
  await expect(problem).toContainText('The link’s request could not be read, so nothing is ticked');
  await expect(problem).toContainText('“shoe_size” is not a known claim.');
  await expect(page.getByRole('checkbox', { name: /^Full name/ })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Identity document/ })).not.toBeChecked();
  // the picker says the service would refuse it, and the start button waits for a choice
  await expect(page.getByTestId('selection-problems')).toContainText('Request at least one claim or one kind of evidence.');
  await expect(page.getByRole('button', { name: 'Start verification' })).toBeDisabled();
  // not the bare home page, which is the (widest) default request
  await expect(page).toHaveURL(`${APP}/?trust_framework=standard`);
  await page.reload();
  await expect(page.getByRole('checkbox', { name: /^Full name/ })).not.toBeChecked();

  await page.goto(`${APP}/?preset=nope`);
  await expect(page.getByTestId('link-problem')).toContainText('“nope” is not a known preset.');
  await expect(page.getByRole('checkbox', { name: /^Full name/ })).not.toBeChecked();
});

test('what a link left out is named briefly, and the link’s own words only when short and plain', async ({ page }) => {
  const unknown = Array.from({ length: 12 }, (_, index) => `claim=c${index}`).join('&');
  await page.goto(`${APP}/?claim=birthdate&claim=${encodeURIComponent('Your session expired. Call 555 0100')}&${unknown}`);
  const problem = page.getByTestId('link-problem');
  await expect(problem).toContainText('A value is not a known claim.');
  await expect(problem).not.toContainText('555');
  await expect(problem.getByRole('listitem')).toHaveCount(6);
  await expect(problem).toContainText('And 8 more.');
  await expect(page.getByRole('checkbox', { name: /^Date of birth/ })).toBeChecked();

  await page.goto(`${APP}/?claim=name&claim=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
  await expect(page.getByTestId('link-problem')).toContainText('A value is not a known claim.');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
});

test('a link naming a trust framework the service does not offer keeps its claims, under one it offers', async ({ page }) => {
  await page.goto(`${APP}/?trust_framework=eidas&claim=birthdate`);
  await expect(page.getByTestId('link-problem')).toContainText('The trust framework “eidas” is not one the service offers.');
  await expect(page.getByRole('radio', { name: 'standard', exact: true })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Date of birth/ })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: /^Full name/ })).not.toBeChecked();
});

test.describe('in bokmål (Accept-Language nb-NO)', () => {
  test.use({ locale: 'nb-NO' });

  test('a link read only in part says what it left out in bokmål', async ({ page }) => {
    await page.goto(`${APP}/?claim=birthdate&claim=x`);
    const problem = page.getByTestId('link-problem');
    await expect(problem).toContainText('Bare en del av forespørselen i lenken kunne leses, så bare den delen er krysset av');
    await expect(problem).toContainText('«x» er ikke en kjent opplysning.');
    await expect(page.getByRole('checkbox', { name: /^Fødselsdato/ })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: /^Fullt navn/ })).not.toBeChecked();
  });
});
