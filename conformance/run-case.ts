/**
 * One case, as one whole verification in a fresh browser context: open the relying party's start
 * URL, press its start control (findStartControl: by its test id, its name, or as the first submit
 * button), let the emulator answer the flow as the case says (its faults, and the case's canary as
 * the person's given name), complete the emulated identity app, and look at the page the relying
 * party ends on. What was seen goes to judge.ts.
 */
import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { NOT_AN_IMAGE_PICTURE } from '../lib/emulator/answer-faults';
import { captureCapped, newCaseContext } from './browser';
import type { ConformanceCase } from './cases';
import type { EmulatorQa, FlowTrace, JwksFetch } from './emulator-qa';
import { judge, type Observation, type Verdict } from './judge';

/** How a case is driven. */
export interface CaseSettings {
  clientId: string;
  startUrl: string;
  /** the start control (a CSS selector); default: found by findStartControl */
  startSelector?: string;
  /** how long the start page may take to show its start control, in ms; default START_CONTROL_WAIT_MS */
  startWaitMs?: number;
  /** the emulator persona whose document is verified */
  persona: string;
  /** the longest a case may take, in ms */
  caseTimeoutMs: number;
  /** the origins of the relying party (its start URL's and its redirect URIs') */
  relyingPartyOrigins: ReadonlySet<string>;
  /** the folder the screenshots go to */
  outDir: string;
  /** the run that arms client faults: the emulator lets it disarm only its own */
  owner: string;
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
  /** the title of the page it ended on */
  finalTitle?: string;
  /** the start of that page's visible text (its main element's, when it has one) */
  finalText?: string;
  /** the start control the kit pressed, described for a person (findStartControl) */
  startControl?: string;
  /** the screenshot of the page it ended on, relative to the output folder */
  screenshot?: string;
  /** why the screenshot is cut, the viewport only, or absent (browser.ts captureCapped) */
  screenshotNote?: string;
  /** the flow as the emulator saw it */
  flow?: FlowTrace;
  /** the JWKS responses during the case */
  jwksFetches: JwksFetch[];
  /** when the relying party last fetched the JWKS to check this case's ID token */
  relyingPartyJwksFetchAt?: number;
  /** the main frame's navigations, in order */
  navigations: string[];
  /** the browser could not load a page and the case ended on its error page (the runner runs it once more) */
  browserFailed?: boolean;
  /**
   * The relying party asked the kit to slow down before the flow began (a page answered 429): the
   * seconds its Retry-After asked for (a default when it gave none). The runner waits and runs
   * the case again.
   */
  slowDown?: number;
}

/** How long to wait after a 429 without a usable Retry-After. */
const DEFAULT_SLOW_DOWN_SECONDS = 10;

/** The start control of last resort: the first submit button of the page. */
export const DEFAULT_START_SELECTOR = 'button[type="submit"], form button:not([type]), input[type="submit"], input[type="image"]';

/**
 * The accessible names a start control has: Start, Verify, Log in, Sign in (English), Start,
 * Verifiser, Logg inn (Norwegian), as whole words in any case ("Start verification", "Verify
 * with ID"; not "Restart" nor "Starting").
 */
export const START_CONTROL_NAME = /\b(?:start|verify|log ?in|sign ?in|verifiser|logg inn)\b/i;

/**
 * How long the start page may take to show a start control after it loaded: a page rendered by
 * its own script shows its controls only then.
 */
export const START_CONTROL_WAIT_MS = 5_000;

/** The start control the kit presses. */
export interface StartControl {
  locator: Locator;
  /** what it is, for a person: `button "Start verification"`, `[data-testid="start"] "Verify"` */
  description: string;
}

/** One place the kit looks for the start control. */
interface StartCandidate {
  /** what it looks for, for a person */
  lookedFor: string;
  /** how a control found there is named, before its name */
  kind: string;
  locate(page: Page): Locator;
}

