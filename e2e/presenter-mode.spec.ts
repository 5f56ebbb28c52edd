/**
 * Presenter mode: one switch in the header hides personal data on every page (names as
 * initials, the date of birth, the portrait blurred, every number masked), in the trace and in
 * what is copied or downloaded; the browser remembers it, and it shows while it is on.
 */
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator } from '@playwright/test';
import { decideInEmulatedApp, startDefaultVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

// Ingrid Solberg Haugen (lib/emulator/personas): what presenter mode must never show
/** The width of the image file the browser received, once decoded. */
function naturalWidth(image: Locator): Promise<number> {
  return image.evaluate(async (element: HTMLImageElement) => {
    await element.decode();
    return element.naturalWidth;
  });
}

const HIDDEN = ['Ingrid', 'Solberg Haugen', '1987-03-14', '14 March 1987', '14038726421', 'FK4820713'];

test('presenter mode hides the person on the result, in the trace and in its download, and is remembered until turned off', async ({ page, context }) => {
  await page.goto(`${APP}/`);
  await expect(page.getByTestId('presenter-banner')).toHaveCount(0);
  await page.getByTestId('presenter-switch').click();
  await expect(page).toHaveURL(`${APP}/`);
  await expect(page.getByTestId('presenter-switch')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('presenter-banner')).toContainText('Presenter mode');

  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByTestId('presenter-banner')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('I. S. H.');
  const person = page.getByRole('region', { name: 'Person' });
  await expect(person).toContainText('Given nameI.');
  await expect(person).toContainText('••.••.••••');
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
  const portrait = page.getByTestId('portrait');
  await expect(portrait).toHaveAttribute('data-blurred', 'true');
  expect(await portrait.evaluate((image) => getComputedStyle(image).filter)).toContain('blur');
  // the file itself is a few blurred pixels, not the portrait
  const presented = await naturalWidth(portrait);
  expect(presented).toBeGreaterThan(0);
  expect(presented).toBeLessThanOrEqual(12);
  // the numbers stay masked, even asked for in full
  await expect(page.getByRole('link', { name: 'Show the numbers' })).toHaveCount(0);
  await page.goto(`${APP}/result?reveal=numbers`);
  await expect(page.getByRole('region', { name: 'Identity document' })).toContainText('•••••0713');

  // Not on the page, in its React payload, or in the trace it loads; not in the download either.
  for (const [path, headers] of [
    ['/result?reveal=numbers', {}],
    ['/result', { RSC: '1' }],
    ['/result/trace?reveal=numbers', {}],
  ] as const) {
    const body = await (await page.request.get(`${APP}${path}`, { headers })).text();
    for (const value of HIDDEN) expect(body, `${path}: ${value}`).not.toContain(value);
    // Nor the age, which with the day of the verification tells the year of birth.
    expect(body, path).not.toMatch(/\d+ years old/);
  }
  await page.locator('[data-step=id_token] summary').click();
  await expect(page.getByRole('region', { name: 'ID token decrypted and verified: Signed ID token: payload' })).toContainText('"name": "I. S. H."');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  const downloaded = await readFile(await (await download).path(), 'utf8');
  for (const value of HIDDEN) expect(downloaded).not.toContain(value);

  // Remembered by the browser: another tab has it on too.
  const other = await context.newPage();
  await other.goto(`${APP}/result`);
  await expect(other.getByRole('heading', { level: 1 })).toHaveText('I. S. H.');

  // Off: the person is back.
  await page.getByTestId('presenter-switch').click();
  await expect(page.getByTestId('presenter-switch')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('presenter-banner')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
  await expect(page.getByTestId('portrait')).not.toHaveAttribute('data-blurred');
  expect(await naturalWidth(page.getByTestId('portrait'))).toBeGreaterThan(100);
});

test('presenter mode masks the personal number typed in the picker and in its previews', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.getByTestId('presenter-switch').click();
  await page.getByRole('checkbox', { name: /^Population register/ }).check();
  // typed key by key, as a person does: no frame of the preview shows a digit
  await page.getByLabel('Personal number to look up (optional, 11 digits)').pressSequentially('1403');
  await expect(page.getByTestId('claims-preview')).toContainText('"••••"');
  await expect(page.getByTestId('claims-preview')).not.toContainText('1403');
  await page.getByLabel('Personal number to look up (optional, 11 digits)').pressSequentially('8712345');
  await expect(page.getByTestId('claims-preview')).toContainText('"•••••••••••"');
  await expect(page.getByTestId('claims-preview')).not.toContainText('14038712345');
  await expect(page.getByTestId('request-object-preview')).not.toContainText('14038712345');
  expect(
    await page
      .getByLabel('Personal number to look up (optional, 11 digits)')
      .evaluate((input) => getComputedStyle(input).getPropertyValue('-webkit-text-security')),
  ).toBe('disc');
});

test('a settings change from another site is refused', async ({ request }) => {
  const response = await request.post(`${APP}/preferences`, { form: { presenter: 'on' }, headers: { origin: 'https://evil.example' }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toContain('code=forbidden_origin');
  expect(response.headers()['set-cookie']).toBeUndefined();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  // Before: a 165 px header (name, badge, two rows of switches) and a 97 px banner of four lines,
  // 262 px above the page at 390 px. Now two short rows and one line.
  test('the header and the presenter banner take little height, one line of banner, in either language, and nothing overflows at 360 px', async ({ page }) => {
    await page.goto(`${APP}/`);
    await page.getByTestId('presenter-switch').click();
    await expect(page.getByTestId('presenter-banner')).toBeVisible();
    for (const [language, lang] of [
      ['English', 'en'],
      ['Norsk', 'nb'],
    ] as const) {
      await page.getByTestId('language-switch').getByRole('button', { name: language }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByTestId('presenter-banner')).toBeVisible();
      for (const width of [390, 360]) {
        await page.setViewportSize({ width, height: 844 });
        const { header, banner, lineHeight, pageWidth } = await page.evaluate(() => {
          const bannerElement = document.querySelector('[data-testid="presenter-banner"]')!;
          return {
            header: document.querySelector('header')!.getBoundingClientRect().height,
            banner: bannerElement.getBoundingClientRect().height,
            lineHeight: parseFloat(getComputedStyle(bannerElement).lineHeight),
            pageWidth: document.documentElement.scrollWidth,
          };
        });
        expect(header + banner, `${language} at ${width} px`).toBeLessThanOrEqual(width === 390 ? 120 : 125);
        // one line of text, and its padding
        expect(banner).toBeLessThan(2 * lineHeight);
        expect(pageWidth).toBeLessThanOrEqual(width);
        // the switches keep to one row: each is level with the language switch
        const tops = await page
          .locator('header :is([data-testid="language-switch"], [data-testid="theme-switch"], [data-testid="presenter-switch"])')
          .evaluateAll((switches) => switches.map((element) => Math.round(element.getBoundingClientRect().top)));
        expect(tops).toHaveLength(3);
        expect(new Set(tops).size, `${language} at ${width} px`).toBe(1);
      }
      await page.setViewportSize({ width: 390, height: 844 });
    }
    // the banner's whole explanation is kept for wider screens
    await expect(page.getByTestId('presenter-banner')).toContainText('Presentasjonsmodus: navn vises som initialer');
    await page.getByTestId('language-switch').getByRole('button', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.getByTestId('presenter-switch').click();
    await expect(page.getByTestId('presenter-banner')).toHaveCount(0);
  });
});
