/**
 * The runner's schedule, against a real relying party (examples/express-server.ts, run by tsx)
 * and the kit's own emulator, in Chromium: per-flow cases side by side, client-wide ones alone
 * after them, and one run at a time per emulator. No build needed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKeys } from '../test/support/client-keys';
import { freePort } from '../test/support/app-server';
import { selectCases } from './cases';
import { registeredClient, startEmulatorServer, type EmulatorServer } from './emulator-server';
import { runConformance, type RunOptions } from './runner';
import type { CaseResult } from './run-case';

const ROOT = resolve(import.meta.dirname, '..');
const keys = clientKeys('runner-rp');
let emulator: EmulatorServer;
let relyingParty: ChildProcess;
let startUrl: string;
const outDir = mkdtempSync(join(tmpdir(), 'kit-runner-'));

beforeAll(async () => {
  const port = await freePort();
  startUrl = `http://127.0.0.1:${port}/`;
  emulator = await startEmulatorServer({
    client: registeredClient({ clientId: 'runner-rp', keys: { jwks: keys.jwks }, redirectUris: [`http://127.0.0.1:${port}/callback`] }),
    port: 0,
  });
  relyingParty = spawn(process.execPath, ['--import', 'tsx', 'examples/express-server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      IDV_BASE_URL: emulator.baseUrl,
      IDV_CLIENT_ID: 'runner-rp',
      IDV_SIGNING_KEY: JSON.stringify(keys.signing),
      IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryption),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ready, failed) => {
    relyingParty.stdout!.once('data', () => ready());
    relyingParty.once('exit', (code) => failed(new Error(`the express example exited (${code})`)));
  });
}, 60_000);

afterAll(async () => {
  relyingParty?.kill('SIGTERM');
  await emulator?.close();
  rmSync(outDir, { recursive: true, force: true });
});

function options(more: Partial<RunOptions> = {}): RunOptions {
  return {
    clientId: 'runner-rp',
    startUrl,
    emulator: emulator.baseUrl,
    persona: 'ingrid-haugen',
    jwksCooldownSeconds: 30,
    caseTimeoutSeconds: 30,
    outDir,
    ...more,
  };
}

/** Per-flow cases and client-wide ones (PAR faults, armed for the whole client). */
const CASES_RUN = ['wrong_nonce', 'wrong_issuer', 'expired', 'unknown_kid', 'aud_array', 'par_invalid_client', 'par_server_error'];

const span = (result: CaseResult) => ({ id: result.testCase.id, from: result.startedAt, to: result.startedAt + result.durationMs });

