/**
 * The demo experience: each preset end to end on a persona that fits it (what the result shows,
 * and what it does not: data minimisation made visible), and the protocol trace.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { decideInEmulatedApp } from './flows';
import { EMULATOR_APP as APP } from './servers';

async function runPreset(page: Page, preset: string, persona: string): Promise<void> {
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: new RegExp(`^${preset}`) }).click();
  await expect(page.getByRole('button', { name: new RegExp(`^${preset}`) })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Start verification' }).click();
  await decideInEmulatedApp(page, persona, 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
}

const person = (page: Page) => page.getByRole('region', { name: 'Person' });
const documentCard = (page: Page) => page.getByRole('region', { name: 'Identity document' });
/** A card's one line naming what was not requested. */
const notRequested = (card: Locator) => card.getByTestId('not-requested');

test('preset "Age and name" returns names and birthdate, and nothing else', async ({ page }) => {
  await runPreset(page, 'Age and name', 'lars-eriksson');
  await expect(person(page)).toContainText('Lars Olof');
  await expect(person(page)).toContainText('Eriksson');
  await expect(person(page)).toContainText('2 November 1979');
  await expect(person(page)).toContainText('Portrait not requested');
  await expect(notRequested(person(page))).toHaveText('Not requested: full name, gender and nationalities');
  await expect(documentCard(page)).toContainText('Document evidence was not requested.');
  await expect(page.getByRole('region', { name: 'Population register', exact: true })).toHaveCount(0);
});

test('preset "Full KYC with document" returns the portrait and every document detail', async ({ page }) => {
  await runPreset(page, 'Full KYC with document', 'ingrid-haugen');
  await expect(page.getByTestId('portrait')).toBeVisible();
  await expect(notRequested(person(page))).toHaveCount(0);
  await expect(documentCard(page)).toContainText('•••••0713'); // the document number, masked until revealed
  await expect(documentCard(page)).toContainText('Politiet');
  await expect(documentCard(page)).toContainText('passed');
  await expect(notRequested(documentCard(page))).toHaveCount(0);
});

test('preset "ETSI" verifies a Norwegian passport under standard_etsi', async ({ page }) => {
  await runPreset(page, 'ETSI', 'ingrid-haugen');
  await expect(page.getByRole('region', { name: 'Verification' })).toContainText('standard_etsi');
  await expect(documentCard(page)).toContainText('VALID');
  await expect(notRequested(person(page))).toHaveText('Not requested: full name and gender');
});

