/**
 * The examples (examples/), as an integrator runs them: lib/oidc and examples/ copied into a
 * blank NodeNext project with only what they need installed, compiled with tsc, and run with
 * Node against the strict emulator (EMULATOR_STRICT=on: it refuses whatever the spec does not list
 * or shape), where their client `example-rp` is registered (e2e/servers.ts; playwright.config.ts hands its
 * keys over in E2E_EXAMPLE_CLIENT_KEYS). examples/openid-client/ has a client of its own,
 * `openid-client-rp`, with an EdDSA signing key (E2E_OPENID_CLIENT_KEYS). The deliberately broken
 * relying party (test/support/broken-relying-party.ts, compiled in the same project) is
 * `broken-nonce-rp` (E2E_BROKEN_RP_CLIENT_KEYS).
 *
 * Each Express app's tests arm the strict emulator's faults for that app's client alone (the
 * provider-mode specs may use the same emulator, in the same worker, meanwhile).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect, request, test, type APIRequestContext, type Page } from '@playwright/test';
import { createBlankProject, type BlankProject } from '../test/support/blank-project';
import { decideInEmulatedApp, signInToPanel } from './flows';
import { BROKEN_RELYING_PARTY_APP, EXAMPLE_APPS, OPENID_CLIENT_EXAMPLE_APP, STRICT_EMULATOR_APP, needServers } from './servers';

const ISSUER = `${STRICT_EMULATOR_APP}/emulator`;
const [EXPRESS_APP, CLI_REDIRECT] = EXAMPLE_APPS;
let project: BlankProject;
needServers('strictEmulator');

/** Where playwright.config.ts hands over each client's private keys. */
const CLIENT_KEYS = {
  'example-rp': 'E2E_EXAMPLE_CLIENT_KEYS',
  'openid-client-rp': 'E2E_OPENID_CLIENT_KEYS',
  'broken-nonce-rp': 'E2E_BROKEN_RP_CLIENT_KEYS',
} as const;
type ClientId = keyof typeof CLIENT_KEYS;

