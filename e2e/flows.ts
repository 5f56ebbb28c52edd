import { expect, type Page } from '@playwright/test';

/** On the emulator's simulated identity app: pick a persona and press a decision button. */
export async function decideInEmulatedApp(page: Page, persona: string, outcome: 'approve' | 'cancel'): Promise<void> {
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  await page.locator(`input[name="persona"][value="${persona}"]`).check();
  await page.locator(`button[name="outcome"][value="${outcome}"]`).click();
}

/** From an app's home page: start the default selection. */
export async function startDefaultVerification(page: Page, appUrl: string): Promise<void> {
  await page.goto(`${appUrl}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
}
