/**
 * The picker (GET /): preset cards whose titles line up, a request preview that never cuts a line
 * off, a claim's "essential" choice kept when it is unticked and ticked again, a short way to
 * Start for keyboard users, and presets that name the person they suggest and pass them on to the
 * embedded emulator (login_hint), never to a real service.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { decideInEmulatedApp } from './flows';
import { EMULATOR_APP as APP } from './servers';

const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Each preset card's box and its title's, in page order. */
async function presetBoxes(page: Page) {
  const cards = page.locator('button[name="preset"]');
  await expect(cards.first()).toBeVisible();
  const boxes = [];
  for (const card of await cards.all()) boxes.push({ card: (await card.boundingBox())!, title: (await card.getByTestId('preset-title').boundingBox())! });
  return boxes;
}

/**
 * The visual lines of each JSON line of a preview that wraps, as the reader sees them (each
 * character placed by its own box), for the JSON lines that wrap.
 */
function wrappedLines(preview: Locator): Promise<string[][]> {
  return preview.evaluate((pre) =>
    [...pre.querySelectorAll(':scope > span')].flatMap((line) => {
      const visual = new Map<number, string>();
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (let index = 0; index < node.length; index++) {
          const range = document.createRange();
          range.setStart(node, index);
          range.setEnd(node, index + 1);
          const box = range.getClientRects()[0];
          if (!box || node.data[index] === '\n') continue;
          const top = Math.round(box.top);
          visual.set(top, (visual.get(top) ?? '') + node.data[index]);
        }
      }
      return visual.size > 1 ? [[...visual.values()]] : [];
    }),
  );
}

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the preset cards’ titles sit at the top of their cards, level across each row', async ({ page }) => {
      await page.goto(`${APP}/`);
      const boxes = await presetBoxes(page);
      expect(boxes.length).toBeGreaterThanOrEqual(4);
      // the same distance from each card's top, however long the description below it
      const offsets = boxes.map(({ card, title }) => title.y - card.y);
      for (const offset of offsets) expect(Math.abs(offset - offsets[0]!)).toBeLessThanOrEqual(1);
      // cards that share a row have their titles level
      const rows = new Map<number, typeof boxes>();
      for (const box of boxes) rows.set(Math.round(box.card.y), [...(rows.get(Math.round(box.card.y)) ?? []), box]);
      if (viewport.width === 1440) expect([...rows.values()].some((row) => row.length > 1)).toBe(true);
      for (const row of rows.values()) for (const { title } of row) expect(Math.abs(title.y - row[0]!.title.y)).toBeLessThanOrEqual(1);
    });

    test('the claims and request object previews wrap long lines inside their boxes, none cut off', async ({ page }) => {
      await page.goto(`${APP}/`);
      for (const id of ['claims-preview', 'request-object-preview']) {
        const preview = page.getByTestId(id);
        await expect(preview).toContainText('"claims"');
        const { scrollWidth, clientWidth, pageWidth } = await preview.evaluate((element) => ({
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
          pageWidth: document.documentElement.scrollWidth,
        }));
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
        expect(pageWidth).toBeLessThanOrEqual(viewport.width);
      }
      // the longest line of the request object, the redirect URI, is there in full
      await expect(page.getByTestId('request-object-preview')).toContainText(`"redirect_uri": "${APP}/auth/callback"`);
    });
  });
}

test('on a phone, a preview line that wraps never leaves a line of only its indent or its punctuation (a lone ",")', async ({ page }) => {
  // Where a line breaks depends on the width and the port in the URLs: every width of a phone.
  for (const preset of ['', '?preset=population-register']) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${APP}/${preset}`);
    await expect(page.getByTestId('request-object-preview')).toContainText('"claims"');
    for (let width = 360; width <= 440; width += 2) {
      await page.setViewportSize({ width, height: 844 });
      for (const id of ['claims-preview', 'request-object-preview']) {
        const bare = (await wrappedLines(page.getByTestId(id))).filter((visual) => visual.some((line) => !/[A-Za-z0-9]/.test(line)));
        expect(bare, `${id} at ${width} px${preset}`).toEqual([]);
      }
    }
  }
});

test('the previews keep a panel of their own on a dark card', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const colours = await page.getByTestId('request-object-preview').evaluate((element) => {
    const card = getComputedStyle(element.closest('section')!);
    const own = getComputedStyle(element);
    return { card: card.backgroundColor, border: own.borderTopColor, borderWidth: own.borderTopWidth };
  });
  expect(colours.borderWidth).not.toBe('0px');
  expect(colours.border).not.toBe(colours.card);
});

test('a claim unticked and ticked again keeps its essential choice, on the page and in the request', async ({ page }) => {
  await page.goto(`${APP}/`);
  const claim = page.locator('input[name="claim"][value="nationalities"]');
  const essential = page.locator('input[name="essential"][value="nationalities"]');
  const preview = page.getByTestId('claims-preview');
  await expect(claim).toBeChecked();
  await essential.check();
  await expect(preview).toContainText(/"nationalities": \{\s*"essential": true/);
  await claim.uncheck();
  await expect(essential).toBeDisabled();
  await expect(preview).not.toContainText('"nationalities"');
  await claim.check();
  await expect(essential).toBeChecked();
  await expect(preview).toContainText(/"nationalities": \{\s*"essential": true/);
  // and the other way round: not essential stays not essential
  await essential.uncheck();
  await claim.uncheck();
  await claim.check();
  await expect(essential).not.toBeChecked();
  await expect(preview).toContainText(/"nationalities": null|"nationalities": \{\s*"essential": false/);
});

test('a keyboard reaches Start verification in two Tabs (Skip to content, then Skip to Start verification), and Enter starts', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to Start verification' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('start')).toBeFocused();
  await expect(page.getByTestId('start')).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
});

test('the skip link says it in Norwegian too', async ({ page }) => {
  await page.goto(`${APP}/`);
  await page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'Norsk' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'nb');
  await expect(page.getByTestId('skip-to-start')).toHaveText('Hopp til Start verifisering');
  await expect(page.getByTestId('preset-age-and-name').getByTestId('preset-persona')).toHaveText('Foreslått person: Lars Olof Eriksson');
  await page.getByRole('group', { name: 'Språk' }).getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('a preset names the person it suggests, and its verification asks the emulator for them by login_hint', async ({ page }) => {
  await page.goto(`${APP}/`);
  const card = page.getByTestId('preset-age-and-name');
  await expect(card.getByTestId('preset-persona')).toHaveText('Suggested person: Lars Olof Eriksson');
  await expect(page.getByTestId('preset-population-register').getByTestId('preset-persona')).toHaveText('Suggested person: Amira Nilsen');
  await card.click();
  await expect(page.locator('input[type="hidden"][name="persona"]')).toHaveValue('lars-eriksson');
  await page.getByTestId('start').click();
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  await expect(page.locator('input[name="persona"][value="lars-eriksson"]')).toBeChecked();
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  // the request object pushed at PAR, as the trace recorded it
  const trace = JSON.stringify(await (await page.request.get(`${APP}/result/trace`)).json());
  expect(trace).toMatch(/\\?"login_hint\\?":\s*\\?"lars-eriksson\\?"/);

  // changed, the selection is no longer the preset's: no persona goes with it
  await page.goto(`${APP}/?preset=age-and-name`);
  await expect(page.locator('input[type="hidden"][name="persona"]')).toHaveValue('lars-eriksson');
  await page.locator('input[name="claim"][value="nationalities"]').check();
  await expect(page.locator('input[name="persona"]')).toHaveCount(0);
});
