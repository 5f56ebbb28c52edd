import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConformanceRunStatus } from '../emulator';
import { BASELINE_CASE } from './cases';
import { createConformanceHost, type ConformanceKit } from './host';
import type { RunOptions } from './runner';
import type { CaseResult } from './run-case';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'host-test-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

const INPUT = { clientId: 'my-rp', startUrl: 'http://rp.example/', cases: ['wrong_nonce'], jwksCooldownSeconds: 30 };

function passing(): CaseResult {
  return { testCase: BASELINE_CASE, verdict: { status: 'pass', reason: 'shown' }, canary: 'Canary', startedAt: 0, durationMs: 1000, finalUrl: 'http://rp.example/result', jwksFetches: [], navigations: [] };
}

/** A kit without a browser: each run waits for `finish()`, ends one case, and writes a screenshot. */
function fakeKit() {
  const calls: RunOptions[] = [];
  const finishers: (() => void)[] = [];
  const kit: ConformanceKit = {
    async runConformance(options, listener) {
      calls.push(options);
      listener.caseStarted?.(1, 1, BASELINE_CASE);
      await new Promise<void>((resolve) => finishers.push(resolve));
      await mkdir(options.outDir, { recursive: true });
      await writeFile(join(options.outDir, 'normal.png'), 'png');
      await writeFile(join(options.outDir, 'notes.txt'), 'not a report file');
      listener.caseEnded?.(1, 1, passing());
      return { options, startedAt: 0, endedAt: 1000, results: [passing()] };
    },
    progressLine: (index, total, result) => `[${index}/${total}] ${result.verdict.status} ${result.testCase.id}`,
    htmlReport: () => '<p>report</p>',
    junitXml: () => '<testsuites/>',
  };
  return { kit, calls, finish: () => finishers.shift()?.() };
}

async function ended(status: () => ConformanceRunStatus | undefined): Promise<ConformanceRunStatus> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const now = status();
    if (now && now.state !== 'running') return now;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the run did not end');
}

describe('createConformanceHost', () => {
  it('runs one at a time: a start while one goes is refused, naming the run that goes; after it, another may start', async () => {
    const { kit, calls, finish } = fakeKit();
    const host = createConformanceHost({ emulatorBase: 'http://localhost:3000/emulator/', panelPassword: 'a panel password', defaults: {}, reportsFolder: folder, loadKit: async () => kit });
    const first = await host.start(INPUT);
    expect(first).toHaveProperty('runId');
    const runId = (first as { runId: string }).runId;
    expect(await host.start(INPUT)).toEqual({ refused: expect.stringContaining('one runs at a time'), runId });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ clientId: 'my-rp', emulator: 'http://localhost:3000/emulator', panelPassword: 'a panel password', cases: ['wrong_nonce'], jwksCooldownSeconds: 30, outDir: join(folder, runId) });
    expect(host.status(runId)).toMatchObject({ state: 'running', done: 0, total: 1 });

    finish();
    const status = await ended(() => host.status(runId));
    expect(status).toMatchObject({ state: 'done', done: 1, total: 1, passed: true, lines: ['[1/1] pass normal'], files: ['index.html', 'junit.xml', 'normal.png'] });
    expect(status.summary).toBe('1 passed, 0 failed, 0 could not be decided, 0 did not apply, of 1 cases.');
    expect(await host.start(INPUT)).toHaveProperty('runId');
  });

  it('serves a run’s report files by their names only: no other file, no path', async () => {
    const { kit, finish } = fakeKit();
    const host = createConformanceHost({ emulatorBase: 'http://localhost:3000/emulator', defaults: {}, reportsFolder: folder, loadKit: async () => kit });
    const { runId } = (await host.start(INPUT)) as { runId: string };
    await new Promise((resolve) => setTimeout(resolve, 10));
    finish();
    await ended(() => host.status(runId));
    await writeFile(join(folder, 'secret.png'), 'outside the run');
    const html = await host.file(runId, 'index.html');
    expect(html?.contentType).toBe('text/html; charset=utf-8');
    expect(new TextDecoder().decode(html?.body)).toBe('<p>report</p>');
    expect((await host.file(runId, 'junit.xml'))?.contentType).toBe('application/xml; charset=utf-8');
    expect((await host.file(runId, 'normal.png'))?.contentType).toBe('image/png');
    for (const name of ['notes.txt', '../secret.png', '..%2Fsecret.png', '/etc/passwd', 'NORMAL.png', 'expired.png', '']) {
      expect(await host.file(runId, name), name).toBeUndefined();
    }
    expect(await host.file('unknown-run', 'index.html')).toBeUndefined();
    expect(host.status('unknown-run')).toBeUndefined();
  });

  it('a kit that cannot be loaded (no playwright-core, no Chromium): the run ends failed with what to install, and the next may start', async () => {
    const host = createConformanceHost({
      emulatorBase: 'http://localhost:3000/emulator',
      defaults: {},
      reportsFolder: folder,
      loadKit: async () => {
        throw new Error('Chromium could not be started (no such file). Install it: on Debian or Ubuntu `apt-get install chromium`');
      },
    });
    const { runId } = (await host.start(INPUT)) as { runId: string };
    expect(await ended(() => host.status(runId))).toMatchObject({ state: 'failed', error: expect.stringContaining('apt-get install chromium') });
    expect(await host.start(INPUT)).toHaveProperty('runId');
  });

  it('keeps the last five runs: an older one is forgotten and its folder deleted', async () => {
    const { kit, finish } = fakeKit();
    const host = createConformanceHost({ emulatorBase: 'http://localhost:3000/emulator', defaults: {}, reportsFolder: folder, loadKit: async () => kit });
    const ids: string[] = [];
    for (let run = 0; run < 6; run += 1) {
      const { runId } = (await host.start(INPUT)) as { runId: string };
      ids.push(runId);
      await new Promise((resolve) => setTimeout(resolve, 10));
      finish();
      await ended(() => host.status(runId));
    }
    expect(host.status(ids[0]!)).toBeUndefined();
    expect(existsSync(join(folder, ids[0]!))).toBe(false);
    for (const id of ids.slice(1)) expect(host.status(id)?.state).toBe('done');
  });

  it('deletes the run folders an earlier process left a day ago or more, and only those', async () => {
    const { kit, finish } = fakeKit();
    const old = join(folder, 'old-run');
    const recent = join(folder, 'another-instances-run');
    await mkdir(old);
    await writeFile(join(old, 'index.html'), 'an old report');
    await mkdir(recent);
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    const host = createConformanceHost({ emulatorBase: 'http://localhost:3000/emulator', defaults: {}, reportsFolder: folder, loadKit: async () => kit });
    const { runId } = (await host.start(INPUT)) as { runId: string };
    finish();
    await ended(() => host.status(runId));
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect(existsSync(join(folder, runId))).toBe(true);
  });

  it('gives the form its defaults', () => {
    const defaults = { clientId: 'idv-demo', startUrl: 'http://localhost:3000/', startSelector: '[data-testid="start"]' };
    expect(createConformanceHost({ emulatorBase: 'http://localhost:3000/emulator', defaults }).defaults()).toEqual(defaults);
  });
});
