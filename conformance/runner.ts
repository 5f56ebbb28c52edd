/**
 * A run of the conformance kit: checks that the emulator answers and knows the client, runs the
 * normal verification first (a relying party that accepts nothing would pass every refusal), then
 * every selected case, the ones that need a JWKS fetch once the relying party may fetch again,
 * and the normal verification last.
 */
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
  /** the start control (a CSS selector); default: the first submit button */
  startSelector?: string;
  /** the emulator's base URL */
  emulator: string;
  /** the QA panel's password, when it has one */
  panelPassword?: string;
  /** the emulator persona whose document is verified */
  persona: string;
  /** case ids or patterns (`*`); all cases when empty */
  cases?: readonly string[];
  /**
   * How long after its last JWKS fetch the relying party fetches again for an unknown `kid`, in
   * seconds: the cases that need a fetch wait for it.
   */
  jwksCooldownSeconds: number;
  /** the longest one case may take, in seconds */
  caseTimeoutSeconds: number;
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
  results: CaseResult[];
}

/** Runs the kit; throws only when it cannot start (no browser, no emulator, unknown client). */
export async function runConformance(options: RunOptions, listener: RunListener = {}): Promise<RunReport> {
  const cases = selectCases(options.cases);
  await mkdir(options.outDir, { recursive: true });
  const api = await playwrightRequest.newContext({ timeout: 15_000 });
  let browser: Browser | undefined;
  try {
    const qa = new EmulatorQa(api, options.emulator.replace(/\/+$/, ''));
    await qa.signIn(options.panelPassword);
    const client = await qa.client(options.clientId);
    browser = await launchChromium();
    const settings: CaseSettings = {
      clientId: options.clientId,
      startUrl: options.startUrl,
      ...(options.startSelector ? { startSelector: options.startSelector } : {}),
      persona: options.persona,
      caseTimeoutMs: options.caseTimeoutSeconds * 1000,
      relyingPartyOrigins: new Set([new URL(options.startUrl).origin, ...client.redirectUris.map((uri) => new URL(uri).origin)]),
      outDir: options.outDir,
    };
    const startedAt = Date.now();
    const results = await runCases(browser, qa, settings, cases, options.jwksCooldownSeconds * 1000, listener);
    return { options, startedAt, endedAt: Date.now(), results };
  } finally {
    await browser?.close().catch(() => undefined);
    await api.dispose();
  }
}

/** How many times a case runs again after the relying party answered 429 before its flow began. */
const SLOW_DOWN_RETRIES = 5;

async function runCases(browser: Browser, qa: EmulatorQa, settings: CaseSettings, cases: ConformanceCase[], cooldownMs: number, listener: RunListener): Promise<CaseResult[]> {
  const total = cases.length;
  const results: CaseResult[] = [];
  const seenStates = new Set<string>();
  const run = async (testCase: ConformanceCase) => {
    listener.caseStarted?.(results.length + 1, total, testCase);
    let result = await runCase(browser, qa, settings, testCase, seenStates);
    for (let retry = 0; result.slowDown !== undefined && retry < SLOW_DOWN_RETRIES; retry += 1) {
      listener.waiting?.(result.slowDown, 'because the relying party answered 429 Too Many Requests');
      await new Promise((resolve) => setTimeout(resolve, result.slowDown! * 1000));
      listener.caseStarted?.(results.length + 1, total, testCase);
      result = await runCase(browser, qa, settings, testCase, seenStates);
    }
    results.push(result);
    listener.caseEnded?.(results.length, total, result);
    return result;
  };

  // The relying party's JWKS cache: fetched at some time before the run (the last fetch by anyone
  // bounds it), then in the cases that made it fetch.
  let lastFetch = await lastJwksFetch(qa);
  const noteFetch = (result: CaseResult) => {
    lastFetch = Math.max(lastFetch, result.relyingPartyJwksFetchAt ?? 0);
  };
  const baseline = await run(BASELINE_CASE);
  noteFetch(baseline);
  const queue = cases.filter((testCase) => testCase !== BASELINE_CASE && testCase !== CLOSING_CASE);
  if (baseline.verdict.status !== 'pass') {
    for (const testCase of [...queue, CLOSING_CASE]) {
      const skipped = notRun(testCase, `Not run: the relying party did not complete a normal verification (case '${BASELINE_CASE.id}'), so a refusal could not be told from a relying party that accepts nothing.`);
      results.push(skipped);
      listener.caseEnded?.(results.length, total, skipped);
    }
    return results;
  }
  while (queue.length > 0) {
    const wait = cooldownMs - (Date.now() - lastFetch);
    // A case that needs a JWKS fetch goes as soon as it may (the others fill the cooldowns between them).
    const next = wait <= 0 && queue.some((testCase) => testCase.needsJwksFetch) ? queue.findIndex((testCase) => testCase.needsJwksFetch) : queue.findIndex((testCase) => !testCase.needsJwksFetch);
    if (next === -1) {
      listener.waiting?.(Math.ceil(wait / 1000), "until the relying party may fetch the JWKS again (--jwks-cooldown)");
      await new Promise((resolve) => setTimeout(resolve, wait));
      continue;
    }
    noteFetch(await run(queue.splice(next, 1)[0]!));
  }
  await run(CLOSING_CASE);
  return results;
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
