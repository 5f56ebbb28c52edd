/**
 * End-to-end tests against the real, built app (`npm run build` first; `npm test` does it): the
 * standalone server the Dockerfile ships, started by `npm start`'s script, on 127.0.0.1 only.
 *
 * These setups run, each server on a free port chosen for the run (e2e/servers.ts), so the suite
 * runs beside anything else on the machine:
 * - the app in emulator mode on http://localhost, its embedded emulator lenient (the default),
 *   once per worker: each worker uses its own (e2e/servers.ts);
 * - a strict emulator: a copy of the app in emulator mode on http://127.0.0.4 with
 *   EMULATOR_STRICT=on, whose embedded emulator refuses whatever the spec does not list or shape,
 *   as a service that checks the spec's letter would. It registers the provider-mode clients
 *   (`second-rp`, `cluster-provider-rp`) and the examples' (`example-rp`, and `openid-client-rp`
 *   for examples/openid-client/), and `broken-nonce-rp` for the deliberately broken relying party
 *   of test/support/broken-relying-party.ts: what passes against it sends nothing the spec does
 *   not list;
 * - a second copy of the app on http://127.0.0.1 in provider mode, configured only by IDV_*
 *   variables, using the strict emulator as its provider. (A different host name keeps the apps'
 *   cookies apart: cookies are scoped by host, not port.)
 * - several instances: two copies of the app in emulator mode sharing one redis-server behind a
 *   round-robin balancer on http://127.0.0.2, which is their APP_URL; and two in provider mode on
 *   the same Redis (their own prefix) behind a balancer on http://127.0.0.3, with the strict
 *   emulator as their provider
 *   (e2e/several-instances.spec.ts). e2e/outages.spec.ts and e2e/graceful-shutdown.spec.ts start
 *   servers of their own, which they stop.
 *
 * Debian's Chromium is used when present (its headless shell, else chromium; or CHROMIUM_PATH);
 * elsewhere Playwright's own Chromium.
 */
import { existsSync } from 'node:fs';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { defineConfig, devices } from '@playwright/test';
import { BROKEN_RELYING_PARTY_APP, CLUSTER_APP, EMULATOR_APPS, EMULATOR_DATA_DIRS, EXAMPLE_APPS, OPENID_CLIENT_EXAMPLE_APP, PORTS, PROVIDER_APP, PROVIDER_CLUSTER_APP, STRICT_EMULATOR_APP, WORKERS } from './e2e/servers';

/**
 * The browser: CHROMIUM_PATH, else Debian's old headless shell (package chromium-headless-shell,
 * the build Playwright itself runs headless tests in: no GPU process, a third less CPU per test
 * here), else Debian's Chromium, else Playwright's own.
 */
const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => path && existsSync(path));

const CLUSTER_REDIS_PORT = PORTS.clusterRedis;

/**
 * A client key pair made for this run only: the second app's private keys and their public JWKS.
 * The signing key is ES256 (P-256), or EdDSA (Ed25519), the third algorithm of spec 5.2.
 */
