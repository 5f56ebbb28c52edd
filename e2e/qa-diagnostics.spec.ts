/**
 * QA diagnostics: a failure explained from the failure page alone (which check failed, with
 * which values; what the service answered) and reproduced in one click.
 */
import { expect, test } from '@playwright/test';
import { armFault, chooseAnswer, decideInEmulatedApp, openPanelSignedIn, startVerification } from './flows';
import { EMULATOR_APP as APP } from './servers';

test('a wrong nonce: the failure page names the nonce check with what was sent and received, the trace lists every check up to it, and one click asks again and meets the same fault', async ({
  page,
}) => {
  await armFault(page, APP, 'wrong_nonce');
  await startVerification(page, APP, { preset: 'age-and-name' });
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');

  // where it came from: the fault armed on the panel, by its id and its sentence
  const cause = page.getByTestId('fault-cause');
  await expect(cause.locator('[data-fault]')).toHaveCount(1);
  await expect(cause.locator('[data-fault=wrong_nonce]')).toContainText(
    'wrong_nonce Wrong nonce: The ID token carries a random nonce instead of the one in the request object.',
  );
  await expect(cause).toContainText('Armed on its QA panel.');
  // and what to do about it: the fault's advice, not the code's (which would look for a real cause)
  await expect(page.getByTestId('what-to-try')).toHaveText(
    /^Nothing, if this is the refusal you were testing: .* “Try the same request again” meets the same fault again\. .* disarm the fault on the emulator’s QA panel/,
  );

  // near the top: the check, what we sent (masked: a secret), what the token carried
  const top = page.getByTestId('failure-check');
  await expect(top.getByTestId('failed-check')).toHaveAttribute('data-check', 'nonce');
  await expect(top.getByTestId('check-expected')).toHaveText(/^the nonce we sent: \S{6}…•••• \(\d+ characters\)$/);
  await expect(top.getByTestId('check-received')).toHaveText(/^\S{6}…•••• \(\d+ characters\)$/);
  const [sent, received] = [await top.getByTestId('check-expected').textContent(), await top.getByTestId('check-received').textContent()];
  expect(sent!.slice('the nonce we sent: '.length, 'the nonce we sent: '.length + 6)).not.toBe(received!.slice(0, 6));

  // the trace: the checks after the token request, open, every one before the nonce passed
  const checks = page.locator('[data-testid=trace-entry][data-step=id_token_checks]');
  await expect(checks).toHaveCount(1);
  await expect(checks.locator('summary')).toContainText('ID token checks: Nonce failed');
  const rows = checks.locator('[data-check]');
  await expect(rows).toHaveCount(12);
  expect(await rows.evaluateAll((items) => items.map((item) => `${item.getAttribute('data-check')}:${item.getAttribute('data-outcome')}`))).toEqual([
    'jwe_header:passed',
    'decryption:passed',
    'jws_header:passed',
    'signing_key:passed',
    'signature:passed',
    'payload:passed',
    'iss:passed',
    'aud:passed',
    'exp:passed',
    'iat:passed',
    'nonce:failed',
    'sub:passed',
  ]);
  await expect(checks.getByTestId('failed-check')).toBeVisible();
  await expect(checks.locator('[data-check=exp] [data-testid=check-received]')).toHaveText(/^\d{10} \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/);
  await expect(checks.locator('[data-check=exp] [data-testid=check-expected]')).toHaveText(/later than .* UTC \(now, .* UTC, minus 30 s of clock tolerance\)/);
  await expect(checks.locator('[data-check=signing_key]')).toContainText(/From the (cached key set|key set fetched for this token)/);

  // one click: the same preset again, and the same answer (the one-shot fault applied again, to
  // that verification alone), and again after that
  for (let round = 0; round < 2; round++) {
    await page.getByRole('button', { name: 'Try the same request again' }).click();
    await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
    await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');
    await expect(page.getByTestId('fault-cause').locator('[data-fault=wrong_nonce]')).toBeVisible();
    await expect(page.getByTestId('fault-cause')).toContainText('Applied again by “Try the same request again”, as to the verification that failed before.');
    await expect(page.getByTestId('what-to-try')).toHaveText(
      /“Try the same request again” meets it each time; a verification started from the start page is answered normally\.$/,
    );
  }
  // the same preset from the start page: the normal answer, judged by its own policy
  await startVerification(page, APP, { preset: 'age-and-name' });
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
  await expect(page.getByRole('heading', { name: 'Policy: Age check: 18 or older' })).toBeVisible();
});

