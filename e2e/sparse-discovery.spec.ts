/**
 * A sparse discovery document, as a real service might serve one (spec part 4 shows no body):
 * the embedded emulator switched to its minimal document from the QA panel, before the app has
 * fetched discovery. The app's relying party takes PAR, token and JWKS from part 4's paths and
 * /auth from its flow URL, completes the verification, and its trace says where each endpoint
 * came from. The emulator's {flow_url} is an origin of its own (EMULATOR_FLOW_URL, a second
 * listener). Runs a server of its own (the built app), so nothing is cached yet.
 */
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer } from '../test/support/app-server';
import { decideInEmulatedApp, openPanelSignedIn } from './flows';

test('with the minimal discovery document the verification completes on part 4’s paths and /auth on the flow URL’s own origin, and the trace says so', async ({
  page,
  request,
}) => {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  // {flow_url} on an origin of its own: another host name and port, served by a second listener.
  const flowPort = await freePort();
  const flow = `http://127.0.0.1:${flowPort}`;
  const server = startAppServer(port, {
    APP_URL: app,
    EMULATOR_FLOW_URL: flow,
    IDV_DATA_DIR: '.data/e2e-sparse-discovery',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    EMULATOR_PANEL_PASSWORD: process.env.E2E_PANEL_PASSWORD!,
  });
  try {
    await server.ready();
    await openPanelSignedIn(page, app);
    await page.getByRole('button', { name: 'Serve the minimal document' }).click();
    await expect(page.getByTestId('discovery-shape')).toHaveAttribute('data-shape', 'minimal');
    const document = (await (await request.get(`${app}/emulator/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(document).not.toHaveProperty('authorization_endpoint');
    expect(document).not.toHaveProperty('pushed_authorization_request_endpoint');

    await page.goto(`${app}/`);
    await page.getByRole('button', { name: 'Start verification' }).click();
    await expect(page).toHaveURL(new RegExp(`^${flow}/emulator/auth\\?`));
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(`${app}/result`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ingrid Solberg Haugen');

    const endpoints = page.getByTestId('trace-entry').filter({ hasText: 'Endpoints: some not in the discovery document' });
    await expect(endpoints).toHaveCount(1);
    await endpoints.locator('summary').click();
    await expect(endpoints).toContainText('"from": "part_4_path"');
    await expect(endpoints).toContainText(`"url": "${app}/emulator/par"`);
    await expect(endpoints).toContainText('"from": "flow_url"');
    await expect(endpoints).toContainText(`"url": "${flow}/emulator/auth"`);
  } finally {
    server.kill('SIGKILL');
  }
});
