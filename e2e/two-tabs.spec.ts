/**
 * Two tabs of one browser: it keeps only its newest result, so a tab reloaded after another tab
 * finished a newer verification says that the result it showed was replaced, in the page's
 * language; a tab that finished its own verification says nothing.
 */
import { expect, test, type Page } from '@playwright/test';
import { decideInEmulatedApp } from './flows';
import { EMULATOR_APP as APP } from './servers';

async function verify(page: Page, preset: string, persona: string): Promise<void> {
  await page.goto(`${APP}/?preset=${preset}`);
  await page.getByRole('button', { name: 'Start verification' }).click();
  await decideInEmulatedApp(page, persona, 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
}

test('a tab reloaded after another tab finished a newer verification says its result was replaced; the other tab, and a tab verifying again itself, say nothing', async ({
  context,
}) => {
  const a = await context.newPage();
  const c = await context.newPage();
  await verify(a, 'age-and-name', 'ingrid-haugen');
  await expect(a.getByTestId('person')).toContainText('Ingrid');
  await expect(a.getByTestId('result-replaced')).toHaveCount(0);

  await verify(c, 'full-kyc', 'eva-lindqvist');
  await expect(c.getByTestId('person')).toContainText('Eva');

  // A shows the newest result, Eva's, and says why.
  await a.reload();
  await expect(a.getByTestId('person')).toContainText('Eva');
  await expect(a.getByTestId('result-replaced')).toHaveText(
    /^This tab showed an earlier result\. A newer verification, finished at \d\d:\d\d UTC in another tab or window, replaced it: this browser keeps only its newest result\.$/,
  );
  // Said once: reloaded again, A shows what it showed.
  await a.reload();
  await expect(a.getByTestId('person')).toContainText('Eva');
  await expect(a.getByTestId('result-replaced')).toHaveCount(0);
  // C, reloaded, shows its own.
  await c.reload();
  await expect(c.getByTestId('result-replaced')).toHaveCount(0);

  // A verifies again itself: its own newer result, nothing to say; then C, reloaded, says it in Norwegian.
  await verify(a, 'age-and-name', 'ingrid-haugen');
  await expect(a.getByTestId('result-replaced')).toHaveCount(0);
  await context.addCookies([{ name: 'idv_lang', value: 'nb', url: APP }]);
  await c.reload();
  await expect(c.getByTestId('person')).toContainText('Ingrid');
  await expect(c.getByTestId('result-replaced')).toContainText('Denne fanen viste et tidligere resultat.');
});