test('a wrong issuer: the failure page shows the issuer expected and the one received', async ({ page }) => {
  await armFault(page, APP, 'wrong_issuer');
  await startVerification(page, APP, {});
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('id_token_issuer_mismatch');
  const top = page.getByTestId('failure-check');
  await expect(top.getByTestId('failed-check')).toHaveAttribute('data-check', 'iss');
  await expect(top.getByTestId('check-expected')).toHaveText(`"${APP}/emulator"`);
  await expect(top.getByTestId('check-received')).toHaveText('"https://impostor.invalid"');
});

test('an expired token: expiry and the clock as readable dates, with the tolerance applied', async ({ page }) => {
  await armFault(page, APP, 'expired');
  await startVerification(page, APP, {});
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('id_token_expired');
  const top = page.getByTestId('failure-check');
  await expect(top.getByTestId('failed-check')).toHaveAttribute('data-check', 'exp');
  await expect(top.getByTestId('check-received')).toHaveText(/^\d{10} \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)$/);
  await expect(top.getByTestId('check-expected')).toHaveText(/^later than \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(now, .* minus 30 s of clock tolerance\)$/);
});

test('a redirect from another issuer: what was compared, expected and received', async ({ page }) => {
  await armFault(page, APP, 'wrong_response_issuer');
  await startVerification(page, APP, {});
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('callback_issuer_mismatch');
  const compared = page.getByTestId('failure-comparison');
  await expect(compared).toContainText('What was compared: iss');
  await expect(compared.getByTestId('check-expected')).toHaveText(`"${APP}/emulator"`);
  await expect(compared.getByTestId('check-received')).toHaveText('"https://impostor.invalid"');
});

test('a failed face check: the service’s own error and words at the top, under a title that does not say cancelled', async ({ page }) => {
  await startVerification(page, APP, {});
  await page.getByTestId('use-app-on-this-device').click();
  await page.getByTestId('persona-tobias-hansen').click();
  await page.getByTestId('scan-document').click();
  await page.getByTestId('read-chip').click();
  await page.getByTestId('continue').click();
  await page.getByTestId('check-face').click();
  await page.getByTestId('end-verification').click();
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  const answer = page.getByTestId('service-answer');
  await expect(answer.getByTestId('service-error')).toHaveText('access_denied');
  await expect(answer.getByTestId('error-description')).not.toBeEmpty();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The service refused the verification');
  await expect(page.getByRole('heading', { level: 1 })).not.toContainText(/cancel/i);
  // no fault of the emulator was involved, and the page does not pretend one was
  await expect(page.getByTestId('fault-cause')).toHaveCount(0);
  await expect(page.getByTestId('what-to-try')).not.toContainText('fault');
  // the answer comes before the explanation of the code
  const [answerTop, headingTop] = await Promise.all([answer.boundingBox(), page.getByTestId('error-code').boundingBox()]);
  expect(answerTop!.y).toBeLessThan(headingTop!.y);

  // no fault to apply again: the same request is answered normally, here for another person
  await page.getByRole('button', { name: 'Try the same request again' }).click();
  await decideInEmulatedApp(page, 'lars-eriksson', 'approve');
  await expect(page).toHaveURL(`${APP}/result`);
});

test('an error of the PAR endpoint: the service’s own error and description, verbatim', async ({ page }) => {
  await armFault(page, APP, 'par_temporarily_unavailable');
  await startVerification(page, APP, {});
  await expect(page.getByTestId('error-code')).toHaveText('temporarily_unavailable');
  await expect(page.getByTestId('service-answer').getByTestId('service-error')).toHaveText('temporarily_unavailable');
  await expect(page.getByTestId('service-answer').getByTestId('error-description')).not.toBeEmpty();
});

