/**
 * The examples (examples/), as an integrator runs them: lib/oidc and examples/ copied into a
 * blank NodeNext project with only what they need installed, compiled with tsc, and run with
 * Node against the strict emulator (EMULATOR_STRICT=on: it refuses whatever the spec does not list
 * or shape), where their client `example-rp` is registered (playwright.config.ts, which hands its
 * keys over in E2E_EXAMPLE_CLIENT_KEYS). examples/openid-client/ has a client of its own,
 * `openid-client-rp`, with an EdDSA signing key (E2E_OPENID_CLIENT_KEYS).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { createBlankProject, type BlankProject } from '../test/support/blank-project';
import { decideInEmulatedApp, signInToPanel } from './flows';
import { EXAMPLE_APPS, OPENID_CLIENT_EXAMPLE_APP, STRICT_EMULATOR_APP } from './servers';

const ISSUER = `${STRICT_EMULATOR_APP}/emulator`;
const [EXPRESS_APP, CLI_REDIRECT] = EXAMPLE_APPS;
let project: BlankProject;

function exampleEnvironment(client: 'example-rp' | 'openid-client-rp' = 'example-rp'): Record<string, string> {
  const variable = client === 'example-rp' ? 'E2E_EXAMPLE_CLIENT_KEYS' : 'E2E_OPENID_CLIENT_KEYS';
  const keys = JSON.parse(process.env[variable] ?? 'null') as { signingJwk: object; encryptionJwk: object } | null;
  if (!keys) throw new Error(`${variable} is not set: run the examples through playwright.config.ts`);
  return {
    IDV_BASE_URL: ISSUER,
    IDV_CLIENT_ID: client,
    IDV_SIGNING_KEY: JSON.stringify(keys.signingJwk),
    IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionJwk),
  };
}

test.beforeAll(() => {
  project = createBlankProject({ examples: true });
  const { status, output } = project.compile();
  expect(output).toBe('');
  expect(status).toBe(0);
});

test.afterAll(() => project?.remove());

test('examples/verify.ts: a plain Node program completes a verification with the copied core', () => {
  const run = spawnSync(process.execPath, [join(project.dir, 'dist/examples/verify.js'), 'sofia-costa'], {
    env: { ...process.env, ...exampleEnvironment(), REDIRECT_URI: `${CLI_REDIRECT}/callback` },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const printed = JSON.parse(run.stdout) as { sub: string; trustFramework: string; claims: Record<string, unknown> };
  expect(printed.sub).toMatch(/\S{8,}/);
  expect(printed.trustFramework).toBe('standard');
  expect(printed.claims).toEqual({ given_name: 'Sofia', family_name: 'Costa', birthdate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
});

test('examples/verify.ts: a client the service does not know exits 1 with the stable error code', () => {
  const run = spawnSync(process.execPath, [join(project.dir, 'dist/examples/verify.js')], {
    env: { ...process.env, ...exampleEnvironment(), IDV_CLIENT_ID: 'nobody', REDIRECT_URI: `${CLI_REDIRECT}/callback` },
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toMatch(/^verification failed: invalid_client: /);
});

test('examples/express-server.ts: the two routes and a session complete a verification in a browser', async ({ page }) => {
  const server = spawn(process.execPath, [join(project.dir, 'dist/examples/express-server.js')], {
    env: { ...process.env, ...exampleEnvironment(), PORT: new URL(EXPRESS_APP).port, SESSION_SECRET: randomBytes(32).toString('base64url') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.stdout.once('data', () => resolve());
      server.once('exit', (code) => reject(new Error(`the example server exited (${code})`)));
    });
    await page.goto(`${EXPRESS_APP}/`);
    await page.getByRole('button', { name: 'Verify my identity' }).click();
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(new RegExp(`^${EXPRESS_APP}/callback\\?`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verified: Ingrid Solberg Haugen');
    // The pending authorization was used up: the same callback again is refused.
    await page.reload();
    await expect(page.getByTestId('error-code')).toHaveText('state_mismatch');
  } finally {
    server.kill('SIGTERM');
  }
});

test.describe('examples/openid-client: openid-client v6 adapted to the service', () => {
  let server: ChildProcessWithoutNullStreams | undefined;
  let panel: APIRequestContext;

  test.beforeAll(async () => {
    const started = spawn(process.execPath, [join(project.dir, 'dist/examples/openid-client/server.js')], {
      env: { ...process.env, ...exampleEnvironment('openid-client-rp'), PORT: new URL(OPENID_CLIENT_EXAMPLE_APP).port, SESSION_SECRET: randomBytes(32).toString('base64url') },
      stdio: 'pipe',
    });
    server = started;
    started.stderr.pipe(process.stderr);
    // It listens only after discovery, so this also proves discovery against the strict emulator.
    await new Promise<void>((resolve, reject) => {
      started.stdout.once('data', () => resolve());
      started.once('exit', (code) => reject(new Error(`the openid-client example exited (${code})`)));
    });
    panel = await request.newContext();
    await signInToPanel(panel, STRICT_EMULATOR_APP);
  });

  test.afterAll(async () => {
    server?.kill('SIGTERM');
    await panel?.dispose();
  });

  test('a whole verification in a browser: an EdDSA client assertion, PAR with a signed request object, an encrypted ID token; its page shows the given name', async ({ page }) => {
    await page.goto(`${OPENID_CLIENT_EXAMPLE_APP}/`);
    await page.getByRole('button', { name: 'Verify my identity' }).click();
    await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
    await expect(page).toHaveURL(new RegExp(`^${OPENID_CLIENT_EXAMPLE_APP}/callback\\?`));
    await expect(page.getByTestId('given-name')).toHaveText('Ingrid Solberg');
    // The pending authorization was used up: the same callback again is refused.
    await page.reload();
    await expect(page.getByTestId('error-code')).toHaveText('no_pending_authorization');
  });

  // The two checks of spec 2.5 and 4.5 that openid-client does not make itself, made by the example.
  for (const [fault, code] of [
    ['unencrypted', 'id_token_not_encrypted'],
    ['issued_in_future', 'id_token_issued_in_future'],
  ] as const) {
    test(`the ${fault} fault, armed for its client, is refused with ${code}`, async ({ page }) => {
      const armed = await panel.post(`${STRICT_EMULATOR_APP}/emulator/panel`, {
        form: { action: 'arm_fault', fault, client_id: 'openid-client-rp' },
        maxRedirects: 0,
      });
      expect(armed.status()).toBe(303);
      await page.goto(`${OPENID_CLIENT_EXAMPLE_APP}/`);
      await page.getByRole('button', { name: 'Verify my identity' }).click();
      await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
      await expect(page.getByTestId('error-code')).toHaveText(code);
    });
  }
});
