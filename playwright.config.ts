/**
 * End-to-end tests against the real, built app (`npm run build` first; `npm test` does it).
 *
 * Three setups run:
 * - the app in emulator mode on http://localhost:3100, whose embedded emulator also registers a
 *   second client, `second-rp`;
 * - a second copy of the app on http://127.0.0.1:3101 in provider mode, configured only by IDV_*
 *   variables, using the first instance's emulator as its provider. (A different host name keeps
 *   the two apps' cookies apart: cookies are scoped by host, not port.)
 * - several instances: two copies of the app in emulator mode (3201, 3202) sharing one
 *   redis-server (6391) behind a round-robin balancer on http://127.0.0.2:3200, which is their
 *   APP_URL (e2e/several-instances.spec.ts).
 *
 * Debian's Chromium is used when present (/usr/bin/chromium, or CHROMIUM_PATH); elsewhere
 * Playwright's own Chromium.
 */
import { existsSync } from 'node:fs';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { defineConfig, devices } from '@playwright/test';

const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((path) => path && existsSync(path));

const EMULATOR_APP = 'http://localhost:3100';
const PROVIDER_APP = 'http://127.0.0.1:3101';
/** The balancer in front of the two instances that share Redis (a host of its own, for its cookies). */
const CLUSTER_APP = 'http://127.0.0.2:3200';
const CLUSTER_REDIS_PORT = 6391;

/** A client key pair made for this run only: the second app's private keys and their public JWKS. */
function secondClientKeys() {
  const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const encryption = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingJwk = { ...signing.privateKey.export({ format: 'jwk' }), kid: 'second-rp-sig', alg: 'ES256', use: 'sig' };
  const encryptionJwk = { ...encryption.privateKey.export({ format: 'jwk' }), kid: 'second-rp-enc', alg: 'RSA-OAEP-256', use: 'enc' };
  const publicOf = (jwk: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(jwk).filter(([member]) => !['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(member)));
  return { signingJwk, encryptionJwk, publicJwks: { keys: [publicOf(signingJwk), publicOf(encryptionJwk)] } };
}

const second = secondClientKeys();
const clusterSecret = randomBytes(32).toString('base64url');

/** What the two instances behind the balancer share: the store, the session secret and the client keys. */
const cluster = secondClientKeys();
const clusterInstance = (port: number) => ({
  command: 'npx next start',
  url: `http://127.0.0.1:${port}/healthz`,
  reuseExistingServer: false,
  timeout: 60_000,
  stdout: 'pipe' as const,
  env: {
    PORT: String(port),
    APP_URL: CLUSTER_APP,
    EMULATOR_DEVICE_URL: CLUSTER_APP,
    IDV_DATA_DIR: `.data/e2e-cluster-${port}`,
    REDIS_URL: `redis://127.0.0.1:${CLUSTER_REDIS_PORT}`,
    IDV_REDIS_PREFIX: 'e2e-cluster:',
    SESSION_SECRET: clusterSecret,
    IDV_SIGNING_KEY: JSON.stringify({ ...cluster.signingJwk, kid: 'cluster-sig' }),
    IDV_ENCRYPTION_KEY: JSON.stringify({ ...cluster.encryptionJwk, kid: 'cluster-enc' }),
    IDV_START_LIMIT_PER_ADDRESS: '1000',
  },
});

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: EMULATOR_APP,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          ...(chromiumPath ? { executablePath: chromiumPath } : {}),
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
        },
      },
    },
  ],
  webServer: [
    {
      command: 'npx next start',
      url: `${EMULATOR_APP}/emulator/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      env: {
        PORT: '3100',
        APP_URL: EMULATOR_APP,
        // The whole suite starts its verifications from one address, faster than a person would.
        IDV_START_LIMIT_PER_ADDRESS: '1000',
        IDV_DATA_DIR: '.data/e2e-emulator',
        // The "phone" of the QR test is another browser context on this machine.
        EMULATOR_DEVICE_URL: EMULATOR_APP,
        EMULATOR_CLIENTS: JSON.stringify([
          {
            client_id: 'second-rp',
            name: 'Second app (provider-mode test)',
            jwks: second.publicJwks,
            redirect_uris: [`${PROVIDER_APP}/auth/callback`],
            population_register: false,
          },
        ]),
      },
    },
    {
      command: 'npx next start',
      url: `${PROVIDER_APP}/`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      env: {
        PORT: '3101',
        APP_URL: PROVIDER_APP,
        // Low, so e2e/operations.spec.ts can reach it (from an address of its own).
        IDV_START_LIMIT_PER_ADDRESS: '5',
        IDV_DATA_DIR: '.data/e2e-provider',
        IDV_BASE_URL: `${EMULATOR_APP}/emulator`,
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
    clusterInstance(3201),
    clusterInstance(3202),
    {
      command: 'node test/support/balancer.mjs 3200 3201 3202 127.0.0.2',
      url: `${CLUSTER_APP}/healthz`,
      reuseExistingServer: false,
      timeout: 20_000,
    },
  ],
});
