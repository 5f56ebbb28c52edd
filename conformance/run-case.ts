/**
 * One case, as one whole verification in a fresh browser context: open the relying party's start
 * URL, press its start control, let the emulator answer the flow as the case says (its faults, and
 * the case's canary as the person's given name), complete the emulated identity app, and look at
 * the page the relying party ends on. What was seen goes to judge.ts.
 */
import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { NOT_AN_IMAGE_PICTURE } from '../lib/emulator/qa/faults';
import type { ConformanceCase } from './cases';
import type { EmulatorQa, FlowTrace, JwksFetch } from './emulator-qa';
import { judge, type Observation, type Verdict } from './judge';

/** How a case is driven. */
export interface CaseSettings {
  clientId: string;
  startUrl: string;
  /** the start control; default: the first submit button */
  startSelector?: string;
  /** the emulator persona whose document is verified */
  persona: string;
  /** the longest a case may take, in ms */
  caseTimeoutMs: number;
  /** the origins of the relying party (its start URL's and its redirect URIs') */
  relyingPartyOrigins: ReadonlySet<string>;
  /** the folder the screenshots go to */
  outDir: string;
}

/** What one case gave. */
export interface CaseResult {
  testCase: ConformanceCase;
  verdict: Verdict;
  /** the given name only this case's ID token carried */
  canary: string;
  startedAt: number;
  durationMs: number;
  finalUrl: string;
  /** the screenshot of the page it ended on, relative to the output folder */
  screenshot?: string;
  /** the flow as the emulator saw it */
  flow?: FlowTrace;
  /** the JWKS responses during the case */
  jwksFetches: JwksFetch[];
  /** when the relying party last fetched the JWKS to check this case's ID token */
  relyingPartyJwksFetchAt?: number;
  /** the main frame's navigations, in order */
  navigations: string[];
  /**
   * The relying party asked the kit to slow down before the flow began (a page answered 429): the
   * seconds its Retry-After asked for (a default when it gave none). The runner waits and runs
   * the case again.
   */
  slowDown?: number;
}

/** How long to wait after a 429 without a usable Retry-After. */
const DEFAULT_SLOW_DOWN_SECONDS = 10;

/** The default start control: the first submit button of the page. */
export const DEFAULT_START_SELECTOR = 'button[type="submit"], form button:not([type]), input[type="submit"], input[type="image"]';

/**
 * A given name nobody has: "Canary" and eight random letters, so finding it on a page cannot be
 * an accident, nor left over from another case.
 */
export function makeCanary(): string {
  const letters = Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
  return `Canary${letters.charAt(0).toUpperCase()}${letters.slice(1)}`;
}

