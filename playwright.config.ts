/**
 * End-to-end tests against the real, built app (`npm run build` first; `npm test` does it): the
 * standalone server the Dockerfile ships, started by `npm start`'s script, on 127.0.0.1 only.
 *
 * The app in emulator mode runs once per worker, on http://localhost (e2e/servers.ts), started
 * here; every other server a spec needs (a strict emulator, an app in provider mode, several
 * instances on Redis behind balancers) is started by that spec's worker when it first asks for it
 * (`needServers`, e2e/servers.ts), and the specs that stop or restart servers start their own.
 *
 * Debian's Chromium is used when present (its headless shell, else chromium; or CHROMIUM_PATH);
 * elsewhere Playwright's own Chromium.
 */
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { defineConfig, devices } from '@playwright/test';
import { clientKeys, EMULATOR_APPS, EMULATOR_DATA_DIRS, WORKERS } from './e2e/servers';

/**
 * The browser: CHROMIUM_PATH, else Debian's old headless shell (package chromium-headless-shell,
 * the build Playwright itself runs headless tests in: no GPU process, a third less CPU per test
 * here), else Debian's Chromium, else Playwright's own.
 */
const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => path && existsSync(path));

/** The first app's session secret, which e2e/session-security.spec.ts looks for in every page (handed over like the example keys). */
process.env.E2E_EMULATOR_SESSION_SECRET ??= randomBytes(32).toString('base64url');
/** The QA panel's password on the emulator-mode apps (production builds: without one the panel is read-only). */
process.env.E2E_PANEL_PASSWORD ??= randomBytes(18).toString('base64url');

/**
 * The examples' clients (e2e/examples.spec.ts: example-rp; openid-client-rp, EdDSA-signing, so
 * its `alg` adaptation is used; broken-nonce-rp, test/support/broken-relying-party.ts). Their
 * private keys reach the specs, and their public keys the strict emulator a worker starts,
 * through the environment, which the workers inherit from this runner (a worker evaluates this
 * file again and would otherwise make other keys).
 */
process.env.E2E_EXAMPLE_CLIENT_KEYS ??= JSON.stringify(clientKeys());
process.env.E2E_OPENID_CLIENT_KEYS ??= JSON.stringify(clientKeys('EdDSA'));
process.env.E2E_BROKEN_RP_CLIENT_KEYS ??= JSON.stringify(clientKeys());

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    ...(chromiumPath ? { executablePath: chromiumPath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  },
};
const SCREENSHOTS = /screenshots\.spec\.ts$/;

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Spec files run side by side, each worker with its own app in emulator mode (e2e/servers.ts;
  // E2E_WORKERS, default one per core and one more); the tests of one file run in order.
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    // Recording a trace costs every test a fifth more time on this machine, failures or not:
    // E2E_TRACE=1 records one for each test that fails (playwright-report/), to find out why.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', use: chromium, testIgnore: SCREENSHOTS },
    // The screenshots for the docs, apart from the axe scans.
    { name: 'screenshots', use: chromium, testMatch: SCREENSHOTS },
  ],
  webServer: [
    // One app in emulator mode per worker (e2e/servers.ts).
    ...EMULATOR_APPS.map((app, index) => ({
      command: 'node scripts/start.mjs',
      url: `${app}/emulator/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe' as const,
      env: {
        PORT: new URL(app).port,
        HOST: '127.0.0.1',
        APP_URL: app,
        SESSION_SECRET: process.env.E2E_EMULATOR_SESSION_SECRET!,
        // The whole suite starts its verifications from one address, faster than a person would.
        IDV_START_LIMIT_PER_ADDRESS: '1000',
        IDV_DATA_DIR: EMULATOR_DATA_DIRS[index]!,
        // The "phone" of the QR test is another browser context on this machine.
        EMULATOR_DEVICE_URL: app,
        EMULATOR_PANEL_PASSWORD: process.env.E2E_PANEL_PASSWORD!,
      },
    })),
  ],
});
