/**
 * One flow per trust framework and evidence type, through the real app and its embedded emulator.
 */
import { expect, test } from '@playwright/test';
import { ALL_DOCUMENT_DETAILS, decideInEmulatedApp, startVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

const NAMES = { claim: ['given_name', 'family_name', 'birthdate'], essential: ['given_name', 'family_name'] };

test('standard_etsi with a Norwegian passport verifies', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard_etsi', ...NAMES, evidence: 'document', document_detail: ALL_DOCUMENT_DETAILS });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('region', { name: 'Verification' })).toContainText('standard_etsi');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'verified');
  await expect(page.getByText('VALID', { exact: true })).toBeVisible();
});

test('standard_etsi with a Swedish passport fails in the app: its issuer check is not valid', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard_etsi', ...NAMES, evidence: 'document', document_detail: 'issuer_check' });
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
});

test('standard_etsi without names, sent anyway by QA, shows the provider’s invalid_request', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard_etsi', claim: 'birthdate', send_anyway: '1' });
  await expect(page.getByTestId('error-code')).toHaveText('invalid_request');
  await expect(page.getByTestId('error-description')).toContainText('given_name');
});

test('population-register evidence returns the matched record for a registered person', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'population_register' });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  const register = page.getByRole('region', { name: 'Population register', exact: true });
  await expect(register.getByText('Folkeregisteret')).toBeVisible();
  await expect(register.getByText(/^•{7}\d{4}$/)).toBeVisible();
  await page.getByRole('link', { name: 'Show the numbers' }).click();
  await expect(register.getByText(/^\d{11}$/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Identity document' })).toContainText('Document evidence was not requested.');
});

test('population-register evidence for someone without a match is shown as not provided', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'population_register' });
  await decideInEmulatedApp(page, 'mikkel-strand', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByTestId('register-not-provided')).toBeVisible();
});

test('document evidence from a German ID card has no national number', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'document', document_detail: ALL_DOCUMENT_DETAILS });
  await decideInEmulatedApp(page, 'jonas-weber', 'approve');
  const document = page.getByRole('region', { name: 'Identity document' });
  await expect(document).toContainText('National ID card');
  await expect(document).toContainText('Germany (DEU)');
  await expect(document.getByText('Not provided').first()).toBeVisible();
  // data minimisation: the portrait was not requested, so it is not there
  await expect(page.getByTestId('portrait')).toHaveCount(0);
  await expect(page.getByText('Portrait not requested')).toBeVisible();
});

test('an expired document is marked expired', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'document', document_detail: ['date_of_expiry'] });
  await decideInEmulatedApp(page, 'eva-lindqvist', 'approve');
  await expect(page.getByText('Expired', { exact: true })).toBeVisible();
});

test('a failed face check ends with access_denied', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'] });
  await decideInEmulatedApp(page, 'tobias-hansen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
});

test('a chip that did not pass authentication is shown as failed', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['name'], evidence: 'document', document_detail: ['active_authentication_result'] });
  await decideInEmulatedApp(page, 'nora-berg', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('region', { name: 'Identity document' })).toContainText('Chip authenticationfailed');
});

test('gender unspecified and a card without an issue date: shown as given, and the date as not provided', async ({ page }) => {
  await startVerification(page, APP, {
    trust_framework: 'standard',
    claim: ['name', 'gender'],
    evidence: 'document',
    document_detail: ['date_of_issuance', 'type'],
  });
  await decideInEmulatedApp(page, 'alex-moreau', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('region', { name: 'Person' })).toContainText('GenderUnspecified');
  await expect(page.getByRole('region', { name: 'Identity document' })).toContainText('Date of issueNot provided');
});
