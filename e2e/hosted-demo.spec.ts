/**
 * The embedded emulator served under NODE_ENV=production (a hosted demo): start-up says so, and a
 * stranger who reaches the site cannot change what everyone else gets from the QA panel. Runs
 * servers of its own (the built app): one without EMULATOR_PANEL_PASSWORD (the panel read-only),
 * one started as `npm run demo` starts it (a random panel password, printed).
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer } from '../test/support/app-server';

test('without EMULATOR_PANEL_PASSWORD the production panel is read-only: start-up says so, every button is disabled, a forged post changes nothing', async ({
  page,
  request,
}) => {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const server = startAppServer(port, { APP_URL: app, IDV_DATA_DIR: '.data/e2e-read-only-panel', SESSION_SECRET: randomBytes(32).toString('base64url') });
  try {
    await server.ready();
    expect(server.output()).toContain('[idv] the embedded emulator is running under NODE_ENV=production');
    expect(server.output()).toContain('its QA panel is read-only (set EMULATOR_PANEL_PASSWORD to use its actions)');

    await page.goto(`${app}/emulator`);
    await expect(page.getByTestId('panel-access')).toHaveAttribute('data-access', 'read-only');
    await expect(page.getByRole('button', { name: 'Rotate signing key' })).toBeDisabled();
    await expect(page.getByTestId('fault-wrong_nonce').getByRole('button', { name: 'Arm' })).toBeDisabled();

    const forged = await request.post(`${app}/emulator/panel`, { form: { action: 'arm_fault', fault: 'wrong_nonce' }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(await forged.text()).toContain('The panel is read-only');
    await page.reload();
    await expect(page.getByTestId('armed-faults')).toHaveText('Armed now: none');
  } finally {
    server.kill('SIGKILL');
  }
});

test('`npm run demo` prints a panel password for the run: a wrong one is refused, the right one signs in until signing out', async ({ page, request }) => {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const server = startAppServer(port, { APP_URL: app, IDV_DATA_DIR: '.data/e2e-demo-run' }, ['--demo']);
  try {
    await server.ready();
    const password = /the QA panel's password for this run is (\S+)/.exec(server.output())?.[1];
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(server.output()).toContain('its QA panel’s actions ask for EMULATOR_PANEL_PASSWORD');

    await page.goto(`${app}/emulator`);
    const fault = page.getByTestId('fault-wrong_nonce');
    await expect(fault.getByRole('button', { name: 'Arm' })).toBeDisabled();

    await page.getByLabel('Panel password').fill(`${password}x`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('panel-error')).toHaveText('That is not the panel password.');

    await page.goto(`${app}/emulator`);
    await page.getByLabel('Panel password').fill(password!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByTestId('panel-notice')).toContainText('Signed in');
    await fault.getByRole('button', { name: 'Arm' }).click();
    await expect(fault).toHaveAttribute('data-armed', 'true');
    await fault.getByRole('button', { name: 'Disarm' }).click();
    await expect(fault).toHaveAttribute('data-armed', 'false');

    // Another browser (the test's request context, no cookie) still cannot act.
    const stranger = await request.post(`${app}/emulator/panel`, { form: { action: 'rotate_keys' }, maxRedirects: 0 });
    expect(stranger.status()).toBe(403);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByTestId('panel-notice')).toHaveText('Signed out.');
    await expect(fault.getByRole('button', { name: 'Arm' })).toBeDisabled();
  } finally {
    server.kill('SIGKILL');
  }
});
