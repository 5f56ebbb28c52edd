/**
 * The phone hand-off of the embedded emulator, in two (or three) browsers: the computer that
 * started the verification and a phone that scans its QR code. A phone shows a code that must be
 * typed on the computer before it can use the app; the link under the QR code is printed only on
 * request; wrong codes lock the hand-off; any other device is refused with a page of its own
 * (lib/emulator/DECISIONS.md "The phone's confirmation").
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startDefaultVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

async function scan(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    name,
  ).toEqual([]);
}

/** The link of the QR code, as "Show the link" prints it; the page then hides it again. */
async function phoneLink(computer: Page): Promise<string> {
  await expect(computer.getByTestId('device-url')).toHaveCount(0);
  await computer.getByRole('link', { name: 'Show the link' }).click();
  const link = (await computer.getByTestId('device-url').textContent())!.trim();
  expect(link).toMatch(new RegExp(`^${APP}/emulator/app/[A-Za-z0-9_-]+$`));
  await computer.getByRole('link', { name: 'Hide the link' }).click();
  await expect(computer.getByTestId('device-url')).toHaveCount(0);
  return link;
}

/** A phone (a browser context of its own) opens the link and reads the code it shows. */
async function phoneOpens(browser: Browser, link: string): Promise<{ context: BrowserContext; phone: Page; code: string }> {
  const context = await browser.newContext(PHONE);
  const phone = await context.newPage();
  await phone.goto(link);
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText('Confirm this phone on your computer');
  const code = (await phone.getByTestId('phone-code').textContent())!.trim();
  expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{3}-[BCDFGHJKLMNPQRSTVWXZ]{3}$/);
  await expect(phone.getByTestId('app-step')).toHaveCount(0);
  return { context, phone, code };
}

/**
 * Once the QR code is gone, what replaced it (the confirmation or the lock) uses the hand-off's
 * whole width, not the QR code's old column beside an empty one.
 */
async function expectWholeWidth(computer: Page, testId: string): Promise<void> {
  const whole = (await computer.locator('.by-phone').boundingBox())!;
  const note = (await computer.getByTestId(testId).boundingBox())!;
  expect(note.width, `${testId}: ${note.width} px of the hand-off's ${whole.width} px`).toBeGreaterThanOrEqual(whole.width - 1);
}

/** A code that is not `code`. */
function wrongCodeFor(code: string): string {
  return code === 'BBB-BBB' ? 'CCC-CCC' : 'BBB-BBB';
}

async function typeCode(computer: Page, code: string): Promise<void> {
  await computer.getByLabel('Code shown on your phone').fill(code);
  await computer.getByRole('button', { name: 'Confirm phone' }).click();
}

/** The app's five steps for a persona who passes, ending on consent: Share. */
async function walkThroughApp(phone: Page, persona: string): Promise<void> {
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 1 of 5/);
  await phone.getByTestId(`persona-${persona}`).click();
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 2 of 5/);
  await phone.getByTestId('scan-document').click();
  await phone.getByTestId('read-chip').click();
  await expect(phone.getByTestId('chip-result')).toBeVisible();
  await phone.getByTestId('continue').click();
  await phone.getByTestId('check-face').click();
  await expect(phone.getByTestId('face-result')).toBeVisible();
  await phone.getByTestId('continue').click();
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 5 of 5/);
  await phone.getByTestId('share').click();
  await expect(phone.getByTestId('app-done')).toBeVisible();
}