function exampleEnvironment(client: ClientId = 'example-rp'): Record<string, string> {
  const variable = CLIENT_KEYS[client];
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
  project = createBlankProject({ examples: true, brokenRelyingParty: true });
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

/**
 * Starts one of the compiled Express apps, as an integrator would (the environment of its header
 * comment and PORT), once it prints that it listens.
 */
async function startServer(script: string, client: ClientId, app: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [join(project.dir, script)], {
    env: { ...process.env, ...exampleEnvironment(client), PORT: new URL(app).port, SESSION_SECRET: randomBytes(32).toString('base64url') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.once('data', () => resolve());
    server.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
  return server;
}

/** Stops a server started by startServer, and waits until it has let go of its port. */
async function stopServer(server: ChildProcess | undefined): Promise<void> {
  if (!server || server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/** Arms one fault of the strict emulator's QA panel for `client`'s next matching response. */
async function armFault(panel: APIRequestContext, fault: string, client: ClientId): Promise<void> {
  const armed = await panel.post(`${STRICT_EMULATOR_APP}/emulator/panel`, { form: { action: 'arm_fault', fault, client_id: client }, maxRedirects: 0 });
  expect(armed.status()).toBe(303);
}

/** From the app's home page: its start button, then Ingrid Solberg Haugen approves in the emulated identity app. */
async function verifyIngrid(page: Page, app: string): Promise<void> {
  await page.goto(`${app}/`);
  await page.getByRole('button', { name: 'Verify my identity' }).click();
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  await expect(page).toHaveURL(new RegExp(`^${app}/callback\\?`));
}

/** The portrait is shown, as the base64 JPEG data URI of spec 2.3, and the browser decoded it. */
async function expectPortrait(page: Page): Promise<void> {
  const portrait = page.getByTestId('portrait');
  await expect(portrait).toHaveAttribute('src', /^data:image\/jpeg;base64,[A-Za-z0-9+/]+={0,2}$/);
  expect(await portrait.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
}

/**
 * The `picture_not_image` fault: the token is accepted (the given name is shown) but its remote
 * `picture` is neither shown nor fetched, nor even written into the page.
 */
async function expectRemotePictureIgnored(page: Page, app: string, givenName: string): Promise<void> {
  const requested: string[] = [];
  page.on('request', (sent) => requested.push(sent.url()));
  await verifyIngrid(page, app);
  await expect(page.getByTestId('given-name')).toHaveText(givenName);
  await expect(page.locator('img')).toHaveCount(0);
  expect(await page.content()).not.toContain('portrait.invalid');
  expect(requested.filter((url) => url.includes('portrait.invalid'))).toEqual([]);
}

/** A fault at PAR: the start button answers the refusal page itself, 400 (never 5xx), with the code. */
async function expectParRefused(page: Page, app: string, code: string): Promise<void> {
  await page.goto(`${app}/`);
  const [login] = await Promise.all([
    page.waitForResponse((response) => response.url() === `${app}/login`),
    page.getByRole('button', { name: 'Verify my identity' }).click(),
  ]);
  expect(login.status()).toBe(400);
  await expect(page.getByTestId('error-code')).toHaveText(code);
}

/**
 * The `token_timeout` fault holds the token response 15 s: the app gives up before, says so on
 * its refusal page (400), and shows no name.
 */
async function expectTokenTimeout(page: Page, app: string, code: string): Promise<void> {
  await page.goto(`${app}/`);
  await page.getByRole('button', { name: 'Verify my identity' }).click();
  const started = Date.now();
  const callback = page.waitForResponse((response) => response.url().startsWith(`${app}/callback?`), { timeout: 20_000 });
  await decideInEmulatedApp(page, 'ingrid-haugen', 'approve');
  expect((await callback).status()).toBe(400);
  expect(Date.now() - started).toBeLessThan(15_000);
  await expect(page.getByTestId('error-code')).toHaveText(code);
  await expect(page.getByText('did not answer in time')).toBeVisible();
  await expect(page.getByText('Ingrid')).toHaveCount(0);
}

let panel: APIRequestContext;

test.beforeAll(async () => {
  panel = await request.newContext();
  await signInToPanel(panel, STRICT_EMULATOR_APP);
});

test.afterAll(async () => panel?.dispose());

test.describe('examples/express-server.ts: the two routes and a session', () => {
  let server: ChildProcess | undefined;

  test.beforeAll(async () => {
    server = await startServer('dist/examples/express-server.js', 'example-rp', EXPRESS_APP!);
  });

  test.afterAll(() => stopServer(server));

  test('a whole verification in a browser shows the verified name and the portrait', async ({ page }) => {
    await verifyIngrid(page, EXPRESS_APP!);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verified: Ingrid Solberg Haugen');
    await expect(page.getByTestId('given-name')).toHaveText('Ingrid Solberg');
    await expectPortrait(page);
    // The pending authorization was used up: the same callback again is refused.
    await page.reload();
    await expect(page.getByTestId('error-code')).toHaveText('state_mismatch');
  });

  test('a picture that is a remote URL is neither shown nor fetched; the rest of the token is', async ({ page }) => {
    await armFault(panel, 'picture_not_image', 'example-rp');
    await expectRemotePictureIgnored(page, EXPRESS_APP!, 'Ingrid Solberg');
  });

  test('a PAR error ends on the refusal page', async ({ page }) => {
    await armFault(panel, 'par_server_error', 'example-rp');
    await expectParRefused(page, EXPRESS_APP!, 'server_error');
  });

  test('a token endpoint that does not answer is given up after 10 s', async ({ page }) => {
    await armFault(panel, 'token_timeout', 'example-rp');
    await expectTokenTimeout(page, EXPRESS_APP!, 'timeout');
  });
});

test.describe('examples/openid-client: openid-client v6 adapted to the service', () => {
  let server: ChildProcess | undefined;

  // It listens only after discovery, so this also proves discovery against the strict emulator.
  test.beforeAll(async () => {
    server = await startServer('dist/examples/openid-client/server.js', 'openid-client-rp', OPENID_CLIENT_EXAMPLE_APP);
  });

  test.afterAll(() => stopServer(server));

  test('a whole verification in a browser: an EdDSA client assertion, PAR with a signed request object, an encrypted ID token; its page shows the given name and the portrait', async ({
    page,
  }) => {
    await verifyIngrid(page, OPENID_CLIENT_EXAMPLE_APP);
    await expect(page.getByTestId('given-name')).toHaveText('Ingrid Solberg');
    await expectPortrait(page);
    // The pending authorization was used up: the same callback again is refused.
    await page.reload();
    await expect(page.getByTestId('error-code')).toHaveText('no_pending_authorization');
  });

  // The checks of spec 2.5 and 4.5 that openid-client does not make itself, made by the example.
  for (const [fault, code] of [
    ['unencrypted', 'id_token_not_encrypted'],
    ['issued_in_future', 'id_token_issued_in_future'],
    ['extra_audience', 'id_token_audience_mismatch'],
  ] as const) {
    test(`the ${fault} fault, armed for its client, is refused with ${code}`, async ({ page }) => {
      await armFault(panel, fault, 'openid-client-rp');
      await verifyIngrid(page, OPENID_CLIENT_EXAMPLE_APP);
      await expect(page.getByTestId('error-code')).toHaveText(code);
      await expect(page.getByText('Ingrid')).toHaveCount(0);
    });
  }

  // Spec 2.5 shows RSA-OAEP-256 / A256GCM only as an example; its SHA-1 sibling needs a key of its own in Web Crypto.
  test('an ID token encrypted with RSA-OAEP / A128CBC-HS256 is accepted', async ({ page }) => {
    await armFault(panel, 'encrypted_rsa_oaep_a128cbc_hs256', 'openid-client-rp');
    await verifyIngrid(page, OPENID_CLIENT_EXAMPLE_APP);
    await expect(page.getByTestId('given-name')).toHaveText('Ingrid Solberg');
  });

  test('a picture that is a remote URL is neither shown nor fetched; the rest of the token is', async ({ page }) => {
    await armFault(panel, 'picture_not_image', 'openid-client-rp');
    await expectRemotePictureIgnored(page, OPENID_CLIENT_EXAMPLE_APP, 'Ingrid Solberg');
  });

  // openid-client reads the OAuth error body of a 4xx only; a 5xx is refused by its status alone.
  for (const [fault, code] of [
    ['par_invalid_request', 'invalid_request'],
    ['par_temporarily_unavailable', 'OAUTH_RESPONSE_IS_NOT_CONFORM'],
  ] as const) {
    test(`the ${fault} fault at PAR ends on the refusal page with ${code}`, async ({ page }) => {
      await armFault(panel, fault, 'openid-client-rp');
      await expectParRefused(page, OPENID_CLIENT_EXAMPLE_APP, code);
    });
  }

  test('a token endpoint that does not answer is given up after 10 s (openid-client would wait 30)', async ({ page }) => {
    await armFault(panel, 'token_timeout', 'openid-client-rp');
    await expectTokenTimeout(page, OPENID_CLIENT_EXAMPLE_APP, 'OAUTH_TIMEOUT');
  });
});

test.describe('test/support/broken-relying-party.ts: the express example without its nonce check', () => {
  let broken: ChildProcess | undefined;
  let express: ChildProcess | undefined;

  test.beforeAll(async () => {
    broken = await startServer('dist/test/support/broken-relying-party.js', 'broken-nonce-rp', BROKEN_RELYING_PARTY_APP);
    express = await startServer('dist/examples/express-server.js', 'example-rp', EXPRESS_APP!);
  });

  test.afterAll(() => Promise.all([stopServer(broken), stopServer(express)]));

  test('a whole verification shows the given name and the portrait, as the express example does', async ({ page }) => {
    await verifyIngrid(page, BROKEN_RELYING_PARTY_APP);
    await expect(page.getByTestId('given-name')).toHaveText('Ingrid Solberg');
    await expectPortrait(page);
  });

  test('its defect is real: it accepts an ID token with a wrong nonce, which the express example refuses', async ({ page }) => {
    await armFault(panel, 'wrong_nonce', 'broken-nonce-rp');
    await verifyIngrid(page, BROKEN_RELYING_PARTY_APP);
    await expect(page.getByTestId('given-name')).toHaveText('Ingrid Solberg');

    await armFault(panel, 'wrong_nonce', 'example-rp');
    await verifyIngrid(page, EXPRESS_APP!);
    await expect(page.getByTestId('error-code')).toHaveText('id_token_nonce_mismatch');
    await expect(page.getByText('Ingrid')).toHaveCount(0);
  });

  test('otherwise it checks what the express example checks: a wrong issuer is refused', async ({ page }) => {
    await armFault(panel, 'wrong_issuer', 'broken-nonce-rp');
    await verifyIngrid(page, BROKEN_RELYING_PARTY_APP);
    await expect(page.getByTestId('error-code')).toHaveText('id_token_issuer_mismatch');
  });
});
