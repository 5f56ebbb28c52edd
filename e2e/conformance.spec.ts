/**
 * The conformance kit (`npm run conformance`, conformance/), proven as an integrator runs it:
 * the command itself, in Chromium, against four relying parties, each registered with an emulator
 * of its own (the key-rotation cases rotate an emulator's signing keys for everyone on it, so no
 * other spec's relying party shares one):
 * - this app (emulator mode, as `npm start` runs it): every case passes;
 * - examples/express-server.ts and examples/openid-client/, compiled in a blank project as the
 *   examples spec does: every case passes;
 * - test/support/broken-relying-party.ts, which skips the nonce check: the kit flags exactly the
 *   nonce cases, by name, and exits 1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CASES } from '../conformance/cases';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
import { createBlankProject, type BlankProject } from '../test/support/blank-project';

test.describe.configure({ mode: 'parallel' });

const PANEL_PASSWORD = randomBytes(18).toString('base64url');

interface ClientKeys {
  signingJwk: object;
  encryptionJwk: object;
  publicJwks: object;
}

function clientKeys(variable: 'E2E_EXAMPLE_CLIENT_KEYS' | 'E2E_OPENID_CLIENT_KEYS' | 'E2E_BROKEN_RP_CLIENT_KEYS'): ClientKeys {
  const keys = JSON.parse(process.env[variable] ?? 'null') as ClientKeys | null;
  if (!keys) throw new Error(`${variable} is not set: run the e2e tests through playwright.config.ts`);
  return keys;
}

let project: BlankProject | undefined;

/** The examples and the broken relying party, compiled once per worker. */
function compiled(): BlankProject {
  if (!project) {
    project = createBlankProject({ examples: true, brokenRelyingParty: true });
    const { status, output } = project.compile();
    expect(output).toBe('');
    expect(status).toBe(0);
  }
  return project;
}

const cleanups: (() => Promise<void> | void)[] = [];
test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
test.afterAll(() => project?.remove());

