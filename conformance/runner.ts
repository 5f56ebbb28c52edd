/**
 * A run of the conformance kit: checks that the emulator answers and knows the client, takes the
 * emulator's run lock (one run at a time per emulator deployment), runs the normal verification
 * first (a relying party that accepts nothing would pass every refusal), then every per-flow case
 * in parallel browser contexts, then the client-wide cases alone, one at a time (the ones that
 * need a JWKS fetch once the relying party may fetch again), and the normal verification last.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { request as playwrightRequest, type Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { BASELINE_CASE, CLOSING_CASE, selectCases, type ConformanceCase } from './cases';
import { EmulatorQa } from './emulator-qa';
import { runCase, type CaseResult, type CaseSettings } from './run-case';

export interface RunOptions {
  /** the relying party's client_id at the emulator */
  clientId: string;
  /** where a person starts a verification at the relying party */
  startUrl: string;
  /** the start control (a CSS selector); default: found by its test id or its name (run-case.ts) */
  startSelector?: string;
  /** the emulator's base URL */
  emulator: string;
  /** the QA panel's password, when it has one */
  panelPassword?: string;
  /** the emulator persona whose document is verified */
  persona: string;
  /** case ids or patterns (`*`); all cases when empty */
  cases?: readonly string[];
  /** whether the client-wide cases run (cases.ts `clientWide`); default true */
  clientWide?: boolean;
  /** how many per-flow cases run at once, each in a browser context of its own; default 1 */
  workers?: number;
  /**
   * How long after its last JWKS fetch the relying party fetches again for an unknown `kid`, in
   * seconds: the cases that need a fetch wait for it.
   */
  jwksCooldownSeconds: number;
  /** the longest one case may take, in seconds */
  caseTimeoutSeconds: number;
  /** how long to wait for another run on the same emulator to end, in seconds; default 600 */
  lockWaitSeconds?: number;
  /** where screenshots (and the caller's reports) go */
  outDir: string;
}

/** What a run tells its caller while it goes. */
export interface RunListener {
  caseStarted?(index: number, total: number, testCase: ConformanceCase): void;
  caseEnded?(index: number, total: number, result: CaseResult): void;
  waiting?(seconds: number, why: string): void;
}

export interface RunReport {
  options: RunOptions;
  startedAt: number;
  endedAt: number;
  /** in the order of the cases (cases.ts), whatever order they ended in */
  results: CaseResult[];
}

/** The run lock is taken for this long and renewed every third of it: a run that dies frees it soon. */
const LOCK_SECONDS = 60;

/**
 * Runs the kit; throws only when it cannot start (no browser, no emulator, unknown client,
 * another run holding the emulator past `lockWaitSeconds`). `signal` stops it between cases.
 */
export async function runConformance(options: RunOptions, listener: RunListener = {}, signal?: AbortSignal): Promise<RunReport> {
  const cases = selectCases(options.cases, { clientWide: options.clientWide ?? true });
  await mkdir(options.outDir, { recursive: true });
  // Each QA request on a connection of its own: a kept-alive one that the server closes for being
  // idle just as the next request goes out resets that request (ECONNRESET), and a case would be
  // undecided for it. The kit sends a handful per case; new connections cost nothing that matters.
  const api = await playwrightRequest.newContext({ timeout: 15_000, extraHTTPHeaders: { connection: 'close' } });
  const owner = `kit-${randomBytes(9).toString('base64url')}`;
  let browser: Browser | undefined;
  let renewal: NodeJS.Timeout | undefined;
  let locked = false;
  const qa = new EmulatorQa(api, options.emulator.replace(/\/+$/, ''));
  try {
    await qa.signIn(options.panelPassword);
    const client = await qa.client(options.clientId);
    await takeLock(qa, owner, (options.lockWaitSeconds ?? 600) * 1000, listener, signal);
    locked = true;
    renewal = setInterval(() => void qa.lock(owner, LOCK_SECONDS).catch(() => undefined), (LOCK_SECONDS / 3) * 1000);
    browser = await launchChromium();
    const settings: CaseSettings = {
      clientId: options.clientId,
      startUrl: options.startUrl,
      ...(options.startSelector ? { startSelector: options.startSelector } : {}),
      persona: options.persona,
      caseTimeoutMs: options.caseTimeoutSeconds * 1000,
      relyingPartyOrigins: new Set([new URL(options.startUrl).origin, ...client.redirectUris.map((uri) => new URL(uri).origin)]),
      outDir: options.outDir,
      owner,
    };
    const startedAt = Date.now();
    const results = await runCases(browser, qa, settings, cases, {
      cooldownMs: options.jwksCooldownSeconds * 1000,
      workers: options.workers ?? 1,
      listener,
      signal,
    });
    return { options, startedAt, endedAt: Date.now(), results };
  } finally {
    clearInterval(renewal);
    await browser?.close().catch(() => undefined);
    if (locked) await qa.unlock(owner).catch(() => undefined);
    await api.dispose();
  }
}

/** Waits for the emulator's run lock, saying why; gives up after `waitMs`. */
async function takeLock(qa: EmulatorQa, owner: string, waitMs: number, listener: RunListener, signal?: AbortSignal): Promise<void> {
  const giveUpAt = Date.now() + waitMs;
  for (;;) {
    const busy = await qa.lock(owner, LOCK_SECONDS);
    if (!busy) return;
    if (Date.now() + busy.retryAfterSeconds * 1000 > giveUpAt) {
      throw new Error(`another conformance run holds the emulator at ${qa.base} (${busy.why}); waited ${Math.round(waitMs / 1000)} s (--lock-wait)`);
    }
    listener.waiting?.(busy.retryAfterSeconds, 'for another conformance run on this emulator to end');
    await sleep(busy.retryAfterSeconds * 1000, signal);
    signal?.throwIfAborted();
  }
}