/** Where the kit looks for the start control when none is given, in order. */
const DEFAULT_START_CANDIDATES: readonly StartCandidate[] = [
  { lookedFor: 'an element with data-testid="start"', kind: '[data-testid="start"]', locate: (page) => page.getByTestId('start') },
  {
    lookedFor: 'a button named Start, Verify, Log in, Sign in, Verifiser or Logg inn',
    kind: 'button',
    locate: (page) => page.getByRole('button', { name: START_CONTROL_NAME }),
  },
  {
    lookedFor: 'a link so named (not one within the page)',
    kind: 'link',
    // A link within the page ("Skip to Start verification") moves the focus, never starts anything.
    locate: (page) => page.getByRole('link', { name: START_CONTROL_NAME }).and(page.locator(':not([href^="#"])')),
  },
  { lookedFor: 'the first submit button', kind: 'submit button', locate: (page) => page.locator(DEFAULT_START_SELECTOR) },
];

/** Where the kit looks for the start control: the given selector alone, else the defaults. */
function startCandidates(startSelector: string | undefined): readonly StartCandidate[] {
  if (startSelector === undefined) return DEFAULT_START_CANDIDATES;
  return [{ lookedFor: `an element matching ${startSelector}`, kind: startSelector, locate: (page) => page.locator(startSelector) }];
}

/** What the kit looks for as the start control, in order, for a person (a driver error, a run's header). */
export function startControlSearch(startSelector?: string): string[] {
  return startCandidates(startSelector).map((candidate) => candidate.lookedFor);
}

/**
 * The start control of the page: the first visible of `startSelector` when given; else, in
 * order, an element with data-testid="start", a button named like START_CONTROL_NAME, a link so
 * named (not one within the page), the first submit button. Waits up to `waitMs` for one to be
 * visible; undefined when none is.
 */
export async function findStartControl(page: Page, options: { startSelector?: string; waitMs?: number } = {}): Promise<StartControl | undefined> {
  const candidates = startCandidates(options.startSelector).map((candidate) => ({ ...candidate, locator: candidate.locate(page) }));
  // Waits for any of them, then takes the first place in order that shows one.
  const any = candidates.map((candidate) => candidate.locator).reduce((either, next) => either.or(next));
  const shown = await any
    .filter({ visible: true })
    .first()
    .waitFor({ state: 'visible', timeout: options.waitMs ?? START_CONTROL_WAIT_MS })
    .then(() => true)
    .catch((error: unknown) => {
      if (isTimeout(error)) return false;
      throw error;
    });
  if (!shown) return undefined;
  for (const candidate of candidates) {
    const locator = candidate.locator.filter({ visible: true }).first();
    if ((await locator.count()) === 0) continue;
    const name = await locator.evaluate(accessibleName).catch(() => '');
    const shownName = plainText(name, 80);
    return { locator, description: shownName ? `${candidate.kind} "${shownName}"` : candidate.kind };
  }
  return undefined;
}

/**
 * An element's accessible name, nearly as a screen reader gives it: aria-label, aria-labelledby,
 * an input's value or alt, its text, its title. Runs in the page.
 */
function accessibleName(element: Element): string {
  const label = element.getAttribute('aria-label');
  if (label?.trim()) return label;
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = labelledBy
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' ');
    if (text.trim()) return text;
  }
  if (element instanceof HTMLInputElement) return element.value || element.alt || element.title;
  const text = element instanceof HTMLElement ? element.innerText : (element.textContent ?? '');
  return text.trim() ? text : (element.getAttribute('title') ?? '');
}

/**
 * Text of the relying party's page, fit for a terminal line and a report: control characters
 * (a terminal's escape sequences) and bidirectional overrides become spaces, runs of white space
 * one space, and at most `max` characters are kept.
 */
