/**
 * The result page as a customer sees it on a shared screen, at desktop and phone widths: the
 * person and the verdict first, each said once; values that keep a line of their own; the two
 * ways on ("New verification", "Run again"); nothing wider than a 360 px phone on /result and
 * /failure in either language; the trace's rows, words, dates and code panels.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ALL_DOCUMENT_DETAILS, decideInEmulatedApp, startDefaultVerification, startVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

const person = (page: Page) => page.getByRole('region', { name: 'Person' });
const documentCard = (page: Page) => page.getByRole('region', { name: /^(Identity document|Identitetsdokument)$/ });

async function verify(page: Page, persona = 'ingrid-haugen'): Promise<void> {
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, persona, 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
}

/** How many lines an element's text takes: its height over its line height. */
async function lines(locator: Locator): Promise<number> {
  return locator.evaluate((element) => {
    const lineHeight = parseFloat(getComputedStyle(element).lineHeight);
    return Math.round(element.getBoundingClientRect().height / lineHeight);
  });
}

/** How often a word is on the screen before scrolling (visible text only). */
async function timesAboveTheFold(page: Page, word: RegExp): Promise<number> {
  return page.evaluate((source) => {
    const pattern = new RegExp(source, 'g');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let count = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement!;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.top >= innerHeight || element.closest('[hidden], .sr-only')) continue;
      count += (node.textContent ?? '').match(pattern)?.length ?? 0;
    }
    return count;
  }, word.source);
}