function secondClientKeys(signingAlgorithm: 'ES256' | 'EdDSA' = 'ES256') {
  const signing = signingAlgorithm === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const encryption = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingJwk = { ...signing.privateKey.export({ format: 'jwk' }), kid: 'second-rp-sig', alg: signingAlgorithm, use: 'sig' };
  const encryptionJwk = { ...encryption.privateKey.export({ format: 'jwk' }), kid: 'second-rp-enc', alg: 'RSA-OAEP-256', use: 'enc' };
  const publicOf = (jwk: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(jwk).filter(([member]) => !['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(member)));
  return { signingJwk, encryptionJwk, publicJwks: { keys: [publicOf(signingJwk), publicOf(encryptionJwk)] } };
}

const second = secondClientKeys();

/** The first app's session secret, which e2e/session-security.spec.ts looks for in every page (handed over like the example keys). */
process.env.E2E_EMULATOR_SESSION_SECRET ??= randomBytes(32).toString('base64url');
/** The QA panel's password on the emulator-mode apps (production builds: without one the panel is read-only). */
process.env.E2E_PANEL_PASSWORD ??= randomBytes(18).toString('base64url');

/**
 * The examples' client (e2e/examples.spec.ts), registered with the first app's emulator. Its
 * private keys reach the spec through the environment, which the workers inherit from this
 * runner (a worker evaluates this file again and would otherwise make other keys).
 */
process.env.E2E_EXAMPLE_CLIENT_KEYS ??= JSON.stringify(secondClientKeys());
const example = JSON.parse(process.env.E2E_EXAMPLE_CLIENT_KEYS) as ReturnType<typeof secondClientKeys>;
/** The client of examples/openid-client/ (openid-client-rp), handed over the same way: EdDSA-signing, so its `alg` adaptation is used. */
process.env.E2E_OPENID_CLIENT_KEYS ??= JSON.stringify(secondClientKeys('EdDSA'));
const openidClientExample = JSON.parse(process.env.E2E_OPENID_CLIENT_KEYS) as ReturnType<typeof secondClientKeys>;
/** The client of the deliberately broken relying party (test/support/broken-relying-party.ts, broken-nonce-rp), handed over the same way. */
process.env.E2E_BROKEN_RP_CLIENT_KEYS ??= JSON.stringify(secondClientKeys());
const brokenRelyingParty = JSON.parse(process.env.E2E_BROKEN_RP_CLIENT_KEYS) as ReturnType<typeof secondClientKeys>;
const clusterSecret = randomBytes(32).toString('base64url');

/** What the two instances behind each balancer share: the store, the session secret and the client keys. */
const cluster = secondClientKeys();
const providerCluster = secondClientKeys();
const clusterInstance = (port: number, env: Record<string, string>) => ({
  command: 'node scripts/start.mjs',
  url: `http://127.0.0.1:${port}/healthz`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'pipe' as const,
  env: {
    PORT: String(port),
    HOST: '127.0.0.1',
    IDV_DATA_DIR: `.data/e2e-cluster-${port}`,
    REDIS_URL: `redis://127.0.0.1:${CLUSTER_REDIS_PORT}`,
    IDV_START_LIMIT_PER_ADDRESS: '1000',
    ...env,
  },
});
const emulatorClusterInstance = (port: number) =>
  clusterInstance(port, {
    APP_URL: CLUSTER_APP,
    EMULATOR_DEVICE_URL: CLUSTER_APP,
    EMULATOR_PANEL_PASSWORD: process.env.E2E_PANEL_PASSWORD!,
    IDV_REDIS_PREFIX: 'e2e-cluster:',
    SESSION_SECRET: clusterSecret,
    IDV_SIGNING_KEY: JSON.stringify({ ...cluster.signingJwk, kid: 'cluster-sig' }),
    IDV_ENCRYPTION_KEY: JSON.stringify({ ...cluster.encryptionJwk, kid: 'cluster-enc' }),
  });
const providerClusterSecret = randomBytes(32).toString('base64url');
const providerClusterInstance = (port: number) =>
  clusterInstance(port, {
    APP_URL: PROVIDER_CLUSTER_APP,
    IDV_REDIS_PREFIX: 'e2e-provider-cluster:',
    SESSION_SECRET: providerClusterSecret,
    IDV_BASE_URL: `${STRICT_EMULATOR_APP}/emulator`,
    IDV_CLIENT_ID: 'cluster-provider-rp',
    IDV_SIGNING_KEY: JSON.stringify(providerCluster.signingJwk),
    IDV_ENCRYPTION_KEY: JSON.stringify(providerCluster.encryptionJwk),
  });

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
  // E2E_WORKERS, default 2: this machine has two cores); the tests of one file run in order.
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
    {
      command: 'node scripts/start.mjs',
      url: `${STRICT_EMULATOR_APP}/emulator/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      env: {
        PORT: String(PORTS.strictEmulator),
        HOST: '127.0.0.4',
        APP_URL: STRICT_EMULATOR_APP,
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        IDV_DATA_DIR: '.data/e2e-strict-emulator',
        EMULATOR_STRICT: 'on',
        EMULATOR_DEVICE_URL: STRICT_EMULATOR_APP,
        EMULATOR_PANEL_PASSWORD: process.env.E2E_PANEL_PASSWORD,
        EMULATOR_CLIENTS: JSON.stringify([
          {
            client_id: 'second-rp',
            name: 'Second app (provider-mode test)',
            jwks: second.publicJwks,
            redirect_uris: [`${PROVIDER_APP}/auth/callback`],
            population_register: false,
          },
          {
            client_id: 'example-rp',
            name: 'The examples in examples/',
            jwks: example.publicJwks,
            redirect_uris: EXAMPLE_APPS.map((app) => `${app}/callback`),
            population_register: false,
          },
          {
            client_id: 'openid-client-rp',
            name: 'The example built on openid-client',
            jwks: openidClientExample.publicJwks,
            redirect_uris: [`${OPENID_CLIENT_EXAMPLE_APP}/callback`],
            population_register: false,
          },
          {
            client_id: 'broken-nonce-rp',
            name: 'A relying party that skips the nonce check, on purpose',
            jwks: brokenRelyingParty.publicJwks,
            redirect_uris: [`${BROKEN_RELYING_PARTY_APP}/callback`],
            population_register: false,
          },
          {
            client_id: 'cluster-provider-rp',
            name: 'Two instances in provider mode',
            jwks: providerCluster.publicJwks,
            redirect_uris: [`${PROVIDER_CLUSTER_APP}/auth/callback`],
            population_register: false,
          },
        ]),
      },
    },
    {
      command: 'node scripts/start.mjs',
      url: `${PROVIDER_APP}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      env: {
        PORT: String(PORTS.providerApp),
        HOST: '127.0.0.1',
        APP_URL: PROVIDER_APP,
        // The provider-mode tests start their verifications from one address, faster than a person would.
        IDV_START_LIMIT_PER_ADDRESS: '1000',
        IDV_DATA_DIR: '.data/e2e-provider',
        IDV_BASE_URL: `${STRICT_EMULATOR_APP}/emulator`,
        IDV_CLIENT_ID: 'second-rp',
        IDV_SIGNING_KEY: JSON.stringify(second.signingJwk),
        IDV_ENCRYPTION_KEY: JSON.stringify(second.encryptionJwk),
        SESSION_SECRET: randomBytes(32).toString('base64url'),
      },
    },
    {
      command: `redis-server --port ${CLUSTER_REDIS_PORT} --bind 127.0.0.1 --save '' --appendonly no`,
      port: CLUSTER_REDIS_PORT,
      reuseExistingServer: false,
      timeout: 20_000,
    },
    emulatorClusterInstance(PORTS.clusterOne),
    emulatorClusterInstance(PORTS.clusterTwo),
    {
      command: `node test/support/balancer.mjs ${PORTS.cluster} ${PORTS.clusterOne} ${PORTS.clusterTwo} 127.0.0.2`,
      url: `${CLUSTER_APP}/healthz`,
      reuseExistingServer: false,
      timeout: 20_000,
    },
    providerClusterInstance(PORTS.providerClusterOne),
    providerClusterInstance(PORTS.providerClusterTwo),
    {
      command: `node test/support/balancer.mjs ${PORTS.providerCluster} ${PORTS.providerClusterOne} ${PORTS.providerClusterTwo} 127.0.0.3`,
      url: `${PROVIDER_CLUSTER_APP}/healthz`,
      reuseExistingServer: false,
      timeout: 20_000,
    },
  ],
});