function plainText(text: string, max: number): string {
  const plain = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1).trimEnd()}…` : plain;
}

/** How much of the final page's visible text a result keeps: enough to recognise an error page. */
const FINAL_TEXT_CHARACTERS = 200;

/** How long the kit waits for what it reads of the final page: a page busy in a loop must not hold the run. */
const READ_PAGE_TIMEOUT_MS = 5_000;

/**
 * A given name nobody has: "Canary" and eight random letters, so finding it on a page cannot be
 * an accident, nor left over from another case.
 */
export function makeCanary(): string {
  const letters = Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('');
  return `Canary${letters.charAt(0).toUpperCase()}${letters.slice(1)}`;
}

/** Runs one case; never throws for what the relying party or the emulator does. */
export async function runCase(
  browser: Browser,
  qa: EmulatorQa,
  settings: CaseSettings,
  testCase: ConformanceCase,
  seenStates: Set<string>,
): Promise<CaseResult> {
  const canary = makeCanary();
  const startedAt = Date.now();
  const context = await newCaseContext(browser);
  const page = await context.newPage();
  const navigations: string[] = [];
  const serverErrors: { status: number; url: string }[] = [];
  const pictureUses: string[] = [];
  let slowDown: number | undefined;
  let failedNavigation: { url: string; errorText: string } | undefined;
  page.on('requestfailed', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      failedNavigation = { url: request.url(), errorText: request.failure()?.errorText ?? 'an unknown error' };
    }
  });
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
  await page.route(
    (url) => url.href.startsWith(new URL(NOT_AN_IMAGE_PICTURE).origin),
    async (route) => {
      pictureUses.push(`the browser requested ${route.request().url()}`);
      await route.abort('addressunreachable');
    },
  );

  let state: string | undefined;
  let reachedService = false;
  let driverError: string | undefined;
  let hung: string | undefined;
  let startControl: StartControl | undefined;
  let startPageUrl: string | undefined;
  /** where the case is: a timeout while the relying party works is the relying party's */
  const at: { phase: 'opening' | 'starting' | 'service' | 'returning' } = { phase: 'opening' };
  const clientFaults = testCase.armedFor === 'client' ? testCase.faults : [];
  try {
    for (const fault of clientFaults) await qa.armFault(fault, settings.clientId, settings.owner);
    const deadline = startedAt + settings.caseTimeoutMs;
    const outcome = await withDeadline(deadline, async () => {
      await page.goto(settings.startUrl, { timeout: remaining(deadline) });
      startControl = await findStartControl(page, {
        ...(settings.startSelector === undefined ? {} : { startSelector: settings.startSelector }),
        waitMs: Math.min(settings.startWaitMs ?? START_CONTROL_WAIT_MS, remaining(deadline)),
      });
      if (!startControl) {
        const lookedFor = startControlSearch(settings.startSelector);
        return `The start page ${page.url()} shows no start control: the kit looked for ${lookedFor.join('; then ')}.${settings.startSelector === undefined ? ' Give its start control with --start-selector.' : ''}`;
      }
      const start = startControl;
      startPageUrl = page.url();
      at.phase = 'starting';
      await navigated(page, deadline, () => start.locator.click({ timeout: remaining(deadline) }), `pressing the start control (${start.description})`);
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
  // Chromium shows its own error page for a navigation that failed (connection refused or reset).
  const browserFailure =
    finalUrl.startsWith('chrome-error:') && failedNavigation !== undefined
      ? { ...failedNavigation, relyingParty: settings.relyingPartyOrigins.has(originOf(failedNavigation.url)) }
      : undefined;
  const [canarySeen, pagePictureUses, finalPage] = await Promise.all([
    within(READ_PAGE_TIMEOUT_MS, pageShows(page, canary)).then((shows) => shows ?? false),
    // Only the picture case sends the picture URL: no other case's page can refer to it, and the
    // search reads every element's computed style.
    testCase.expect === 'portrait_not_shown' ? within(READ_PAGE_TIMEOUT_MS, pictureUsesOn(page)).then((uses) => uses ?? []) : Promise.resolve([]),
    within(READ_PAGE_TIMEOUT_MS, describePage(page)),
  ]);
  pictureUses.push(...pagePictureUses);
  const screenshot = `${testCase.id}.png`;
  const captured = await captureCapped(page);
  const screenshotSaved =
    captured.png !== undefined &&
    (await writeFile(join(settings.outDir, screenshot), captured.png)
      .then(() => true)
      .catch(() => false));
  await context.close().catch(() => undefined);

  // The flow as the emulator saw it: by the state it gave back, or (a PAR fault) the new flow of this client.
  state ??= (await qa.flowsSince(settings.clientId, startedAt - 60_000).catch(() => [])).find((candidate) => !seenStates.has(candidate));
  if (state !== undefined) seenStates.add(state);
  // A flow the QA API could not read is not one it says was left alone: the verdict says which.
  let flowUnread: string | undefined;
  const flow =
    state === undefined
      ? undefined
      : await qa.flow(state).catch((error: unknown) => {
          flowUnread = error instanceof Error ? error.message : String(error);
          return undefined;
        });
  // A client fault the relying party never reached must not spoil whatever comes next.
  const applied = flow?.faults.map((fault) => fault.id) ?? [];
  for (const fault of clientFaults) if (!applied.includes(fault)) await qa.disarmFault(fault, settings.owner).catch(() => undefined);
  const endedAt = Date.now();
  const jwksFetches = (await qa.jwksFetches().catch(() => [])).filter((fetch) => fetch.at >= startedAt && fetch.at <= endedAt);
  // The relying party's own fetches: those after the service answered its token request, while it
  // checks the ID token. (JWKS requests name nobody; a health check of its own may fetch too.)
  const tokenAt = flow?.events.find((event) => event.step === 'token')?.at;
  const relyingPartyFetches = tokenAt === undefined ? [] : jwksFetches.filter((fetch) => fetch.at >= tokenAt);

  if (slowDown !== undefined && flow === undefined) {
    // Nothing reached the service: the case did not happen, and runs again once allowed.
    return {
      testCase,
      verdict: { status: 'error', reason: `The relying party answered 429 before the flow began (asking for ${slowDown} s).` },
      canary,
      startedAt,
      durationMs: endedAt - startedAt,
      finalUrl,
      jwksFetches,
      navigations,
      slowDown,
    };
  }
  const pageFacts = {
    ...(startControl ? { startControl: startControl.description } : {}),
    ...(finalPage?.title ? { finalTitle: finalPage.title } : {}),
    ...(finalPage?.text ? { finalText: finalPage.text } : {}),
  };
  const seen: Observation = {
    ...(driverError === undefined ? {} : { driverError }),
    ...(hung === undefined ? {} : { hung }),
    ...(browserFailure === undefined ? {} : { browserFailure }),
    reachedService,
    ...pageFacts,
    ...(startPageUrl === undefined ? {} : { startPageUrl }),
    finalUrl,
    canarySeen,
    serverErrors,
    pictureUses,
    flowSeen: flow !== undefined,
    ...(flowUnread === undefined ? {} : { flowUnread }),
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
    ...pageFacts,
    ...(screenshotSaved ? { screenshot } : {}),
    ...(captured.note === undefined ? {} : { screenshotNote: captured.note }),
    ...(flow ? { flow } : {}),
    jwksFetches,
    ...(relyingPartyFetches[0] ? { relyingPartyJwksFetchAt: Math.max(...relyingPartyFetches.map((fetch) => fetch.at)) } : {}),
    navigations,
    ...(browserFailure === undefined ? {} : { browserFailed: true }),
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

/** The page's title, and the start of its visible text: its main element's, else its body's (no navigation, no skip link). */
async function describePage(page: Page): Promise<{ title: string; text: string }> {
  const { title, text } = await page.evaluate(() => ({
    title: document.title,
    text: (document.querySelector<HTMLElement>('main, [role="main"]') ?? document.body)?.innerText ?? '',
  }));
  return { title: plainText(title, 120), text: plainText(text, FINAL_TEXT_CHARACTERS) };
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

/** What `work` gives, or undefined when it fails or takes longer than `ms` (it goes on, unawaited). */
async function within<T>(ms: number, work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

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