describe('runConformance', () => {
  it('runs per-flow cases side by side and the client-wide ones alone, after them, each decided as alone; the report in case order', async () => {
    const report = await runConformance(options({ workers: 2, cases: CASES_RUN }));
    expect(report.results.map((result) => result.testCase.id)).toEqual(selectCases(CASES_RUN).map((testCase) => testCase.id));
    expect(report.results.map((result) => [result.testCase.id, result.verdict.status, result.verdict.reason])).toEqual(
      report.results.map((result) => [result.testCase.id, 'pass', result.verdict.reason]),
    );
    const perFlow = report.results.filter((result) => !result.testCase.clientWide && !result.testCase.id.startsWith('normal')).map(span);
    const clientWide = report.results.filter((result) => result.testCase.clientWide).map(span);
    // The case with an unknown kid went first (with the first workers, before any per-flow case
    // ended), within the cooldown of the normal verification's JWKS fetch.
    expect(perFlow.find((other) => other.id === 'unknown_kid')!.from).toBeLessThan(Math.min(...perFlow.map((other) => other.to)));
    // Side by side: some two per-flow cases overlapped in time.
    expect(perFlow.some((a) => perFlow.some((b) => a !== b && a.from < b.to && b.from < a.to))).toBe(true);
    // Alone, after them: each client-wide case began after every per-flow case ended, and overlapped nothing.
    const everyOther = report.results.map(span);
    for (const wide of clientWide) {
      expect(wide.from, wide.id).toBeGreaterThanOrEqual(Math.max(...perFlow.map((other) => other.to)));
      expect(
        everyOther.filter((other) => other.id !== wide.id && other.from < wide.to && wide.from < other.to).map((other) => other.id),
        wide.id,
      ).toEqual([]);
    }
  }, 120_000);

  it('leaves the client-wide cases out without clientWide', async () => {
    const report = await runConformance(options({ workers: 2, clientWide: false, cases: ['wrong_nonce', 'par_*', 'key_rotated_unpublished'] }));
    expect(report.results.map((result) => result.testCase.id)).toEqual(['normal', 'wrong_nonce', 'normal_again']);
  }, 60_000);

  it('waits while another run holds the emulator, and gives up saying so after lockWaitSeconds', async () => {
    const held = await fetch(`${emulator.baseUrl}/qa/lock`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ owner: 'someone-else', seconds: 30 }),
    });
    expect(held.status).toBe(200);
    try {
      const waits: string[] = [];
      await expect(runConformance(options({ lockWaitSeconds: 1, cases: ['wrong_nonce'] }), { waiting: (_seconds, why) => waits.push(why) })).rejects.toThrow(
        /another conformance run holds the emulator at http:\/\/127\.0\.0\.1:\d+ \(409 locked: the emulator is held by conformance run 'someone-else'.*waited 1 s \(--lock-wait\)/,
      );
    } finally {
      await fetch(`${emulator.baseUrl}/qa/lock?owner=someone-else`, { method: 'DELETE' });
    }
    // Released: a run goes, and gives the lock back when it ends.
    await runConformance(options({ cases: ['wrong_nonce'] }));
    expect(await (await fetch(`${emulator.baseUrl}/qa/lock`)).json()).toEqual({ locked: false });
  }, 60_000);

  it('a waiting run asks again every few seconds, so it starts soon after the other run releases a lock taken for a minute', async () => {
    const held = await fetch(`${emulator.baseUrl}/qa/lock`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ owner: 'someone-else', seconds: 60 }),
    });
    expect(held.status).toBe(200);
    const released = new Promise<number>((resolve) =>
      setTimeout(() => void fetch(`${emulator.baseUrl}/qa/lock?owner=someone-else`, { method: 'DELETE' }).then(() => resolve(Date.now())), 1000),
    );
    const waits: number[] = [];
    let startedAt = 0;
    await runConformance(options({ cases: ['wrong_nonce'] }), {
      waiting: (seconds) => waits.push(seconds),
      caseStarted: () => (startedAt ||= Date.now()),
    });
    expect(waits.length).toBeGreaterThan(0);
    expect(Math.max(...waits)).toBeLessThanOrEqual(5);
    expect(startedAt - (await released)).toBeLessThan(8000);
  }, 60_000);

  it('runs a case once more when the browser could not load a page, and its verdict tells the first time', async () => {
    // A relying party that drops the first start, then answers with a failure page.
    let starts = 0;
    const flaky = createServer((request, response) => {
      if (request.url?.startsWith('/go')) {
        starts += 1;
        if (starts === 1) return void request.socket.destroy();
        return void response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Failed</title><main>Verification failed</main>');
      }
      // A fresh connection for the start: Chromium itself retries a request dropped on a reused one.
      response
        .writeHead(200, { 'content-type': 'text/html', connection: 'close' })
        .end('<title>Start</title><form action="/go"><button>Start verification</button></form>');
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    try {
      const flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
      const report = await runConformance(options({ startUrl: `${flakyUrl}/`, cases: ['wrong_nonce'] }));
      expect(starts).toBe(2);
      const [normal] = report.results;
      expect(normal!.verdict.status).toBe('fail');
      expect(normal!.verdict.reason).toMatch(
        /^Refused a verification it must accept: .*\(The kit ran the case twice; the first time: The relying party did not answer the browser: loading http:\/\/127\.0\.0\.1:\d+\/go\? failed with net::ERR_EMPTY_RESPONSE\./,
      );
    } finally {
      await new Promise((resolve) => flaky.close(resolve));
    }
  }, 60_000);

  it('asks the emulator’s QA API on a connection of its own each time, so no idle connection the server closes can reset a request', async () => {
    const asked: string[] = [];
    subscribe('http.server.request.start', (message) => {
      const { request } = message as { request: IncomingMessage };
      if (request.url?.startsWith('/qa/')) asked.push(`${request.method} ${request.url.split('?')[0]} ${request.headers.connection}`);
    });
    await runConformance(options({ cases: ['wrong_nonce'] }));
    expect(asked.length).toBeGreaterThan(5);
    expect(asked.filter((line) => !line.endsWith(' close'))).toEqual([]);
  }, 60_000);
});