/** How many times a case runs again after the relying party answered 429 before its flow began. */
const SLOW_DOWN_RETRIES = 5;

interface Schedule {
  cooldownMs: number;
  workers: number;
  listener: RunListener;
  signal?: AbortSignal;
}

async function runCases(browser: Browser, qa: EmulatorQa, settings: CaseSettings, cases: ConformanceCase[], schedule: Schedule): Promise<CaseResult[]> {
  const { cooldownMs, listener, signal } = schedule;
  const total = cases.length;
  const results: CaseResult[] = [];
  const seenStates = new Set<string>();
  let started = 0;
  const finish = (result: CaseResult) => {
    results.push(result);
    listener.caseEnded?.(results.length, total, result);
    return result;
  };
  const run = async (testCase: ConformanceCase) => {
    started += 1;
    listener.caseStarted?.(started, total, testCase);
    let result = await runCase(browser, qa, settings, testCase, seenStates);
    for (let retry = 0; result.slowDown !== undefined && retry < SLOW_DOWN_RETRIES; retry += 1) {
      listener.waiting?.(result.slowDown, 'because the relying party answered 429 Too Many Requests');
      await sleep(result.slowDown * 1000, signal);
      result = await runCase(browser, qa, settings, testCase, seenStates);
    }
    if (result.browserFailed) {
      // A page the browser could not load once (a connection reset on a busy machine) says little:
      // the case runs once more, and its verdict says what happened the first time.
      const first = result.verdict.reason;
      result = await runCase(browser, qa, settings, testCase, seenStates);
      result = { ...result, verdict: { ...result.verdict, reason: `${result.verdict.reason} (The kit ran the case twice; the first time: ${first})` } };
    }
    noteFetch(result);
    return finish(result);
  };

  // The relying party's JWKS cache: fetched at some time before the run (the last fetch by anyone
  // bounds it), then in the cases that made it fetch.
  let lastFetch = await lastJwksFetch(qa);
  const noteFetch = (result: CaseResult) => {
    lastFetch = Math.max(lastFetch, result.relyingPartyJwksFetchAt ?? 0);
  };
  const inOrder = () => results.sort((a, b) => cases.indexOf(a.testCase) - cases.indexOf(b.testCase));
  const baseline = await run(BASELINE_CASE);
  const queue = cases.filter((testCase) => testCase !== BASELINE_CASE && testCase !== CLOSING_CASE);
  if (baseline.verdict.status !== 'pass') {
    const reason = `Not run: the relying party did not complete a normal verification (case '${BASELINE_CASE.id}'), so a refusal could not be told from a relying party that accepts nothing.`;
    for (const testCase of [...queue, CLOSING_CASE]) finish(notRun(testCase, reason));
    return inOrder();
  }

  // Per-flow cases: each answered through its own flow, so they may run side by side; the one
  // with an unknown kid first (cases.ts `unknownKid`).
  const perFlow = queue.filter((testCase) => !testCase.clientWide).sort((a, b) => Number(b.unknownKid) - Number(a.unknownKid));
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(schedule.workers, perFlow.length)) }, async () => {
      for (let next = perFlow.shift(); next !== undefined && !signal?.aborted; next = perFlow.shift()) await run(next);
    }),
  );

  // Client-wide cases, alone and one at a time: a case that needs a JWKS fetch goes as soon as
  // the relying party may fetch again; the others fill the cooldowns between them.
  const clientWide = queue.filter((testCase) => testCase.clientWide);
  while (clientWide.length > 0 && !signal?.aborted) {
    const wait = cooldownMs - (Date.now() - lastFetch);
    const next =
      wait <= 0 && clientWide.some((testCase) => testCase.needsJwksFetch)
        ? clientWide.findIndex((testCase) => testCase.needsJwksFetch)
        : clientWide.findIndex((testCase) => !testCase.needsJwksFetch);
    if (next === -1) {
      listener.waiting?.(Math.ceil(wait / 1000), 'until the relying party may fetch the JWKS again (--jwks-cooldown)');
      await sleep(wait, signal);
      continue;
    }
    await run(clientWide.splice(next, 1)[0]!);
  }
  signal?.throwIfAborted();
  await run(CLOSING_CASE);
  return inOrder();
}

/** Waits `ms`, or less when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** When the JWKS was last fetched, from anyone (ms since the epoch; 0 when not lately). */
async function lastJwksFetch(qa: EmulatorQa): Promise<number> {
  const [latest] = await qa.jwksFetches();
  return latest?.at ?? 0;
}

function notRun(testCase: ConformanceCase, reason: string): CaseResult {
  return { testCase, verdict: { status: 'error', reason }, canary: '', startedAt: Date.now(), durationMs: 0, finalUrl: '', jwksFetches: [], navigations: [] };
}

/** The counts of a run's verdicts. */
export function tally(results: readonly CaseResult[]): Record<'pass' | 'fail' | 'error' | 'not_applicable', number> {
  const counts = { pass: 0, fail: 0, error: 0, not_applicable: 0 };
  for (const result of results) counts[result.verdict.status] += 1;
  return counts;
}

/** Whether the run passed: every case passed or did not apply. */
export function passed(results: readonly CaseResult[]): boolean {
  const counts = tally(results);
  return counts.fail === 0 && counts.error === 0;
}
