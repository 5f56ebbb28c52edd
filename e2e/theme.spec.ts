/**
 * Dark mode: the app follows prefers-color-scheme, and the header's switch overrides it (Light,
 * Dark, or Auto again), remembered by the browser.
 */
import { expect, test, type Page } from '@playwright/test';
import { EMULATOR_APP as APP } from './servers';

/** The page's background lightness as the browser paints it (0 black … 1 white), from its computed colour. */
async function backgroundLightness(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d')!;
    canvas.fillStyle = getComputedStyle(document.body).backgroundColor;
    canvas.fillRect(0, 0, 1, 1);
    const [r, g, b] = canvas.getImageData(0, 0, 1, 1).data;
    return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
  });
}

test.describe('with the system in dark mode', () => {
  test.use({ colorScheme: 'dark' });

  test('the app is dark, the switch makes it light and back, and the browser remembers the choice', async ({ page, context }) => {
    await page.goto(`${APP}/`);
    expect(await backgroundLightness(page)).toBeLessThan(0.2);
    await expect(page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Auto' })).toHaveAttribute('aria-pressed', 'true');

    await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Light' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await backgroundLightness(page)).toBeGreaterThan(0.9);
    const other = await context.newPage();
    await other.goto(`${APP}/doctor`);
    expect(await backgroundLightness(other)).toBeGreaterThan(0.9);

    await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Auto' }).click();
    await expect(page.locator('html')).not.toHaveAttribute('data-theme');
    expect(await backgroundLightness(page)).toBeLessThan(0.2);
  });
});

test('with the system in light mode, the switch makes the app dark', async ({ page }) => {
  await page.goto(`${APP}/`);
  expect(await backgroundLightness(page)).toBeGreaterThan(0.9);
  await page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true');
  expect(await backgroundLightness(page)).toBeLessThan(0.2);
});