test('a fault chosen for one verification on the emulator’s page is named as chosen there, in Norwegian too', async ({ page }) => {
  await openPanelSignedIn(page, APP);
  await startVerification(page, APP, {});
  await page.getByText('QA: answer this verification with…').click();
  await page.getByLabel('How the service answers this verification').selectOption('fault:wrong_audience');
  await page.getByRole('button', { name: 'Use this answer' }).click();
  await expect(page.getByTestId('qa-answer')).toHaveAttribute('data-answer', 'fault:wrong_audience');
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page.getByTestId('error-code')).toHaveText('id_token_audience_mismatch');
  await expect(page.getByTestId('fault-cause').locator('[data-fault=wrong_audience]')).toContainText('wrong_audience');
  await expect(page.getByTestId('fault-cause')).toContainText('Chosen for this verification on the emulator’s page.');
  await expect(page.getByTestId('what-to-try')).toContainText(
    'it was chosen for this verification only. “Try the same request again” meets it again; a verification started from the start page is answered normally.',
  );
  await expect(page.getByTestId('failure-check').getByTestId('check-received')).toHaveText('"another-client"');

  await page.getByRole('button', { name: 'Norsk' }).click();
  await expect(page.getByTestId('fault-cause')).toContainText('Valgt for denne verifiseringen på emulatorens side.');
  await expect(page.getByTestId('fault-cause').locator('[data-fault=wrong_audience]')).toContainText('Feil mottaker');
  await expect(page.getByTestId('failure-check').getByTestId('check-expected')).toHaveText('"demo-relying-party"');
  await page.getByRole('button', { name: 'English' }).click();
});

test('a redirect whose state a fault changed is still traced to that fault, and its request, known by that, asked again meets it again', async ({ page }) => {
  await armFault(page, APP, 'wrong_state');
  await startVerification(page, APP, { preset: 'age-and-name' });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('state_mismatch');
  await expect(page.getByTestId('fault-cause').locator('[data-fault=wrong_state]')).toBeVisible();
  await expect(page.getByTestId('request-unknown')).toHaveCount(0);

  await page.getByRole('button', { name: 'Try the same request again' }).click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('state_mismatch');
  await expect(page.getByTestId('fault-cause').locator('[data-fault=wrong_state]')).toBeVisible();
  await expect(page.getByTestId('fault-cause')).toContainText('Applied again by “Try the same request again”');
  // the same request: the preset, so the normal answer to it is judged by its policy
  await startVerification(page, APP, { preset: 'age-and-name' });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByRole('heading', { name: 'Policy: Age check: 18 or older' })).toBeVisible();
});

test('a redirect whose state matches none of this browser’s verifications, and no fault explains: the request is not known, so the page offers the picker and says why', async ({
  page,
}) => {
  await page.goto(`${APP}/`);
  await page.goto(`${APP}/auth/callback?code=forged&state=${'s'.repeat(43)}&iss=${encodeURIComponent(`${APP}/emulator`)}`);
  await expect(page.getByTestId('error-code')).toHaveText('state_mismatch');
  await expect(page.getByTestId('retry-form')).toHaveCount(0);
  await expect(page.getByTestId('request-unknown')).toHaveText(
    'The answer’s state matched none of this browser’s verifications, so the app cannot tell which request it answered, and cannot ask for it again. Choose the request again.',
  );
  await page.getByRole('link', { name: 'Choose the request again' }).click();
  await expect(page).toHaveURL(`${APP}/`);
});

test('an error chosen for one verification on the emulator’s page is chosen again for the same request asked again, with its description', async ({ page }) => {
  await openPanelSignedIn(page, APP);
  await startVerification(page, APP, {});
  await chooseAnswer(page, 'error:face_check_failed');
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  const description = 'the face check failed: the face did not match the portrait on the document';
  await expect(page.getByTestId('error-description')).toHaveText(description);

  await page.getByRole('button', { name: 'Try the same request again' }).click();
  // the new verification's page shows the answer chosen for it
  await expect(page.getByTestId('qa-answer')).toHaveAttribute('data-answer', 'error:face_check_failed');
  await page.locator('input[name="persona"][value="ingrid-haugen"]').check();
  await page.locator('button[name="outcome"][value="approve"]').click();
  await expect(page.getByTestId('error-code')).toHaveText('access_denied');
  await expect(page.getByTestId('error-description')).toHaveText(description);
  await expect(page.getByTestId('fault-cause').locator('[data-fault-error=access_denied]')).toBeVisible();
});

test('a variant a correct relying party accepts is listed apart from the fault that caused the failure', async ({ page }) => {
  await armFault(page, APP, 'wrong_nonce');
  await armFault(page, APP, 'no_expires_in');
  await startVerification(page, APP, {});
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');
  const cause = page.getByTestId('fault-cause');
  await expect(cause.locator('[data-fault]')).toHaveCount(1);
  await expect(cause.locator('[data-fault=wrong_nonce]')).toBeVisible();
  await expect(cause.locator('[data-variant=no_expires_in]')).toBeVisible();
  await expect(cause).toContainText('Also applied: answers a correct relying party accepts');
});
