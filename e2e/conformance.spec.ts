/**
 * The conformance kit (`npm run conformance`, conformance/), proven as an integrator runs it: the
 * commands its README prints (and the top README's, which is the same), run through npm in a
 * shell, against
 * - this app (emulator mode, as `npm start` runs it): every case passes;
 * - examples/express-server.ts and examples/openid-client/, each started by the kit beside an
 *   emulator of the kit's own: every case passes;
 * - test/support/broken-relying-party.ts, which skips the nonce check: the kit flags exactly the
 *   nonce cases, by name, and exits 1.
 * And what a shared emulator needs: two runs at once give the verdicts one gives, and per-flow
 * cases spoil no ordinary verification beside them. A production build carries no Playwright.
 *
 * What a command says is kept; only what cannot be fixed in a test changes: ports (free ones),
 * file names (a test's own folder), the panel's password (a production build needs one) and the
 * report folder.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { CASES } from '../conformance/cases';
import { verify } from '../scripts/container/verification';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';

test.describe.configure({ mode: 'parallel' });

const ROOT = join(import.meta.dirname, '..');
const PANEL_PASSWORD = randomBytes(18).toString('base64url');
const PER_FLOW_CASES = CASES.filter((testCase) => !testCase.clientWide).length;

const cleanups: (() => Promise<void> | void)[] = [];
test.afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The shell commands of a README's `sh` blocks that run the kit or make its keys. */
function printedCommands(readme: string): string[] {
  const blocks = [...readFileSync(join(ROOT, readme), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.flatMap((block) => block.split('\n')).filter((line) => /^npm run (-s keys|conformance) /.test(line));
}

const KIT_README = printedCommands('conformance/README.md');

/** The kit README's command whose text contains `marker`, and the keys command just before it. */
function commandsFor(marker: string): { keys?: string; kit: string } {
  const index = KIT_README.findIndex((line) => line.startsWith('npm run conformance ') && line.includes(marker));
  expect(index, `conformance/README.md prints a command with ${marker}`).toBeGreaterThanOrEqual(0);
  const before = KIT_README[index - 1];
  return { kit: KIT_README[index]!, ...(before?.startsWith('npm run -s keys') ? { keys: before } : {}) };
}

/** This app in emulator mode, as `npm start` runs it, on a free port, its panel behind a password. */
async function startApp(): Promise<{ app: string; emulator: string }> {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-conformance-'));
  const server: AppServer = startAppServer(port, {
    APP_URL: app,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: dataDir,
    EMULATOR_PANEL_PASSWORD: PANEL_PASSWORD,
    // As the kit's README starts it: a run starts about a verification a second from one address.
    IDV_START_LIMIT_PER_ADDRESS: '600',
  });
  cleanups.push(async () => {
    server.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
  await expect.poll(async () => (await fetch(`${app}/readyz`).catch(() => undefined))?.status, { timeout: 30_000, message: server.output() }).toBe(200);
  return { app, emulator: `${app}/emulator` };
}

interface KitRun {
  status: number | null;
  stdout: string;
  junit: string;
  html: string;
  outDir: string;
}

/** A folder of the test's own, removed after it. */
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs a command line through a shell in the repository, as a person types it. */
async function shell(commandLine: string, env: Record<string, string> = {}): Promise<{ status: number | null; output: string }> {
  const child = spawn(commandLine, { shell: true, cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { status, output };
}

/** Runs a printed kit command with its report in a folder of the test's own. */
async function runKit(commandLine: string, env: Record<string, string> = {}): Promise<KitRun> {
  const outDir = folder('idv-conformance-report-');
  const { status, output } = await shell(`${commandLine} --out ${outDir}`, env);
  const read = (file: string) => (existsSync(join(outDir, file)) ? readFileSync(join(outDir, file), 'utf8') : '');
  return { status, stdout: output, junit: read('junit.xml'), html: read('index.html'), outDir };
}

/** The ids of the JUnit test cases with a `<failure>` (or, with `element`, another child). */
function casesWith(junit: string, element: 'failure' | 'error' | 'skipped'): string[] {
  return [...junit.matchAll(/<testcase [^>]*name="([a-z0-9_]+):[^"]*"[^>]*>\s*<(failure|error|skipped)\b/g)]
    .filter((match) => match[2] === element)
    .map((match) => match[1]!);
}

/** Each case's verdict, by id, from the HTML report. */
function verdicts(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/data-case="([a-z0-9_]+)" data-verdict="([a-z_]+)"/g)].map((match) => [match[1]!, match[2]!]));
}

/** Every case passed: the command said so, exited 0, and the reports agree. */
function expectEveryCasePassed(run: KitRun, count = CASES.length): void {
  expect(run.stdout).toContain(`${count} passed, 0 failed, 0 could not be decided, 0 did not apply, of ${count} cases`);
  expect(run.status, run.stdout).toBe(0);
  expect(run.junit).toContain(`tests="${count}" failures="0" errors="0" skipped="0"`);
  expect(run.junit.match(/<testcase /g)).toHaveLength(count);
  expect(run.html.match(/data-verdict="pass"/g)).toHaveLength(count);
  const screenshots = readdirSync(run.outDir).filter((file) => file.endsWith('.png'));
  expect(screenshots).toHaveLength(count);
}

/** A printed command for the kit's own emulator, on free ports: the relying party's and the emulator's. */
async function withFreePorts(commandLine: string): Promise<{ command: string; env: Record<string, string> }> {
  const [rpPort, emulatorPort] = [await freePort(), await freePort()];
  return { command: `${commandLine.replaceAll('127.0.0.1:8000', `127.0.0.1:${rpPort}`)} --emulator-port ${emulatorPort}`, env: { PORT: String(rpPort) } };
}

/** Makes the keys the printed keys command makes, in a folder of the test's own; the kit command then reads them there. */
async function printedKeys(keysCommand: string, kitCommand: string): Promise<string> {
  const file = /> (\S+)$/.exec(keysCommand)![1]!;
  const path = join(folder('idv-conformance-keys-'), file);
  const made = await shell(keysCommand.replace(`> ${file}`, `> ${path}`));
  expect(made.status, made.output).toBe(0);
  expect(kitCommand).toContain(`--client-jwks ${file} `);
  return kitCommand.replace(`--client-jwks ${file} `, `--client-jwks ${path} `);
}

test('the top README and the kit’s README print the same command against this app', () => {
  const top = printedCommands('README.md').filter((line) => line.startsWith('npm run conformance '));
  expect(top).toHaveLength(1);
  expect(commandsFor('--emulator http://localhost:3000/emulator').kit).toBe(top[0]);
});

test('this app, in emulator mode as npm start runs it, passes every case with the command the READMEs print', async () => {
  test.setTimeout(6 * 60_000);
  const { app } = await startApp();
  const { kit } = commandsFor('--emulator http://localhost:3000/emulator');
  const run = await runKit(`${kit.replaceAll('http://localhost:3000', app)} --panel-password ${PANEL_PASSWORD}`);
  expectEveryCasePassed(run);
  // Each verdict is the kit's own: the refusals ended on the app's failure page with the core's code.
  expect(run.html).toMatch(/id="case-wrong_nonce"[\s\S]*?failure\?code=id_token_nonce_mismatch/);
  expect(run.html).toMatch(/id="case-alg_none"[\s\S]*?failure\?code=id_token_unsupported_algorithm/);
  // It found the app's start control by itself: the home page's first submit button is a preset.
  expect(run.stdout).not.toContain('--start-selector');
});

// The client-wide cases against the Express example are run by the container test (npm run
// test:container: every case, with the image's command); here its per-flow ones, which need no
// wait for the relying party's JWKS refetch cool-down.
test('examples/express-server.ts passes every per-flow case with the command the kit’s README prints, beside the kit’s own emulator', async () => {
  test.setTimeout(6 * 60_000);
  const printed = commandsFor('examples/express-server.ts');
  const { command, env } = await withFreePorts(await printedKeys(printed.keys!, `${printed.kit} --no-client-wide`));
  const run = await runKit(command, env);
  expectEveryCasePassed(run, PER_FLOW_CASES);
  expect(run.stdout).toMatch(/^Emulator: http:\/\/127\.0\.0\.1:\d+, the kit's own, with client 'example-rp'/m);
});

test('examples/openid-client/ passes every case with the command the kit’s README prints, beside the kit’s own emulator', async () => {
  test.setTimeout(8 * 60_000);
  const printed = commandsFor('examples/openid-client/server.ts');
  const { command, env } = await withFreePorts(await printedKeys(printed.keys!, printed.kit));
  expectEveryCasePassed(await runKit(command, env));
});

test('a relying party that skips the nonce check is flagged on the nonce cases, by name, and the command exits 1', async () => {
  test.setTimeout(6 * 60_000);
  // The Express example's command, with the broken relying party in its place; its per-flow cases
  // (the client-wide ones test nothing of the nonce).
  const printed = commandsFor('examples/express-server.ts');
  const kit = `${printed.kit.replace('examples/express-server.ts', 'test/support/broken-relying-party.ts').replaceAll('example-rp', 'broken-nonce-rp')} --no-client-wide`;
  const { command, env } = await withFreePorts(await printedKeys(printed.keys!.replace('example-rp', 'broken-nonce-rp'), kit));
  const run = await runKit(command, env);
  expect(run.status, run.stdout).toBe(1);
  expect(casesWith(run.junit, 'failure')).toEqual(['wrong_nonce', 'missing_nonce']);
  expect(casesWith(run.junit, 'error')).toEqual([]);
  expect(run.stdout).toMatch(/^FAIL +wrong_nonce +refuse/m);
  expect(run.stdout).toMatch(
    /^ {2}wrong_nonce \(FAIL\): Accepted what it must refuse: the given name of the spoiled ID token appears on http:\/\/127\.0\.0\.1:\d+\/callback/m,
  );
  expect(run.stdout).toContain(`${PER_FLOW_CASES - 2} passed, 2 failed, 0 could not be decided, 0 did not apply`);
  expect(run.html).toContain('data-case="missing_nonce" data-verdict="fail"');
});

test('two runs at once on one emulator give the verdicts one run gives: the second waits for the first’s run lock', async () => {
  test.setTimeout(5 * 60_000);
  const { app, emulator } = await startApp();
  // Per-flow cases and client-wide ones: PAR faults, armed for the whole client, which would spoil
  // the other run's flows were the runs not one after the other. (A key rotation, client-wide for
  // every client, takes the same lock; it would add the relying party's JWKS cool-down twice.)
  const kit = `npm run conformance -- --emulator ${emulator} --client-id demo-relying-party --start-url ${app}/ --panel-password ${PANEL_PASSWORD} --cases wrong_nonce,aud_array,par_invalid_client,par_server_error`;
  const [first, second] = await Promise.all([runKit(kit), runKit(kit)]);
  for (const run of [first, second]) expectEveryCasePassed(run, 6);
  expect(verdicts(first.html)).toEqual(verdicts(second.html));
  expect(`${first.stdout}\n${second.stdout}`).toContain('for another conformance run on this emulator to end');
});

test('per-flow cases spoil no ordinary verification of the same client beside them', async () => {
  test.setTimeout(5 * 60_000);
  const { app, emulator } = await startApp();
  const kit = runKit(
    `npm run conformance -- --emulator ${emulator} --client-id demo-relying-party --start-url ${app}/ --panel-password ${PANEL_PASSWORD} --no-client-wide`,
  );
  let done = false;
  void kit.finally(() => (done = true));
  const people: string[] = [];
  // Ordinary verifications, two at a time, each pair a second apart (within the app's start
  // limits beside the kit's), for as long as the kit runs.
  await Promise.all(
    [0, 1].map(async () => {
      while (!done) {
        people.push((await verify(app)).person);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }),
  );
  expectEveryCasePassed(await kit, PER_FLOW_CASES);
  expect(people.length).toBeGreaterThanOrEqual(10);
  expect(new Set(people)).toEqual(new Set(['Ingrid Solberg Haugen']));
});

test('a production build carries no Playwright: the server never loads the kit', () => {
  const standalone = join(ROOT, '.next/standalone');
  expect(existsSync(join(standalone, 'server.js')), 'run `npm run build` first').toBe(true);
  expect(existsSync(join(standalone, 'node_modules/playwright-core'))).toBe(false);
  const serverChunks = join(standalone, '.next/server');
  const mentions = readdirSync(serverChunks, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .filter((file) => readFileSync(join(serverChunks, file), 'utf8').includes('playwright-core'));
  expect(mentions).toEqual([]);
});
