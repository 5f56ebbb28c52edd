/**
 * The assurance verdict (lib/view/assurance.ts) on the result page: Verified, Verified with
 * warnings or Not verified, each reason said, and the policy card listing every rule.
 */
import { expect, test, type Page } from '@playwright/test';
import { decideInEmulatedApp, startVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

const badge = (page: Page) => page.getByTestId('verdict-title');
const verdict = (page: Page) => page.getByTestId('verdict');
const policy = (page: Page) => page.getByTestId('policy');
const rule = (page: Page, name: string) => policy(page).locator(`li[data-rule="${name}"]`);

test('a preset’s verification that meets its policy is Verified, and the policy card lists each rule with its outcome', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: /^Full KYC with document/ }).click();
  await expect(page.getByTestId('preset-policy')).toContainText('Full KYC');
  await page.getByRole('button', { name: 'Start verification' }).click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);

  await expect(badge(page)).toHaveText(/Verified$/);
  await expect(verdict(page)).toHaveAttribute('data-verdict', 'verified');
  await expect(verdict(page)).toContainText('Judged by the policy Full KYC');
  await expect(page.getByTestId('verdict-reasons')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Policy: Full KYC' })).toBeVisible();
  await expect(rule(page, 'document_valid')).toHaveAttribute('data-outcome', 'met');
  await expect(rule(page, 'document_valid')).toContainText('valid until');
  await expect(rule(page, 'chip_authentication')).toHaveAttribute('data-outcome', 'met');
  await expect(rule(page, 'register_match')).toHaveAttribute('data-outcome', 'not_applicable');
});

test('an expired passport is Not verified, and the verdict says why', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'document', document_detail: ['date_of_expiry'] });
  await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(badge(page)).toHaveText(/Not verified$/);
  await expect(verdict(page)).toHaveAttribute('data-verdict', 'not_verified');
  await expect(page.getByTestId('verdict-reasons')).toContainText(
    /Failed: Identity document provided and not expired — expired on .+, before the verification on/,
  );
  await expect(rule(page, 'document_valid')).toHaveAttribute('data-outcome', 'failed');
});

test('a chip that did not pass authentication is Not verified', async ({ page }) => {
  await startVerification(page, APP, {
    trust_framework: 'standard',
    claim: ['name'],
    evidence: 'document',
    document_detail: ['active_authentication_result', 'date_of_expiry'],
  });
  await decideInEmulatedApp(page, 'nora-berg', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(badge(page)).toHaveText(/Not verified$/);
  await expect(page.getByTestId('verdict-reasons')).toContainText(
    'Failed: Document chip authentication passed — active_authentication_result = failed, not passed',
  );
});

test('a document without its expiry date is Verified with warnings, each warning with its reason', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'document', document_detail: ['type'] });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(badge(page)).toHaveText(/Verified with warnings$/);
  await expect(page.getByTestId('verdict-reasons')).toContainText(
    'Warning: Identity document provided and not expired — the date of expiry was not requested, so its validity on',
  );
  await expect(rule(page, 'document_valid')).toHaveAttribute('data-outcome', 'warning');
  await expect(page.getByRole('heading', { name: 'Policy: Your selection' })).toBeVisible();
});

test('the age check preset holds its result to a minimum age of 18', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: /^Age and name/ }).click();
  await page.getByRole('button', { name: 'Start verification' }).click();
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('heading', { name: 'Policy: Age check: 18 or older' })).toBeVisible();
  await expect(rule(page, 'minimum_age')).toHaveAttribute('data-outcome', 'met');
  await expect(rule(page, 'minimum_age')).toContainText(/\d+ years old on/);
});

test('in Norwegian (idv_lang=nb), the verdict, its reasons and the policy card are in bokmål, with Norwegian dates', async ({ page, context }) => {
  await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'document', document_detail: ['date_of_expiry'] });
  await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(badge(page)).toHaveText(/Ikke verifisert$/);
  await expect(verdict(page)).toHaveAttribute('data-verdict', 'not_verified');
  await expect(verdict(page)).toContainText('Vurdert etter regelsettet');
  await expect(page.getByTestId('verdict-reasons')).toContainText(
    /Ikke oppfylt: Identitetsdokument levert og ikke utløpt — utløpt \d{1,2}\. [a-zæøå]+ \d{4}, før verifiseringen \d{1,2}\. [a-zæøå]+ \d{4}\./,
  );
  await expect(page.getByRole('heading', { name: /^Regelsett: / })).toBeVisible();
  await expect(rule(page, 'document_valid')).toHaveAttribute('data-outcome', 'failed');
  await expect(rule(page, 'document_valid')).toContainText('Ikke oppfylt: Identitetsdokument levert og ikke utløpt');
  await expect(rule(page, 'register_match')).toContainText('dokumentasjon fra folkeregisteret ble ikke bedt om');
});