test('a phone from the QR code is confirmed by the code it shows, and the computer continues by itself when it is done', async ({ page, browser }) => {
  await startDefaultVerification(page, APP);
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  // A shared screen shows the QR code alone: the link is not in the page's text until asked for.
  await expect(page.locator('body')).not.toContainText('/emulator/app/');
  const link = await phoneLink(page);

  const { context, phone, code } = await phoneOpens(browser, link);
  // Until the computer confirms it, the phone cannot get into the app.
  await phone.getByTestId('continue').click();
  await expect(phone.getByRole('alert')).toHaveText('The computer has not confirmed this phone yet. Type the code there, then continue.');
  await expect(phone.getByTestId('app-step')).toHaveCount(0);

  // The computer learns that a phone waits, but never sees its code.
  await expect(page.getByTestId('device-status')).toHaveText('A phone opened the link: type the code it shows.', { timeout: 10_000 });
  expect(await page.content()).not.toContain(code);

  await typeCode(page, wrongCodeFor(code));
  await expect(page.getByTestId('phone-code-error')).toHaveText('That is not a code a phone shows for this verification. 4 tries left.');
  await expect(page.getByLabel('Code shown on your phone')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Code shown on your phone')).toBeFocused();

  await typeCode(page, code.toLowerCase());
  await expect(page.getByTestId('phone-confirmed')).toHaveText('Your phone is confirmed: only it can continue this verification.');
  await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0);
  await expectWholeWidth(page, 'phone-confirmed');

  await phone.getByTestId('continue').click();
  await walkThroughApp(phone, 'ingrid-haugen');
  await context.close();

  // The computer's page polls the emulator and follows the redirect once the phone has decided.
  await expect(page).toHaveURL(`${APP}/result`, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
});

test('an onlooker who scans the same QR code gets a page saying the verification is being completed on another device, never the app', async ({
  page,
  browser,
}) => {
  await startDefaultVerification(page, APP);
  const link = await phoneLink(page);
  const mine = await phoneOpens(browser, link);
  const onlooker = await phoneOpens(browser, link);
  expect(onlooker.code).not.toBe(mine.code);

  await typeCode(page, mine.code);
  await expect(page.getByTestId('phone-confirmed')).toBeVisible();

  // The onlooker's own screen, its "Continue", and the QR link scanned again: refused (409).
  for (const attempt of [() => onlooker.phone.reload(), () => onlooker.phone.goto(link)]) {
    const response = await attempt();
    expect(response?.status()).toBe(409);
    await expect(onlooker.phone.getByRole('heading', { level: 1 })).toHaveText('This verification is being completed on another device');
    await expect(onlooker.phone.getByTestId('phone-code')).toHaveCount(0);
    await expect(onlooker.phone.getByTestId('app-step')).toHaveCount(0);
    await scan(onlooker.phone, 'another device');
  }
  await onlooker.context.close();

  await mine.phone.getByTestId('continue').click();
  await walkThroughApp(mine.phone, 'sofia-costa');
  await mine.context.close();
  await expect(page).toHaveURL(`${APP}/result`, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sofia Costa');
});

test('five wrong codes lock the hand-off: the computer says so, the phone can no longer continue, and this device still can', async ({ page, browser }) => {
  await startDefaultVerification(page, APP);
  const link = await phoneLink(page);
  const { context, phone, code } = await phoneOpens(browser, link);

  for (const left of ['4 tries', '3 tries', '2 tries', '1 try']) {
    await typeCode(page, wrongCodeFor(code));
    await expect(page.getByTestId('phone-code-error')).toHaveText(`That is not a code a phone shows for this verification. ${left} left.`);
  }
  await typeCode(page, wrongCodeFor(code));
  await expect(page.getByTestId('hand-off-locked')).toHaveText(
    /^The hand-off to a phone is locked: a wrong code was typed too many times\. Use the app on this device, or start again from /,
  );
  await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0);
  await expect(page.getByLabel('Code shown on your phone')).toHaveCount(0);
  await expectWholeWidth(page, 'hand-off-locked');
  await scan(page, 'authorization page, hand-off locked');

  const response = await phone.reload();
  expect(response?.status()).toBe(403);
  await expect(phone.getByRole('heading', { level: 1 })).toHaveText('This verification can no longer continue on a phone');
  await expect(phone.getByTestId('phone-code')).toHaveCount(0);
  await scan(phone, 'phone, hand-off locked');
  await context.close();

  // The quick test on the computer still completes the verification.
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page).toHaveURL(`${APP}/result`);
});

test.describe('without JavaScript on the computer', () => {
  test('the phone is confirmed by a plain form post, and “I’ve finished on my phone” continues', async ({ browser }) => {
    const computerContext = await browser.newContext({ javaScriptEnabled: false });
    const page = await computerContext.newPage();
    await startDefaultVerification(page, APP);
    const link = await phoneLink(page);
    const { context, phone, code } = await phoneOpens(browser, link);

    await typeCode(page, code);
    await expect(page.getByTestId('phone-confirmed')).toBeVisible();
    await phone.getByTestId('continue').click();
    await walkThroughApp(phone, 'ingrid-haugen');
    await context.close();

    await page.getByTestId('continue-after-phone').click();
    await expect(page).toHaveURL(`${APP}/result`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
    await computerContext.close();
  });
});

test('the pages of the hand-off pass axe: the field with its refusal, and the phone’s code', async ({ page, browser }) => {
  await startDefaultVerification(page, APP);
  await scan(page, 'authorization page');
  const link = await phoneLink(page);
  const { context, phone, code } = await phoneOpens(browser, link);
  await scan(phone, 'phone, its code');
  await typeCode(page, wrongCodeFor(code));
  await expect(page.getByTestId('phone-code-error')).toBeVisible();
  await scan(page, 'authorization page, a wrong code');
  await context.close();
});

test.describe('in Norwegian (the app asks for it with ui_locales)', () => {
  test.use({ locale: 'nb-NO' });

  test('the field, the phone’s code and the refusal of another device are in bokmål', async ({ page, browser }) => {
    await page.goto(`${APP}/`);
    await page.getByRole('button', { name: 'Start verifisering' }).click();
    await expect(page.getByLabel('Koden telefonen viser')).toBeVisible();
    await page.getByRole('link', { name: 'Vis lenken' }).click();
    const link = (await page.getByTestId('device-url').textContent())!.trim();

    // The phones' own browsers ask for English: the verification's ui_locales wins.
    const mineContext = await browser.newContext({ ...PHONE, locale: 'en-US' });
    const mine = await mineContext.newPage();
    await mine.goto(link);
    await expect(mine.getByRole('heading', { level: 1 })).toHaveText('Bekreft denne telefonen på datamaskinen');
    const code = (await mine.getByTestId('phone-code').textContent())!.trim();

    await page.getByLabel('Koden telefonen viser').fill(code);
    await page.getByRole('button', { name: 'Bekreft telefonen' }).click();
    await expect(page.getByTestId('phone-confirmed')).toHaveText('Telefonen din er bekreftet: bare den kan fortsette denne verifiseringen.');

    const onlookerContext = await browser.newContext({ ...PHONE, locale: 'en-US' });
    const onlooker = await onlookerContext.newPage();
    const response = await onlooker.goto(link);
    expect(response?.status()).toBe(409);
    await expect(onlooker.getByRole('heading', { level: 1 })).toHaveText('Denne verifiseringen fullføres på en annen enhet');
    await onlookerContext.close();
    await mineContext.close();
  });
});
