/**
 * The embedded emulator as QA uses it: the simulated identity app on this device and through the
 * QR code on a "phone" (a second browser), and the fault panel whose one-shot faults the relying
 * party must refuse.
 */
import { expect, test, type Page } from '@playwright/test';
import { armFault, decideInEmulatedApp, openPanelSignedIn, startDefaultVerification, startVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

/** The app's five steps for a persona who passes, ending on consent: Share. */
async function walkThroughApp(phone: Page, persona: string): Promise<void> {
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 1 of 5/);
  await phone.getByTestId(`persona-${persona}`).click();
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 2 of 5/);
  await phone.getByTestId('scan-document').click();
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 3 of 5/);
  await phone.getByTestId('read-chip').click();
  await expect(phone.getByTestId('chip-result')).toBeVisible();
  await phone.getByTestId('continue').click();
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 4 of 5/);
  await phone.getByTestId('check-face').click();
  await expect(phone.getByTestId('face-result')).toBeVisible();
  await phone.getByTestId('continue').click();
  await expect(phone.getByTestId('app-step')).toHaveText(/Step 5 of 5/);
  await expect(phone.getByTestId('share-claims')).toBeVisible();
  await phone.getByTestId('share').click();
}

test('the identity app on this device walks through scan, chip and face, then returns to the app', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await page.getByTestId('use-app-on-this-device').click();
  await walkThroughApp(page, 'sofia-costa');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sofia Costa');
});

test('the failing face check in the app can only end the verification', async ({ page }) => {
  await startDefaultVerification(page, APP);
  await page.getByTestId('use-app-on-this-device').click();
  await page.getByTestId('persona-tobias-hansen').click();
  await page.getByTestId('scan-document').click();
  await page.getByTestId('read-chip').click();
  await page.getByTestId('continue').click();
  await page.getByTestId('check-face').click();
  await expect(page.getByTestId('face-check-failed')).toBeVisible();
  await page.getByTestId('end-verification').click();
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
});

test('a wrong nonce armed in the fault panel ends on the failure page with id_token_nonce_mismatch', async ({ page }) => {
  await armFault(page, APP, 'wrong_nonce');
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');
  // one-shot: the next flow is clean
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
});

test('an unencrypted ID token armed in the fault panel is refused with id_token_not_encrypted', async ({ page }) => {
  await armFault(page, APP, 'unencrypted');
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('id_token_not_encrypted');
});

test('a redirect back without iss, armed in the fault panel, is refused with callback_issuer_mismatch', async ({ page }) => {
  await armFault(page, APP, 'missing_response_issuer');
  await startDefaultVerification(page, APP);
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('callback_issuer_mismatch');
});

test('PAR temporarily_unavailable armed in the fault panel shows the provider’s error', async ({ page }) => {
  await armFault(page, APP, 'par_temporarily_unavailable');
  await startDefaultVerification(page, APP);
  await expect(page.getByTestId('error-code')).toHaveText('temporarily_unavailable');
});

test('turning off the demo client’s register entitlement makes register requests unauthorized', async ({ page }) => {
  await openPanelSignedIn(page, APP);
  await page.getByRole('button', { name: 'Disable population register for demo-relying-party' }).click();
  await expect(page.getByTestId('population-register-demo-relying-party')).toHaveText('Disabled');
  await startVerification(page, APP, { preset: 'population-register' });
  await expect(page.getByTestId('error-code')).toHaveText('unauthorized_client');

  await page.goto(`${APP}/emulator`);
  await page.getByRole('button', { name: 'Enable population register for demo-relying-party' }).click();
  await expect(page.getByTestId('population-register-demo-relying-party')).toHaveText('Enabled');
  await startVerification(page, APP, { preset: 'population-register' });
  await decideInEmulatedApp(page, 'amira-nilsen', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
});

test('rotating the signing key makes the key published ahead current, and verification goes on', async ({ page, request }) => {
  test.setTimeout(90_000);
  await openPanelSignedIn(page, APP);
  const before = await page.getByTestId('signing-key').count();
  const publishedAhead = await page.locator('[data-testid=signing-key][data-status=next]').getAttribute('data-kid');
  await page.getByRole('button', { name: 'Rotate signing key' }).click();
  await expect(page.locator('[data-testid=signing-key][data-status=current]')).toHaveAttribute('data-kid', publishedAhead!);
  await expect(page.locator('[data-testid=signing-key][data-status=next]')).not.toHaveAttribute('data-kid', publishedAhead!);
  await expect(page.getByTestId('signing-key')).toHaveCount(Math.min(before + 1, 4));
  const jwks = (await (await request.get(`${APP}/emulator/jwks`)).json()) as { keys: { kid: string; x5c: string[] }[] };
  const kids = await page.getByTestId('signing-key').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-kid')));
  expect(jwks.keys.map((key) => key.kid).sort()).toEqual([...kids].sort());
  expect(jwks.keys.every((key) => key.x5c.length === 2)).toBe(true);

  // The new key signs at once. A relying party that fetched the JWKS since the key was published
  // ahead knows it already; one that did not refetches for the unknown kid at most once per 30 s,
  // so a flow right after rotating may fail with id_token_key_not_found until then.
  const newKid = await page.locator('[data-testid=signing-key]:has-text("Current")').getAttribute('data-kid');
  await expect(async () => {
    await startDefaultVerification(page, APP);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${APP}/result`, { timeout: 5_000 });
  }).toPass({ timeout: 60_000, intervals: [5_000] });
  await page.locator('[data-step=id_token] summary').click();
  await expect(page.locator('[data-step=id_token]')).toContainText(`"kid": "${newKid}"`);
});