test('preset "Population register" shows the register match for a D-number holder', async ({ page }) => {
  await runPreset(page, 'Population register', 'amira-nilsen');
  await expect(page.getByRole('region', { name: 'Population register', exact: true })).toContainText('Folkeregisteret');
  await expect(documentCard(page)).toContainText('National ID card');
  await expect(person(page)).toContainText('Portrait not requested');
  // What the preset did not ask for: one line in each card, not a row each, in both languages.
  await expect(notRequested(person(page))).toHaveText('Not requested: given name, family name, gender and nationalities');
  await expect(notRequested(documentCard(page))).toHaveText(
    'Not requested: number, issuing country, issuing authority, date of issue, chip authentication and issuer check',
  );
  for (const card of [person(page), documentCard(page)]) await expect(card.getByText('Not requested', { exact: true })).toHaveCount(0);
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Norsk' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
  await expect(notRequested(page.getByRole('region', { name: 'Person' }))).toHaveText('Ikke bedt om: fornavn, etternavn, kjønn og statsborgerskap');
  await expect(notRequested(page.getByRole('region', { name: 'Identitetsdokument' }))).toHaveText(
    'Ikke bedt om: nummer, utstedende land, utstedende myndighet, utstedelsesdato, brikkeautentisering og utstederkontroll',
  );
  await page.getByRole('group', { name: 'Språk' }).getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('the trace lists every step of the flow, with the signing certificate', async ({ page }) => {
  await runPreset(page, 'Full KYC with document', 'ingrid-haugen');
  const steps = await page.getByTestId('trace-entry').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
  expect(steps).toEqual(['discovery', 'par', 'authorization_redirect', 'callback', 'discovery', 'token', 'jwks', 'id_token_checks', 'id_token']);
  const trace = page.getByTestId('trace');
  // a success lists its checks too: every one passed, verified_claims read whole
  await trace.locator('[data-step=id_token_checks] summary').click();
  await expect(trace.locator('[data-step=id_token_checks] [data-check]')).toHaveCount(13);
  await expect(trace.locator('[data-step=id_token_checks] [data-outcome=failed]')).toHaveCount(0);
  await expect(trace.locator('[data-step=id_token_checks] [data-check=verified_claims]')).toContainText('Nothing dropped.');
  await expect(trace.locator('[data-step=par]')).toContainText('POST 201');
  await expect(trace.locator('[data-step=token]')).toContainText('POST 200');

  await trace.locator('[data-step=par] summary').click();
  await expect(trace.locator('[data-step=par]')).toContainText('Request object: payload');
  await expect(trace.locator('[data-step=par]')).toContainText('"code_challenge_method": "S256"');
  await trace.locator('[data-step=id_token] summary').click();
  await expect(trace.locator('[data-step=id_token]')).toContainText('CN=IDV Emulator ID Token Signing');
  await expect(trace.locator('[data-step=id_token]')).toContainText('characters)');

  await expect(page.getByTestId('checks').getByRole('listitem')).toHaveCount(12);
  // The certificate rows say what was checked: the key compared, the chain not validated (no anchor).
  await expect(page.getByTestId('checks')).toContainText('Signing key matches its certificate');
  await expect(page.getByTestId('checks')).toContainText('chain not validated (no IDV_TRUST_ANCHOR configured)');
  await expect(page.getByTestId('checks-failed')).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  expect((await download).suggestedFilename()).toBe('verification-trace.json');
});

test('in Norwegian (idv_lang=nb), the trace’s titles, labels, buttons and download are in bokmål; what the exchanges carry is untouched', async ({
  page,
  context,
}) => {
  await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: 'Start verifisering' }).click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);

  await expect(page.getByTestId('numbers-switch')).toContainText('Identitetsnumre og dokumentnumre er maskert til de fire siste tegnene');
  await expect(page.getByRole('link', { name: 'Vis numrene' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Protokollspor' })).toBeVisible();
  const trace = page.getByTestId('trace');
  await expect(trace.locator('[data-step=par]')).toContainText('Pushed authorization request (PAR)');
  await expect(trace.locator('[data-step=par]')).toContainText('POST 201');
  await expect(trace.locator('[data-step=authorization_redirect]')).toContainText('Omdirigering til identitetsappen');

  await trace.locator('[data-step=token] summary').click();
  await expect(trace.locator('[data-step=token]')).toContainText('Tokenforespørsel');
  await expect(trace.locator('[data-step=token]')).toContainText('Skjemaparametere sendt');
  await expect(trace.locator('[data-step=token]')).toContainText('Klientpåstand: payload (nyttelast)');
  await expect(trace.locator('[data-step=token]')).toContainText('"grant_type": "authorization_code"');
  await trace.locator('[data-step=id_token] summary').click();
  await expect(page.getByRole('region', { name: 'ID-token dekryptert og verifisert: Signert ID-token: payload (nyttelast)' })).toContainText(
    '"value": "•••••••6421"',
  );
  await expect(page.getByRole('button', { name: 'Kopier «Signert ID-token: payload (nyttelast)»' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Kopier hele sporet som JSON' })).toBeVisible();

  // The download is what the page shows: in the reader's language, what the exchanges carry untouched.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Last ned JSON' }).click();
  const downloaded = JSON.parse(await readFile(await (await download).path(), 'utf8')) as {
    step: string;
    title: string;
    sections: { label: string; content: string }[];
  }[];
  const par = downloaded.find((entry) => entry.step === 'par')!;
  expect(par.title).toBe('Pushed authorization request (PAR)');
  expect(par.sections.map((section) => section.label)).toContain('Forespørselsobjekt: payload (nyttelast)');
  expect(par.sections.find((section) => section.label === 'Skjemaparametere sendt')!.content).toContain('"request": "(signert JWT, dekodet nedenfor)"');
});

test('the failure page shows the trace up to the failure', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  const steps = await page.getByTestId('trace-entry').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
  expect(steps).toEqual(['discovery', 'par', 'authorization_redirect', 'callback', 'discovery']);
});

test('the picker explains an ETSI request without names, and the QA switch sends it to see the provider’s invalid_request', async ({ page }) => {
  await page.goto(`${APP}/`);
  await expect(page.getByTestId('population-register-name')).toHaveText('Folkeregisteret');
  await page.getByRole('radio', { name: 'standard_etsi' }).check();
  await page.getByRole('checkbox', { name: /^Given name/ }).uncheck();
  await expect(page.getByTestId('selection-problems')).toContainText('requires given_name and family_name');
  await expect(page.getByRole('button', { name: 'Start verification' })).toBeDisabled();
  await expect(page.getByTestId('claims-preview')).not.toContainText('given_name');
  await expect(page.getByTestId('claims-preview')).toContainText('"value": "standard_etsi"');

  await page.getByRole('checkbox', { name: /QA: send it anyway/ }).check();
  await page.getByRole('button', { name: 'Start verification' }).click();
  await expect(page.getByTestId('error-code')).toHaveText('invalid_request');
  await expect(page.getByTestId('error-description')).toContainText('given_name');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the default selection is verified through plain forms', async ({ page }) => {
    await page.goto(`${APP}/`);
    await page.getByRole('button', { name: 'Start verification' }).click();
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
    await expect(page.getByTestId('portrait')).toBeVisible();
  });

  test('a preset button starts its preset', async ({ page }) => {
    await page.goto(`${APP}/`);
    await page.getByRole('button', { name: /^Age and name/ }).click();
    await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
    await expect(page.getByRole('region', { name: 'Identity document' })).toContainText('Document evidence was not requested.');
  });
});
