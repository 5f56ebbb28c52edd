import { expect, type APIRequestContext, type Cookie, type Page } from '@playwright/test';
import { DOCUMENT_DETAILS } from '../lib/oidc/types';

/** On the emulator's simulated identity app: pick a persona and press a decision button. */
export async function decideInEmulatedApp(page: Page, persona: string, outcome: 'approve' | 'cancel'): Promise<void> {
  await expect(page).toHaveURL(/\/emulator\/auth\?/);
  await page.locator(`input[name="persona"][value="${persona}"]`).check();
  await page.locator(`button[name="outcome"][value="${outcome}"]`).click();
}

/**
 * The panel's sign-in cookie, per app, once this worker has signed in: a new browser context
 * reuses it, since the panel counts every sign-in from an address (10 per 15 minutes, right or
 * wrong), and a worker's specs would otherwise use them up.
 */
const panelCookies = new Map<string, Cookie[]>();

/**
 * Opens the emulator's QA panel at `appUrl` signed in with the suite's panel password
 * (playwright.config.ts), as a QA engineer does on a production build.
 */
export async function openPanelSignedIn(page: Page, appUrl: string): Promise<void> {
  const saved = panelCookies.get(appUrl);
  if (saved) await page.context().addCookies(saved);
  await page.goto(`${appUrl}/emulator`);
  const access = page.getByTestId('panel-access');
  if ((await access.getAttribute('data-access')) === 'signed-in') return;
  await page.getByLabel('Panel password').fill(process.env.E2E_PANEL_PASSWORD!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(access).toHaveAttribute('data-access', 'signed-in');
  panelCookies.set(
    appUrl,
    (await page.context().cookies(`${appUrl}/emulator`)).filter((cookie) => cookie.name === 'idv_emulator_panel'),
  );
}

/** On the QA panel at `appUrl`, signed in: arms one fault (or variant) for the next matching response. */
export async function armFault(page: Page, appUrl: string, fault: string): Promise<void> {
  await openPanelSignedIn(page, appUrl);
  await page.getByTestId(`fault-${fault}`).getByRole('button', { name: 'Arm' }).click();
  await expect(page.getByTestId(`fault-${fault}`)).toHaveAttribute('data-armed', 'true');
}

/** On a page of the flow (the QA panel open or signed in to): opens the QA disclosure and chooses how the service answers. */
export async function chooseAnswer(scope: Page, answer: string): Promise<void> {
  await scope.getByText('QA: answer this verification with…').click();
  await scope.getByLabel('How the service answers this verification').selectOption(answer);
  await scope.getByRole('button', { name: 'Use this answer' }).click();
  await expect(scope.getByTestId('qa-answer')).toHaveAttribute('data-answer', answer);
}

/** Signs an API request context in to the QA panel at `appUrl` (its cookie jar keeps the sign-in). */
export async function signInToPanel(request: APIRequestContext, appUrl: string): Promise<void> {
  const response = await request.post(`${appUrl}/emulator/panel`, { form: { action: 'sign_in', password: process.env.E2E_PANEL_PASSWORD! }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
}

/** From an app's home page: start the default selection. */
export async function startDefaultVerification(page: Page, appUrl: string): Promise<void> {
  await page.goto(`${appUrl}/`);
  await page.getByRole('button', { name: 'Start verification' }).click();
}

export type StartFields = Record<string, string | string[]>;

/**
 * From an app's home page: post the start form with these fields, as a same-origin form would
 * (see lib/verification/selection.ts for the field names).
 */
export async function startVerification(page: Page, appUrl: string, fields: StartFields): Promise<void> {
  await page.goto(`${appUrl}/`);
  await page.evaluate((entries) => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/auth/start';
    for (const [name, values] of entries) {
      for (const value of Array.isArray(values) ? values : [values]) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.append(input);
      }
    }
    document.body.append(form);
    form.submit();
  }, Object.entries(fields));
}

/** Every document detail of spec 2.3, as the start form names them. */
export const ALL_DOCUMENT_DETAILS: string[] = [...DOCUMENT_DETAILS];