/** Runs one case; never throws for what the relying party or the emulator does. */
export async function runCase(browser: Browser, qa: EmulatorQa, settings: CaseSettings, testCase: ConformanceCase, seenStates: Set<string>): Promise<CaseResult> {
  const canary = makeCanary();
  const startedAt = Date.now();
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const navigations: string[] = [];
  const serverErrors: { status: number; url: string }[] = [];
  const pictureUses: string[] = [];
  let slowDown: number | undefined;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations.push(frame.url());
  });
  page.on('response', (response) => {
    if (!settings.relyingPartyOrigins.has(originOf(response.url()))) return;
    if (response.status() >= 500) serverErrors.push({ status: response.status(), url: response.url() });
    if (response.status() === 429 && response.request().isNavigationRequest()) {
      const retryAfter = Number(response.headers()['retry-after']);
      slowDown = Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= 600 ? retryAfter : DEFAULT_SLOW_DOWN_SECONDS;
    }
  });
  // The picture URL is under .invalid: nobody answers it, and asking is what the case looks for.
  await page.route((url) => url.href.startsWith(new URL(NOT_AN_IMAGE_PICTURE).origin), async (route) => {
    pictureUses.push(`the browser requested ${route.request().url()}`);
    await route.abort('addressunreachable');
  });

  let state: string | undefined;
  let reachedService = false;
  let driverError: string | undefined;
  let hung: string | undefined;
  /** where the case is: a timeout while the relying party works is the relying party's */
  const at: { phase: 'opening' | 'starting' | 'service' | 'returning' } = { phase: 'opening' };
  const clientFaults = testCase.armedFor === 'client' ? testCase.faults : [];
  try {
    for (const fault of clientFaults) await qa.armFault(fault, settings.clientId);
    const deadline = startedAt + settings.caseTimeoutMs;
    const outcome = await withDeadline(deadline, async () => {
      await page.goto(settings.startUrl, { timeout: remaining(deadline) });
      const start = page.locator(settings.startSelector ?? DEFAULT_START_SELECTOR).first();
      if ((await start.count()) === 0) return `the start page ${settings.startUrl} has no element matching ${settings.startSelector ?? 'a submit button'}: give the start control with --start-selector`;
      at.phase = 'starting';
      await navigated(page, deadline, () => start.click({ timeout: remaining(deadline) }), 'pressing the start control');
      // On to the service as soon as its page is reached; else wait for the page the relying party stopped on.
      await Promise.race([
        page.waitForURL((url) => authorizationPage(url.href, qa.base) !== undefined, { timeout: remaining(deadline), waitUntil: 'commit' }),
        settle(page, deadline),
      ]);
      const authorization = authorizationPage(page.url(), qa.base);
      if (!authorization) return undefined; // the relying party stopped before the service (a PAR fault, or its own error)
      reachedService = true;
      at.phase = 'service';
      const requestUri = authorization.searchParams.get('request_uri');
      if (!requestUri) return `the authorization page ${authorization.href} has no request_uri`;
      state = await qa.answerFlow(requestUri, testCase.armedFor === 'flow' ? testCase.faults : [], canary);
      await page.locator(`input[name="persona"][value="${settings.persona}"]`).check({ timeout: remaining(deadline) });
      await page.locator('button[name="outcome"][value="approve"]').click({ timeout: remaining(deadline) });
      at.phase = 'returning';
      await page.waitForURL((url) => !url.href.startsWith(`${qa.base}/`), { timeout: remaining(deadline), waitUntil: 'commit' });
      await settle(page, deadline);
      return undefined;
    });
    if (outcome !== undefined) driverError = outcome;
  } catch (error) {
    if (isTimeout(error) && (at.phase === 'starting' || at.phase === 'returning')) {
      hung = `The relying party did not answer within ${Math.round(settings.caseTimeoutMs / 1000)} s (the browser was waiting at ${page.url()}): it must give up on the service and say so.`;
    } else driverError = describeDriverError(error, page.url(), settings.caseTimeoutMs);
  }

  const finalUrl = page.url();
  const [canarySeen, pagePictureUses] = await Promise.all([pageShows(page, canary), pictureUsesOn(page)]).catch(() => [false, []] as const);
  pictureUses.push(...pagePictureUses);
  const screenshot = `${testCase.id}.png`;
  const screenshotSaved = await page
    .screenshot({ fullPage: true, timeout: 10_000 })
    .then((png) => writeFile(join(settings.outDir, screenshot), png))
    .then(() => true)
    .catch(() => false);
  await context.close().catch(() => undefined);

  // The flow as the emulator saw it: by the state it gave back, or (a PAR fault) the new flow of this client.
  state ??= (await qa.flowsSince(settings.clientId, startedAt - 60_000).catch(() => [])).find((candidate) => !seenStates.has(candidate));
  if (state !== undefined) seenStates.add(state);
  const flow = state === undefined ? undefined : await qa.flow(state).catch(() => undefined);
  // A client fault the relying party never reached must not spoil whatever comes next.
  const applied = flow?.faults.map((fault) => fault.id) ?? [];
  for (const fault of clientFaults) if (!applied.includes(fault)) await qa.disarmFault(fault).catch(() => undefined);
  const endedAt = Date.now();
  const jwksFetches = (await qa.jwksFetches().catch(() => [])).filter((fetch) => fetch.at >= startedAt && fetch.at <= endedAt);
  // The relying party's own fetches: those after the service answered its token request, while it
  // checks the ID token. (JWKS requests name nobody; a health check of its own may fetch too.)
  const tokenAt = flow?.events.find((event) => event.step === 'token')?.at;
  const relyingPartyFetches = tokenAt === undefined ? [] : jwksFetches.filter((fetch) => fetch.at >= tokenAt);

  if (slowDown !== undefined && flow === undefined) {
    // Nothing reached the service: the case did not happen, and runs again once allowed.
    return { testCase, verdict: { status: 'error', reason: `The relying party answered 429 before the flow began (asking for ${slowDown} s).` }, canary, startedAt, durationMs: endedAt - startedAt, finalUrl, jwksFetches, navigations, slowDown };
  }
  const seen: Observation = {
    ...(driverError === undefined ? {} : { driverError }),
    ...(hung === undefined ? {} : { hung }),
    reachedService,
    finalUrl,
    canarySeen,
    serverErrors,
    pictureUses,
    flowSeen: flow !== undefined,
    applied,
    ...requestedClaimsOf(flow),
    jwksFetches: relyingPartyFetches.length,
  };
  return {
    testCase,
    verdict: judge(testCase, seen),
    canary,
    startedAt,
    durationMs: endedAt - startedAt,
    finalUrl,
    ...(screenshotSaved ? { screenshot } : {}),
    ...(flow ? { flow } : {}),
    jwksFetches,
    ...(relyingPartyFetches[0] ? { relyingPartyJwksFetchAt: Math.max(...relyingPartyFetches.map((fetch) => fetch.at)) } : {}),
    navigations,
  };
}

