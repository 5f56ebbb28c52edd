/**
 * The embedded emulator's QA diagnostics in a real browser: how one verification is answered
 * (chosen on its own pages), pages that never wait silently and never log an error, the Back
 * button after the result, and the panel's "arm and start".
 */
import { expect, test, type Page } from '@playwright/test';
import { chooseAnswer, openPanelSignedIn, startDefaultVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

/** Every error the browser logs on `page`, and every uncaught exception of its scripts. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/** The identity app on this device, from its first step to Share. */
async function walkThroughApp(page: Page, persona: string): Promise<void> {
  await expect(page.getByTestId('app-step')).toHaveText(/Step 1 of 5/);
  await page.getByTestId(`persona-${persona}`).click();
  await page.getByTestId('scan-document').click();
  await page.getByTestId('read-chip').click();
  await page.getByTestId('continue').click();
  await page.getByTestId('check-face').click();
  await page.getByTestId('continue').click();
  await expect(page.getByTestId('app-step')).toHaveText(/Step 5 of 5/);
  await page.getByTestId('share').click();
}

test('a fault chosen on the authorization page spoils that verification only, and the next one is clean', async ({ page }) => {
  await openPanelSignedIn(page, APP);
  await startDefaultVerification(page, APP);
  await chooseAnswer(page, 'fault:wrong_nonce');
  await expect(page.getByTestId('qa-answer-chosen')).toContainText('Wrong nonce');
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');

  await startDefaultVerification(page, APP);
  await expect(page.getByTestId('qa-answer')).toHaveAttribute('data-answer', 'normal');
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page).toHaveURL(`${APP}/result`);
});

test('an error chosen in the identity app is the answer on the redirect back, in Norwegian too', async ({ page }) => {
  await openPanelSignedIn(page, APP);
  await startDefaultVerification(page, APP);
  await page.getByTestId('use-app-on-this-device').click();
  await page.getByRole('button', { name: 'Norsk' }).click();
  await page.getByText('QA: svar på denne verifiseringen med …').click();
  await page.getByLabel('Hvordan tjenesten svarer på denne verifiseringen').selectOption('error:temporarily_unavailable');
  await page.getByRole('button', { name: 'Bruk dette svaret' }).click();
  await expect(page.getByTestId('qa-answer-chosen')).toContainText('temporarily_unavailable');
  await page.getByRole('button', { name: 'English' }).click();
  await walkThroughApp(page, 'ingrid-haugen');
  await expect(page.getByTestId('error-code')).toHaveText('temporarily_unavailable');
});

test('no chooser for a browser that is not signed in to a panel with a password', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await startDefaultVerification(page, APP);
  await expect(page.getByTestId('use-app-on-this-device')).toBeVisible();
  await expect(page.getByTestId('qa-answer')).toHaveCount(0);
  await page.getByTestId('use-app-on-this-device').click();
  await expect(page.getByTestId('app-step')).toBeVisible();
  await expect(page.getByTestId('qa-answer')).toHaveCount(0);
  await context.close();
});

test('a whole verification logs no error in the browser, waiting on the authorization page included', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = collectErrors(page);
  await startDefaultVerification(page, APP);
  await expect(page.getByTestId('device-status')).toBeVisible();
  // A few rounds of the status poll (every 2 s).
  await page.waitForTimeout(7_000);
  await page.getByTestId('use-app-on-this-device').click();
  await walkThroughApp(page, 'sofia-costa');
  await expect(page).toHaveURL(`${APP}/result`);
  expect(errors).toEqual([]);
});

test('a pressed decision shows it is working, and counts the seconds while the way back to the relying party is pending', async ({ page }) => {
  await startDefaultVerification(page, APP);
  // The browser stays on a page whose navigation has not answered yet (the relying party's
  // callback may take long), and its script keeps counting. Playwright cannot read a page while
  // its navigation is pending, so the navigation is answered here with 204 No Content, which
  // leaves the page as it was, counting.
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  // The page's script is deferred: a click before it ran is an ordinary form post.
  await page.waitForLoadState('load');
  await page.route('**/emulator/auth', (route) => (route.request().method() === 'POST' ? route.fulfill({ status: 204 }) : route.fallback()));
  const approve = page.locator('button[name="outcome"][value="approve"]');
  await approve.click();
  await expect(approve).toBeDisabled();
  await expect(approve).toHaveAttribute('aria-busy', 'true');
  const progress = page.locator('.quick [data-testid="busy-status"]');
  await expect(progress).toHaveAttribute('role', 'status');
  await expect(progress).toHaveText(/^Returning you to IDV Demo… [0-9] s$/);
  await expect(progress).toHaveText(/… [2-9] s$/, { timeout: 5_000 });
});

test('a held token response ends on the relying party’s timeout, and nothing is logged in the browser meanwhile', async ({ page }) => {
  test.setTimeout(60_000);
  const errors = collectErrors(page);
  await openPanelSignedIn(page, APP);
  await startDefaultVerification(page, APP);
  await chooseAnswer(page, 'fault:token_timeout');
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page.getByTestId('error-code')).toHaveText('timeout', { timeout: 20_000 });
  expect(errors).toEqual([]);
});

test('Back after the result lands on a page that explains the request was used and links back to the app', async ({ page }) => {
  const errors = collectErrors(page);
  await startDefaultVerification(page, APP);
  await page.getByTestId('use-app-on-this-device').click();
  await walkThroughApp(page, 'ingrid-haugen');
  await expect(page).toHaveURL(`${APP}/result`);
  await page.goBack();
  await expect(page.getByTestId('used-flow').first()).toBeVisible();
  await page.getByTestId('back-to-client').click();
  await expect(page).toHaveURL(`${APP}/`);

  // The quick test: Back lands on GET /auth with its used request_uri.
  await startDefaultVerification(page, APP);
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page).toHaveURL(`${APP}/result`);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This verification has already been used');
  await expect(page.getByTestId('back-to-client')).toHaveAttribute('href', `${APP}/`);
  await page.getByTestId('back-to-client').click();
  await expect(page).toHaveURL(`${APP}/`);
  expect(errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
});

test('the panel arms the faults ticked and goes straight to a new verification of the app, and links back to it', async ({ page }) => {
  await openPanelSignedIn(page, APP);
  await expect(page.getByTestId('back-to-app').first()).toHaveAttribute('href', `${APP}/`);
  await page.getByText('Arm and start a verification', { exact: true }).first().click();
  await page.locator('input[name="arm_wrong_nonce"]').check();
  await page.getByTestId('arm-and-start-button').click();
  await expect(page).toHaveURL(`${APP}/`);
  await startDefaultVerification(page, APP);
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');
});

test('a wrong panel password is said at the password field, on the panel itself', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${APP}/emulator`);
  await page.getByLabel('Panel password').fill('not the password at all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const field = page.getByLabel('Panel password');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription('That is not the panel password.');
  await expect(field).toBeFocused();
  await expect(page.getByTestId('panel-access')).toHaveAttribute('data-access', 'signed-out');
  await context.close();
});
