/**
 * `npm run doctor` beside a running app (the built one, started here): it asks that app for its
 * own findings and says which app it asked, so what it prints is that app's configuration, keys
 * and service, whatever the shell it runs in holds; once nothing listens, it fails and says how
 * to start the app. No browser.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';
import { clientKeys } from './servers';

/** `npm run doctor -- …args` in a shell holding only `env` of the app's variables. */
function doctor(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(IDV_|EMULATOR_|APP_URL|PORT|REDIS_URL|SESSION_SECRET|NODE_ENV)/.test(name)),
  );
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', 'doctor', ...(args.length > 0 ? ['--', ...args] : [])],
      { env: { ...clean, NODE_ENV: 'development', ...env }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** Waits until the app is ready (GET /readyz). */
async function ready(server: AppServer, app: string): Promise<void> {
  await expect
    .poll(
      async () => {
        if (!server.running()) throw new Error(`the app exited:\n${server.output()}`);
        return fetch(`${app}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 60_000 },
    )
    .toBe(200);
}

const servers: AppServer[] = [];
test.afterAll(() => servers.forEach((server) => server.running() && server.kill('SIGTERM')));

test('asks the running app for its own findings: its configuration, its keys and its emulator’s JWKS; fails once nothing listens there', async () => {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const keys = clientKeys('ES256', 'doctor-command');
  const sessionSecret = randomBytes(32).toString('base64url');
  const server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-doctor-command',
    SESSION_SECRET: sessionSecret,
    IDV_SIGNING_KEY: JSON.stringify(keys.signingJwk),
    IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionJwk),
  });
  servers.push(server);
  await ready(server, app);

  // The shell has the app's address only: the keys printed can only be the running app's.
  const run = await doctor({ APP_URL: app });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain(`The app at ${app}, as it runs: its own findings (${app}/doctor/findings, at most 15 seconds old).`);
  expect(run.stdout).toMatch(new RegExp(`^PASS {2}Configuration valid: emulator mode, issuer ${app}/emulator, client demo-relying-party$`, 'm'));
  expect(run.stdout).toMatch(/^PASS {2}Our signing key: ES256, kid doctor-command-sig/m);
  expect(run.stdout).not.toMatch(/^(FAIL|WARN) /m);
  const emulatorKids = ((await (await fetch(`${app}/emulator/jwks`)).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
  const jwksLine = run.stdout.split('\n').find((line) => line.startsWith('PASS  An ES256 signing key with a kid: '));
  expect(jwksLine, run.stdout).toBeDefined();
  for (const kid of emulatorKids) expect(jwksLine).toContain(kid);
  const printedJwks = JSON.parse(run.stdout.slice(run.stdout.indexOf('{\n  "keys"'), run.stdout.indexOf('\n}\n') + 2)) as { keys: Record<string, unknown>[] };
  expect(printedJwks).toEqual(keys.publicJwks);

  // What the app gives anyone who asks: no private key, no secret, nothing kept by a cache.
  const findings = await fetch(`${app}/doctor/findings`);
  expect(findings.headers.get('cache-control')).toBe('no-store');
  const published = await findings.text();
  for (const secret of [keys.signingJwk.d!, keys.encryptionJwk.d!, keys.encryptionJwk.p!, sessionSecret]) expect(published).not.toContain(secret);

  // The case: the app stopped, nothing listens at its address any more.
  server.kill('SIGTERM');
  await server.exited;
  const stopped = await doctor({ APP_URL: app });
  expect(stopped.status).toBe(1);
  expect(stopped.stdout).not.toMatch(/^PASS /m);
  expect(stopped.stderr).toContain(`doctor: Nothing answers at ${app} (connection refused: nothing listens there).`);
  expect(stopped.stderr).toContain('start the app with the same variables (npm run dev, or npm start after npm run build)');
});

test('--url: the app given, in provider mode, whatever the shell’s own variables say; its service unreachable fails in Norwegian with --lang nb', async () => {
  const [port, servicePort, elsewhere] = [await freePort(), await freePort(), await freePort()];
  const app = `http://127.0.0.1:${port}`;
  const service = `http://127.0.0.1:${servicePort}`;
  const server = startAppServer(port, {
    APP_URL: app,
    IDV_DATA_DIR: '.data/e2e-doctor-command-provider',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_BASE_URL: service,
    IDV_CLIENT_ID: 'doctor-rp',
  });
  servers.push(server);
  await ready(server, app);

  // This shell's own APP_URL points elsewhere, and it has no IDV_BASE_URL (emulator mode, were it read).
  const run = await doctor({ APP_URL: `http://127.0.0.1:${elsewhere}` }, '--url', app, '--lang', 'nb');
  expect(run.status).toBe(1);
  expect(run.stdout).toContain(`Appen på ${app}, slik den kjører: dens egne funn (${app}/doctor/findings, høyst 15 sekunder gamle).`);
  expect(run.stdout).toMatch(new RegExp(`^OK {8}Konfigurasjonen er gyldig: provider-modus, utsteder ${service}, klient doctor-rp$`, 'm'));
  expect(run.stdout).toMatch(/^FEIL {6}Discovery-dokument: /m);
  expect(run.stdout).toContain(`Ingenting tar imot tilkoblinger på 127.0.0.1:${servicePort}`);
  // Provider mode prints no variables for staging: the app runs with its own.
  expect(run.stdout).not.toContain('Variablene for staging');
});