/** The verified claims the relying party requested, from the emulator's PAR event. */
function requestedClaimsOf(flow: FlowTrace | undefined): { requestedClaims?: string[] } {
  const par = flow?.events.find((event) => event.step === 'par' && event.outcome !== 'refused');
  const claims = par?.details.verified_claims;
  return Array.isArray(claims) ? { requestedClaims: claims } : {};
}

/** The URL when it is the service's authorization page, else undefined. */
function authorizationPage(href: string, emulatorBase: string): URL | undefined {
  return href.startsWith(`${emulatorBase}/auth?`) ? new URL(href) : undefined;
}

/** Whether the page's text or markup holds the canary. */
async function pageShows(page: Page, canary: string): Promise<boolean> {
  const [html, text] = await Promise.all([page.content(), page.evaluate(() => document.body?.innerText ?? '')]);
  return html.includes(canary) || text.includes(canary);
}

/** Where the page refers to the picture URL: an element's attribute or style. */
async function pictureUsesOn(page: Page): Promise<string[]> {
  return page.evaluate((picture) => {
    const uses: string[] = [];
    for (const element of Array.from(document.querySelectorAll('*'))) {
      for (const attribute of Array.from(element.attributes)) {
        if (attribute.value.includes(picture)) uses.push(`<${element.tagName.toLowerCase()} ${attribute.name}="${attribute.value.slice(0, 120)}">`);
      }
      const background = getComputedStyle(element).backgroundImage;
      if (background.includes(picture)) uses.push(`<${element.tagName.toLowerCase()}> background-image ${background.slice(0, 120)}`);
    }
    return uses;
  }, NOT_AN_IMAGE_PICTURE);
}

/** Runs `action` and waits until the main frame navigates because of it. */
async function navigated(page: Page, deadline: number, action: () => Promise<void>, doing: string): Promise<void> {
  const navigation = page.waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: remaining(deadline) });
  await action();
  await navigation.catch(() => {
    throw new Error(`${doing} led nowhere: the page did not navigate`);
  });
}

/**
 * Waits until the page is done: loaded, its network quiet, and no navigation for a moment (a
 * relying party may answer with a page that moves on by itself).
 */
async function settle(page: Page, deadline: number): Promise<void> {
  for (;;) {
    let moved = false;
    const onNavigated = (frame: unknown) => {
      if (frame === page.mainFrame()) moved = true;
    };
    page.on('framenavigated', onNavigated);
    try {
      await page.waitForLoadState('load', { timeout: remaining(deadline) });
      await page.waitForLoadState('networkidle', { timeout: remaining(deadline) });
      await page.waitForTimeout(100);
    } finally {
      page.off('framenavigated', onNavigated);
    }
    if (!moved) return;
  }
}

/** Runs `work`, failing it when `deadline` passes first. */
async function withDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CaseTimeout()), remaining(deadline));
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}

class CaseTimeout extends Error {}

function remaining(deadline: number): number {
  return Math.max(1, deadline - Date.now());
}

function isTimeout(error: unknown): boolean {
  return error instanceof CaseTimeout || (error instanceof Error && error.name === 'TimeoutError');
}

function describeDriverError(error: unknown, url: string, timeoutMs: number): string {
  if (isTimeout(error)) {
    return `The case did not end within ${Math.round(timeoutMs / 1000)} s (the browser was at ${url}).`;
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return `The case could not be driven: ${message} (the browser was at ${url}).`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
