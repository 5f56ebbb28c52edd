/**
 * Norwegian (bokmål) and English: the language follows the browser's Accept-Language until the
 * header's switch picks one; the service's pages follow the app's choice (ui_locales); dates,
 * ages and country names are Norwegian; codes and claim names stay as the spec writes them.
 */
import { expect, test, type Page } from '@playwright/test';
import { armFault, decideInEmulatedApp } from './flows';
import { EMULATOR_APP as APP } from './servers';

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const languageSwitch = (page: Page, name: 'Språk' | 'Language') => page.getByRole('group', { name });

test.describe('a browser that prefers Norwegian (Accept-Language nb-NO)', () => {
  test.use({ locale: 'nb-NO' });

  test('gets the app in bokmål, and the switch changes it to English and back, remembered by the browser', async ({ page, context }) => {
    await page.goto(`${APP}/`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
    await expect(heading(page)).toHaveText('Verifiser en identitet');
    await expect(languageSwitch(page, 'Språk').getByRole('button', { name: 'Norsk' })).toHaveAttribute('aria-pressed', 'true');
    // the picker's words are Norwegian, the claim names as the spec writes them
    await expect(page.getByRole('group', { name: 'Opplysninger' })).toContainText('Fødselsdato birthdate');
    await expect(page.getByRole('button', { name: 'Start verifisering' })).toBeVisible();

    await languageSwitch(page, 'Språk').getByRole('button', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(heading(page)).toHaveText('Verify an identity');
    // the choice outlasts the page and beats the browser's Accept-Language
    const other = await context.newPage();
    await other.goto(`${APP}/result`);
    await expect(heading(other)).toHaveText('No verified identity');

    await languageSwitch(page, 'Language').getByRole('button', { name: 'Norsk' }).click();
    await expect(heading(page)).toHaveText('Verifiser en identitet');
    await other.reload();
    await expect(heading(other)).toHaveText('Ingen verifisert identitet');
  });

  test('a start form refused for an unknown claim of 100 characters says so in Norwegian, without repeating the value', async ({ page }) => {
    await page.goto(`${APP}/`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
    // the picker's own form, with a claim no picker offers: as a hand-edited form or a script would send it
    const claim = `${'c'.repeat(60)}<b>Ring 555 0100</b>${'c'.repeat(20)}`;
    expect(claim).toHaveLength(100);
    await page.getByTestId('picker').evaluate((form, value) => {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = 'claim';
      input.value = value;
      form.append(input);
    }, claim);
    await page.getByRole('button', { name: 'Start verifisering' }).click();

    await expect(page).toHaveURL(/\/failure\?code=invalid_selection&id=/);
    await expect(page.getByTestId('error-code')).toHaveText('invalid_selection');
    const detail = page.getByTestId('error-detail');
    await expect(detail).toHaveText('En verdi på 100 tegn er ikke en kjent opplysning.');
    await expect(detail).not.toHaveAttribute('lang');
    await expect(page.getByRole('term').filter({ hasText: 'Detaljer' })).toBeVisible();
    expect(await page.content()).not.toContain('Ring 555');
  });

  test('a failure the core found shows its own sentence as the technical detail, marked English', async ({ page }) => {
    // the home page hands out the browser's binding, so the failure is recorded for it
    await page.goto(`${APP}/`);
    await page.goto(`${APP}/auth/callback?code=x&state=${'s'.repeat(43)}&iss=${encodeURIComponent(`${APP}/emulator`)}`);
    await expect(page).toHaveURL(/\/failure\?code=state_mismatch&id=/);
    await expect(heading(page)).toHaveText('Ukjent svar');
    const detail = page.getByTestId('error-detail');
    await expect(detail).toHaveText('The state does not match an authorization started in this browser');
    await expect(detail).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('term').filter({ hasText: 'Teknisk detalj (på engelsk)' })).toBeVisible();
  });
});

test.describe('a browser that prefers English (Accept-Language en-US)', () => {
  test.use({ locale: 'en-US' });

  test('gets the app in English', async ({ page }) => {
    await page.goto(`${APP}/`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(heading(page)).toHaveText('Verify an identity');
    await expect(languageSwitch(page, 'Language').getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
  });

  test('the switch on the header says each language in itself, and marks it for screen readers', async ({ page }) => {
    await page.goto(`${APP}/`);
    await expect(languageSwitch(page, 'Language').getByRole('button', { name: 'Norsk' })).toHaveAttribute('lang', 'nb');
    await expect(languageSwitch(page, 'Language').getByRole('button', { name: 'English' })).toHaveAttribute('lang', 'en');
  });

  test('a verification in Norwegian: the identity app follows the app’s language, and the result has Norwegian dates, ages and countries', async ({
    page,
    context,
  }) => {
    // Chosen with the switch; the browser still asks for English, so the emulator's pages are
    // Norwegian only because the request object says ui_locales.
    await page.goto(`${APP}/`);
    await languageSwitch(page, 'Language').getByRole('button', { name: 'Norsk' }).click();
    await expect(heading(page)).toHaveText('Verifiser en identitet');
    expect((await context.cookies(APP)).find((cookie) => cookie.name === 'idv_lang')?.value).toBe('nb');

    await page.getByRole('button', { name: 'Start verifisering' }).click();
    await expect(page).toHaveURL(/\/emulator\/auth\?/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${APP}/result`);

    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
    await expect(page.getByTestId('verdict-title')).toHaveText(/Verifisert/);
    const person = page.getByRole('region', { name: 'Person' });
    await expect(person).toContainText(/Fødselsdato\d{1,2}\. (januar|februar|mars|april|mai|juni|juli|august|september|oktober|november|desember) \d{4}/);
    await expect(person).toContainText(/\d{4}\d{1,3} år/);
    await expect(person).toContainText('Norge (NOR)');
    const document = page.getByRole('region', { name: 'Identitetsdokument' });
    await expect(document).toContainText('Utløpsdato');
    await expect(document).toContainText('Utstedende land');
    await expect(page.getByRole('region', { name: 'Kontroller som er utført' })).toContainText('Signaturen er verifisert');
    // codes as the spec writes them
    await expect(page.getByRole('region', { name: 'Verifisering' })).toContainText('standard');
    await expect(page.getByRole('button', { name: 'Logg ut og slett' })).toBeVisible();
  });

  test('a failure in Norwegian keeps its code as the spec writes it', async ({ page, context }) => {
    await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
    await startDefaultVerificationInNorwegian(page);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
    await expect(page.getByTestId('error-code')).toHaveText('access_denied');
    await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
    await expect(heading(page)).not.toHaveText(/cancelled/i);
  });

  test('a failed ID token check in Norwegian shows the core’s own sentence for it marked English, beside the checked values worded in Norwegian', async ({
    page,
    context,
  }) => {
    await armFault(page, APP, 'expired');
    await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
    await startDefaultVerificationInNorwegian(page);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page.getByTestId('error-code')).toHaveText('id_token_expired');
    // On the failure panel (the trace below lists the check again).
    const reason = page.getByTestId('check-reason').first();
    await expect(reason).toHaveText('The ID token has expired');
    await expect(reason).toHaveAttribute('lang', 'en');
    await expect(page.getByTestId('check-expected').first()).toContainText('senere enn');
  });

  test('presenter mode and the theme switch speak Norwegian too', async ({ page, context }) => {
    await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
    await page.goto(`${APP}/`);
    await page.getByTestId('presenter-switch').click();
    await expect(page.getByTestId('presenter-banner')).toContainText('Presentasjonsmodus: navn vises som initialer');
    await expect(page.getByTestId('presenter-switch')).toHaveText('Presentasjonsmodus: på');
    await page.getByTestId('presenter-switch').click();
    const theme = page.getByRole('group', { name: 'Tema' });
    await theme.getByRole('button', { name: 'Mørk' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(theme.getByRole('button', { name: 'Mørk' })).toHaveAttribute('aria-pressed', 'true');
  });
});

async function startDefaultVerificationInNorwegian(page: Page): Promise<void> {
  await page.goto(`${APP}/`);
  await page.getByRole('button', { name: 'Start verifisering' }).click();
}
