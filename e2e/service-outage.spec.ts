/**
 * The service unreachable, then back (lib/oidc/README.md "Security choices"): the relying party backs off
 * from a failed discovery or JWKS request for a second at first (30 s at most), the failure page
 * says when it asks again, and once the service is back the next verification goes through
 * within seconds. Runs its own servers: an app in provider mode, and the service (the app in
 * emulator mode) started only after the first attempt failed.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
import { clientKeys } from '../test/support/client-keys';
import { decideInEmulatedApp } from './flows';

test('with the service down the failure page says when the app asks again, and a second after it is back a verification completes', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const [appPort, servicePort] = [await freePort(), await freePort()];
  const app = `http://localhost:${appPort}`;
  const service = `http://127.0.0.1:${servicePort}`;
  const keys = clientKeys('outage');
  const servers: AppServer[] = [];
  try {
    servers.push(
      startAppServer(appPort, {
        APP_URL: app,
        IDV_DATA_DIR: '.data/e2e-service-outage',
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        IDV_BASE_URL: `${service}/emulator`,
        IDV_CLIENT_ID: 'outage-rp',
        IDV_SIGNING_KEY: JSON.stringify(keys.signing),
        IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryption),
      }),
    );
    await expect
      .poll(
        () =>
          request.get(`${app}/readyz`).then(
            (r) => r.status(),
            () => 0,
          ),
        { timeout: 30_000 },
      )
      .toBe(200);

    await page.goto(`${app}/`);
    await page.getByRole('button', { name: 'Start verification' }).click();
    await expect(page.getByTestId('error-code')).toHaveText('network_error');
    // The home page's render met the outage first (its discovery, its header's health): the start's
    // failure is the first or the second in a row, as a second had passed or not, and says so.
    await expect(page.getByTestId('retry-after')).toContainText(/The app asks the service again (a second|2 seconds) after this failure/);

    servers.push(
      startAppServer(servicePort, {
        APP_URL: service,
        HOST: '127.0.0.1',
        IDV_DATA_DIR: '.data/e2e-service-outage-service',
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        EMULATOR_DEVICE_URL: service,
        EMULATOR_CLIENTS: JSON.stringify([
          { client_id: 'outage-rp', name: 'Outage test', jwks: keys.jwks, redirect_uris: [`${app}/auth/callback`], population_register: false },
        ]),
      }),
    );
    await expect
      .poll(
        () =>
          request.get(`${service}/readyz`).then(
            (r) => r.status(),
            () => 0,
          ),
        { timeout: 30_000 },
      )
      .toBe(200);
    const back = Date.now();

    // At most a second or two of back-off remains: the next start goes through.
    await expect(async () => {
      await page.goto(`${app}/`);
      await page.getByRole('button', { name: 'Start verification' }).click();
      await expect(page).toHaveURL(new RegExp(`^${service}/emulator/auth\\?`), { timeout: 2_000 });
    }).toPass({ intervals: [500], timeout: 10_000 });
    expect(Date.now() - back).toBeLessThan(5_000);
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${app}/result`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');
    // The header's badge, as this page was served, shows the service back: while it could not be
    // reached it is asked again every 2 s, not 15, and a page waits a moment for the answer.
    await expect(page.getByTestId('mode-badge')).toHaveAttribute('data-state', 'ok');
  } finally {
    for (const server of servers) server.kill('SIGKILL');
  }
});
