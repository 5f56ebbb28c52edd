/**
 * The emulator's conformance page in a real browser: signed in to the QA panel, a person opens
 * {APP_URL}/emulator/conformance, asks for one case, presses the button, watches the run's page
 * refresh itself to the verdict and opens the HTML report. The app runs the kit itself, against
 * its own client (the form's defaults), in the worker's emulator-mode app.
 */
import { expect, test } from '@playwright/test';
import { openPanelSignedIn } from './flows';
import { EMULATOR_APP as APP } from './servers';

test('the conformance page runs the kit with a button: normal, wrong_nonce and normal_again pass, and the report says so', async ({ page }) => {
  test.setTimeout(120_000);
  await openPanelSignedIn(page, APP);
  await page.getByTestId('conformance-link').click();
  await expect(page).toHaveURL(`${APP}/emulator/conformance`);

  // Prefilled for this app: its own client, its home page, its start button, a 30 s cooldown.
  await expect(page.getByLabel('Start URL')).toHaveValue(`${APP}/`);
  await expect(page.getByLabel('Start selector (optional)')).toHaveValue('[data-testid="start"]');
  await expect(page.getByLabel('JWKS cooldown (seconds)')).toHaveValue('30');
  await page.getByLabel('Cases (optional)').fill('wrong_nonce');
  await page.getByRole('button', { name: 'Run the conformance kit' }).click();

  await expect(page).toHaveURL(new RegExp(`^${APP}/emulator/conformance/runs/[A-Za-z0-9_-]+$`));
  const state = page.getByTestId('conformance-state');
  // The page reloads itself every 2 s while the run goes, until the verdict.
  await expect(state).not.toHaveAttribute('data-state', 'running', { timeout: 90_000 });
  await expect(page.getByTestId('conformance-error')).toHaveCount(0);
  await expect(state).toHaveAttribute('data-state', 'done');
  await expect(page.getByTestId('conformance-progress')).toHaveText('3 of 3 cases ended');
  await expect(page.getByTestId('conformance-summary')).toHaveAttribute('data-passed', 'true');
  await expect(page.getByTestId('conformance-summary')).toContainText('3 passed, 0 failed');
  await expect(page.getByTestId('conformance-lines')).toContainText('wrong_nonce');

  await page.getByTestId('conformance-report').click();
  await expect(page).toHaveURL(/\/index\.html$/);
  await expect(page.locator('section[data-case="wrong_nonce"]')).toHaveAttribute('data-verdict', 'pass');
  await expect(page.locator('section[data-case="normal"]')).toHaveAttribute('data-verdict', 'pass');
  await expect(page.locator('section[data-case="normal_again"]')).toHaveAttribute('data-verdict', 'pass');
  // Its screenshots load from the run's own folder.
  const screenshot = page.locator('section[data-case="wrong_nonce"] img');
  if ((await screenshot.count()) > 0) {
    await screenshot.scrollIntoViewIfNeeded();
    await expect.poll(() => screenshot.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  }
});