/** Whether the page is wider than the window (a sideways scroll on a phone). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('the person and the verdict come first, each said once, and names and dates keep a line of their own', async ({ page }) => {
      await verify(page);
      const name = page.getByTestId('person-name');
      await expect(name).toHaveText('Ingrid Solberg Haugen');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
      // both on the screen before scrolling
      expect((await name.boundingBox())!.y).toBeLessThan(viewport.height);
      const verdict = page.getByTestId('verdict-title');
      const verdictBox = (await verdict.boundingBox())!;
      expect(verdictBox.y + verdictBox.height).toBeLessThan(viewport.height);
      // "Verified" once, not a badge, a panel and another badge
      expect(await timesAboveTheFold(page, /\bVerified\b/)).toBe(1);
      // the issuer is no longer a line above the person
      const issuer = page.getByRole('region', { name: 'Verification' }).getByText(`${APP}/emulator`);
      expect((await issuer.boundingBox())!.y).toBeGreaterThan((await name.boundingBox())!.y);

      // the name, the given name and the date of birth each on one line, in a value column that fits them
      expect(await lines(name)).toBe(1);
      for (const label of ['Given name', 'Date of birth']) {
        const value = person(page)
          .getByTestId('person-facts')
          .locator('div', { has: page.getByText(label, { exact: true }) })
          .locator('dd .value');
        await expect(value).toBeVisible();
        expect(await lines(value)).toBe(1);
        expect((await value.locator('xpath=..').boundingBox())!.width).toBeGreaterThanOrEqual(150);
      }
    });
  });
}

test('an empty "not requested" document card is no taller than its title and its message', async ({ page }) => {
  await startVerification(page, APP, { trust_framework: 'standard', claim: ['given_name', 'family_name', 'birthdate'], essential: ['birthdate'] });
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  // without a full name the heading says so; "Verified" is the verdict's alone
  await expect(page.getByTestId('person-name')).toHaveText('Name not requested');
  expect(await timesAboveTheFold(page, /\bVerified\b/)).toBe(1);
  const card = documentCard(page);
  await expect(card).toContainText('Document evidence was not requested.');
  const cardBox = (await card.boundingBox())!;
  const title = (await card.getByRole('heading').boundingBox())!;
  const message = (await card.getByText('Document evidence was not requested.').boundingBox())!;
  // the card's padding and the gap between them, nothing stretched to the height of a neighbour
  expect(cardBox.height).toBeLessThanOrEqual(title.height + message.height + 72);
});

test('"New verification" opens the picker as it starts, "Run again" sends the same request again, its personal number never on the page', async ({ page }) => {
  const personalNumber = '14038726421';
  await startVerification(page, APP, {
    trust_framework: 'standard',
    claim: ['name', 'birthdate'],
    essential: ['name'],
    evidence: 'population_register',
    personal_number: personalNumber,
  });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('region', { name: 'Population register', exact: true })).toBeVisible();
  // the request is read again on the server: the page holds the number only masked
  expect(await (await page.request.get(`${APP}/result`)).text()).not.toContain(personalNumber);

  const actions = page.getByTestId('result-actions');
  await actions.getByRole('button', { name: 'Run again' }).click();
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  // the same selection: the register looked up again, no document asked for, gender not asked for
  await expect(page.getByRole('region', { name: 'Population register', exact: true })).toContainText('Folkeregisteret');
  await expect(documentCard(page)).toContainText('Document evidence was not requested.');
  await expect(person(page).getByTestId('not-requested')).toContainText('gender');

  await page.getByTestId('result-actions').getByRole('link', { name: 'New verification' }).click();
  await expect(page).toHaveURL(`${APP}/`);
  // the picker as it starts (the default selection asks for a document), not the last request
  await expect(page.locator('input[name="evidence"][value="document"]')).toBeChecked();
  await expect(page.locator('input[name="evidence"][value="population_register"]')).not.toBeChecked();
});

test.describe('at 360 px wide', () => {
  test.use({ viewport: { width: 360, height: 800 } });

  for (const locale of ['en', 'nb'] as const) {
    test(`nothing is wider than the screen on /result, its trace opened, and on /failure (${locale})`, async ({ page, context }) => {
      await context.addCookies([{ name: 'idv_lang', value: locale, url: APP }]);
      await startVerification(page, APP, {});
      await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
      await expect(page).toHaveURL(`${APP}/result`);
      expect(await overflow(page)).toBeLessThanOrEqual(0);

      // each step's number on the (first) line of its title, not on a line of its own above it
      const rows = page.locator('.trace-row');
      expect(await rows.count()).toBeGreaterThan(5);
      for (const row of await rows.all()) {
        const index = (await row.locator('.trace-index').boundingBox())!;
        const titleText = row.locator('.trace-title');
        const title = (await titleText.boundingBox())!;
        const firstLine = await titleText.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
        expect(index.y + index.height).toBeGreaterThan(title.y);
        expect(index.y).toBeLessThan(title.y + firstLine);
      }
      for (const summary of await page.locator('.trace summary').all()) await summary.click();
      await expect(page.locator('.trace pre').first()).toBeVisible();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      // the code blocks wrap their long lines on a phone rather than hide them to the right
      for (const code of await page.locator('.trace pre').all())
        expect(await code.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);

      // the issuer breaks, if at all, after a slash, never inside a word
      const issuer = page.locator('[aria-labelledby="verification-heading"] dd .value-mono').first();
      await expect(issuer).toHaveText(`${APP}/emulator`);
      const breaksAfter = await issuer.evaluate((element) => {
        const text = element.textContent ?? '';
        const range = document.createRange();
        const tops: number[] = [];
        let offset = 0;
        for (const node of element.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE) continue;
          for (let i = 0; i < (node.textContent ?? '').length; i++) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            tops[offset + i] = range.getBoundingClientRect().top;
          }
          offset += (node.textContent ?? '').length;
        }
        return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1]! + 2 ? [text[i - 1]] : []));
      });
      for (const character of breaksAfter) expect(character).toBe('/');

      await startVerification(page, APP, {});
      await decideInEmulatedApp(page, 'ingrid-haugen', 'cancel');
      await expect(page.getByTestId('error-code')).toHaveText('access_denied');
      for (const summary of await page.locator('.trace summary').all()) await summary.click();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
    });
  }
});

test('in Norwegian the values are Norwegian as the emulator words them, and so are the trace’s words and dates', async ({ page, context }) => {
  await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
  // the register's name once, in the picker as on the result
  await page.goto(`${APP}/`);
  const registerChoice = page.locator('label', { has: page.locator('input[name="evidence"][value="population_register"]') });
  expect((await registerChoice.innerText()).match(/folkeregister/gi)).toHaveLength(1);

  await startVerification(page, APP, {
    trust_framework: 'standard',
    claim: ['name', 'birthdate'],
    evidence: ['document', 'population_register'],
    document_detail: ALL_DOCUMENT_DETAILS,
    personal_number: '14038726421',
  });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  const register = page.getByRole('region', { name: 'Registeroppslag' });
  await expect(register).toContainText('Folkeregisteret');
  expect((await register.innerText()).match(/folkeregister/gi)).toHaveLength(1);
  // each value on a line of its own width, not broken inside a word beside a long label
  const values = register.locator('dd > span:first-child');
  await expect(values).toHaveCount(2);
  for (const value of await values.all()) expect(await lines(value), await value.innerText()).toBe(1);
  const document = documentCard(page);
  await expect(document.locator('div', { has: page.getByText('Brikkeautentisering', { exact: true }) }).locator('dd')).toHaveText('bestått');
  await expect(document.locator('div', { has: page.getByText('Utstederkontroll', { exact: true }) }).locator('dd')).toHaveText('gyldig');
  await expect(page.getByRole('region', { name: 'Verifisering' })).toContainText(/Autentisert \(auth_time\)\d{1,2}\. \p{L}+ \d{4} kl\.\s\d\d:\d\d:\d\d\sUTC/u);

  await page.locator('[data-step=id_token] summary').click();
  const idToken = page.locator('[data-step=id_token]');
  await expect(idToken).toContainText('tegn)');
  await expect(idToken).not.toContainText('characters');
  const times = idToken.getByTestId('trace-times').first();
  await expect(times).toContainText(/exp \d{10}\d{1,2}\. \p{L}+ \d{4} kl\.\s\d\d:\d\d:\d\d\sUTC/u);
  await expect(times).toContainText(/iat \d{10}/);
  await expect(times).toContainText(/auth_time \d{10}/);
});

test('every trace entry that opens has something to show, steps a cache answered are plain rows, and no brackets sit beside brackets', async ({ page }) => {
  await verify(page);
  const trace = page.getByTestId('trace');
  // a second verification finds the discovery document (and the keys) in the cache
  await expect(trace.locator('[data-expandable="false"]').first()).toBeVisible();
  await expect(trace.locator('[data-expandable="false"] details')).toHaveCount(0);
  await expect(trace.locator('[data-expandable="false"]').first()).toContainText(', from cache');
  for (const summary of await trace.locator('summary').all()) await summary.click();
  await expect(trace.locator('pre').first()).toBeVisible();
  await expect(trace).not.toContainText('Loading the detail');
  await expect(trace).not.toContainText('No content.');
  for (const body of await trace.locator('.trace-body').all()) expect((await body.innerText()).trim()).not.toBe('');
  expect(await trace.innerText()).not.toMatch(/\)\s*\(|\(\(|\)\)/);
  // the redirect shows the query it sent
  await expect(trace.locator('[data-step=authorization_redirect]')).toContainText('"request_uri": "urn:');
  // times beside their number, in English
  await expect(page.locator('[data-step=id_token]').getByTestId('trace-times').first()).toContainText(/exp \d{10}\d{1,2} \p{L}+ \d{4}, \d\d:\d\d:\d\d\sUTC/u);
});

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('a code block keeps a panel of its own: darker than its card, with an edge', async ({ page }) => {
    await verify(page);
    await page.locator('[data-step=par] summary').click();
    const code = page.locator('[data-step=par] pre').first();
    await expect(code).toBeVisible();
    const [codeBackground, cardBackground, edge] = await code.evaluate((element) => [
      getComputedStyle(element).backgroundColor,
      getComputedStyle(element.closest('.card')!).backgroundColor,
      getComputedStyle(element).borderTopColor,
    ]);
    expect(codeBackground).not.toBe(cardBackground);
    expect(edge).not.toBe(codeBackground);
    expect(edge).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
  });
});