/** An emulator-mode app of its own, on a free port, with `clients` registered and the panel behind a password. */
async function startEmulator(clients: object[] = []): Promise<{ app: string; emulator: string }> {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-conformance-'));
  const server: AppServer = startAppServer(port, {
    APP_URL: app,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: dataDir,
    EMULATOR_PANEL_PASSWORD: PANEL_PASSWORD,
    ...(clients.length > 0 ? { EMULATOR_CLIENTS: JSON.stringify(clients) } : {}),
  });
  cleanups.push(async () => {
    server.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  await expect.poll(async () => (await fetch(`${app}/readyz`).catch(() => undefined))?.status, { timeout: 30_000, message: server.output() }).toBe(200);
  return { app, emulator: `${app}/emulator` };
}

/** A compiled relying party (examples/ or the broken one) on a free port, once it says it listens. */
async function startRelyingParty(script: string, clientId: string, keys: ClientKeys, emulator: string, port: number): Promise<void> {
  const server: ChildProcess = spawn(process.execPath, [join(compiled().dir, script)], {
    env: {
      ...process.env,
      IDV_BASE_URL: emulator,
      IDV_CLIENT_ID: clientId,
      IDV_SIGNING_KEY: JSON.stringify(keys.signingJwk),
      IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionJwk),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.once('data', () => resolve());
    server.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
  });
}

/** A relying party registered with a fresh emulator, and started against it. */
async function registeredRelyingParty(script: string, clientId: string, keys: ClientKeys): Promise<{ emulator: string; startUrl: string }> {
  const port = await freePort();
  const rp = `http://127.0.0.1:${port}`;
  const { emulator } = await startEmulator([{ client_id: clientId, name: `${clientId} (conformance kit test)`, jwks: keys.publicJwks, redirect_uris: [`${rp}/callback`], population_register: false }]);
  await startRelyingParty(script, clientId, keys, emulator, port);
  return { emulator, startUrl: `${rp}/` };
}

interface KitRun {
  status: number | null;
  stdout: string;
  junit: string;
  html: string;
  outDir: string;
}

/** `npm run conformance -- …` as a person types it (the same script, through tsx), with its reports. */
async function runKit(args: string[]): Promise<KitRun> {
  const outDir = mkdtempSync(join(tmpdir(), 'idv-conformance-report-'));
  cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'conformance/cli.ts', ...args, '--panel-password', PANEL_PASSWORD, '--out', outDir], {
    env: { ...process.env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const read = (file: string) => (existsSync(join(outDir, file)) ? readFileSync(join(outDir, file), 'utf8') : '');
  return { status, stdout, junit: read('junit.xml'), html: read('index.html'), outDir };
}

/** The ids of the JUnit test cases with a `<failure>` (or, with `element`, another child). */
function casesWith(junit: string, element: 'failure' | 'error' | 'skipped'): string[] {
  return [...junit.matchAll(/<testcase [^>]*name="([a-z0-9_]+):[^"]*"[^>]*>\s*<(failure|error|skipped)\b/g)].filter((match) => match[2] === element).map((match) => match[1]!);
}

/** Every case passed: the command said so, exited 0, and the reports agree. */
function expectEveryCasePassed(run: KitRun): void {
  expect(run.stdout).toContain(`${CASES.length} passed, 0 failed, 0 could not be decided, 0 did not apply, of ${CASES.length} cases`);
  expect(run.status, run.stdout).toBe(0);
  expect(run.junit).toContain(`tests="${CASES.length}" failures="0" errors="0" skipped="0"`);
  expect(run.junit.match(/<testcase /g)).toHaveLength(CASES.length);
  expect(run.html.match(/data-verdict="pass"/g)).toHaveLength(CASES.length);
  for (const testCase of CASES) expect(existsSync(join(run.outDir, `${testCase.id}.png`)), testCase.id).toBe(true);
}

test('this app, in emulator mode as npm start runs it, passes every case of the kit', async () => {
  test.setTimeout(8 * 60_000);
  const { app, emulator } = await startEmulator();
  const run = await runKit(['--client-id', 'demo-relying-party', '--start-url', `${app}/`, '--start-selector', '[data-testid="start"]', '--emulator', emulator, '--jwks-cooldown', '30']);
  expectEveryCasePassed(run);
  // Each verdict is the kit's own: the refusals ended on the app's failure page with the core's code.
  expect(run.html).toMatch(/id="case-wrong_nonce"[\s\S]*?failure\?code=id_token_nonce_mismatch/);
  expect(run.html).toMatch(/id="case-alg_none"[\s\S]*?failure\?code=id_token_unsupported_algorithm/);
});

test('examples/express-server.ts passes every case of the kit', async () => {
  test.setTimeout(8 * 60_000);
  const { emulator, startUrl } = await registeredRelyingParty('dist/examples/express-server.js', 'example-rp', clientKeys('E2E_EXAMPLE_CLIENT_KEYS'));
  expectEveryCasePassed(await runKit(['--client-id', 'example-rp', '--start-url', startUrl, '--emulator', emulator, '--jwks-cooldown', '30']));
});

test('examples/openid-client/ passes every case of the kit', async () => {
  test.setTimeout(10 * 60_000);
  const { emulator, startUrl } = await registeredRelyingParty('dist/examples/openid-client/server.js', 'openid-client-rp', clientKeys('E2E_OPENID_CLIENT_KEYS'));
  // openid-client fetches the JWKS again for an unknown kid 60 s after its last fetch: the kit's default.
  expectEveryCasePassed(await runKit(['--client-id', 'openid-client-rp', '--start-url', startUrl, '--emulator', emulator]));
});

test('a relying party that skips the nonce check is flagged on the nonce cases, by name, and the command exits 1', async () => {
  test.setTimeout(8 * 60_000);
  const { emulator, startUrl } = await registeredRelyingParty('dist/test/support/broken-relying-party.js', 'broken-nonce-rp', clientKeys('E2E_BROKEN_RP_CLIENT_KEYS'));
  const run = await runKit(['--client-id', 'broken-nonce-rp', '--start-url', startUrl, '--emulator', emulator, '--jwks-cooldown', '30']);
  expect(run.status, run.stdout).toBe(1);
  expect(casesWith(run.junit, 'failure')).toEqual(['wrong_nonce', 'missing_nonce']);
  expect(casesWith(run.junit, 'error')).toEqual([]);
  expect(run.stdout).toMatch(/^FAIL +wrong_nonce +refuse/m);
  expect(run.stdout).toMatch(/^ {2}wrong_nonce \(FAIL\): Accepted what it must refuse: the given name of the spoiled ID token appears on http:\/\/127\.0\.0\.1:\d+\/callback/m);
  expect(run.stdout).toContain(`${CASES.length - 2} passed, 2 failed, 0 could not be decided, 0 did not apply`);
  expect(run.html).toContain('data-case="missing_nonce" data-verdict="fail"');
});
