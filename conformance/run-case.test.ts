import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as playwrightRequest, type APIRequestContext, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, newCaseContext, pngSize } from './browser';
import { BASELINE_CASE } from './cases';
import { EmulatorQa } from './emulator-qa';
import { findStartControl, runCase, startControlSearch } from './run-case';

const html = (body: string, title = 'Relying party') => `<!doctype html><html lang="en"><head><title>${title}</title></head><body>${body}</body></html>`;

/** The relying party's pages: each start page, and where its controls lead. */
const pages: Record<string, string> = {
  // The first submit button picks a preset; Start has no test id.
  '/preset-first': html(`
    <form action="/preset"><button type="submit">Use preset</button></form>
    <form action="/started"><button type="submit">Start verification</button></form>`),
  '/test-id': html(`
    <form action="/started"><button type="submit">Start now</button></form>
    <form action="/started"><button type="submit" data-testid="start">Verify</button></form>`),
  '/hidden-test-id': html(`
    <button data-testid="start" style="display:none">Verify</button>
    <form action="/started"><button type="submit">Start verification</button></form>`),
  '/log-in-link': html(`
    <a href="#main">Skip to Start verification</a>
    <main id="main"><p>Welcome.</p><a href="/started">Log in</a></main>`),
  '/norwegian': html(`<form action="/started"><input type="submit" value="Verifiser med BankID"></form>`),
  '/whole-words': html(`
    <button type="button">Restart the tour</button>
    <button type="button">Starting soon</button>
    <form action="/started"><button>Send</button></form>`),
  '/late': html(`<script>setTimeout(() => { document.body.insertAdjacentHTML('beforeend', '<a href="/started">Sign in</a>'); }, 300);</script>`),
  '/nothing': html(`<p>Nothing to press here.</p><button type="button" style="visibility:hidden">Start</button>`),
  '/try-it': html(`<form action="/failure"><button type="submit" data-testid="try">Try it</button></form>`),
  '/failure': html(
    `<nav>Home · About</nav><main><h1>Verification failed</h1><p>The service could not confirm who you are.\u001b[31m Code: id_token_invalid.</p><p>${'More text. '.repeat(40)}</p></main>`,
    'Verification failed',
  ),
  '/drops': html(`<form action="/dropped"><button type="submit">Start verification</button></form>`),
  '/started': html('<h1>Started</h1>'),
  '/preset': html('<h1>Preset chosen</h1>'),
};

let browser: Browser;
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    // A relying party that drops the connection without an answer.
    if (path === '/dropped') return void request.socket.destroy();
    const page = pages[path];
    if (page === undefined) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Fails, saying how to install Chromium, when it is missing: these tests need a real browser.
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('findStartControl', () => {
  let context: BrowserContext;
  let page: Page;

  beforeEach(async () => {
    context = await newCaseContext(browser);
    page = await context.newPage();
  });

  afterEach(async () => {
    await context.close();
  });

  /** Opens `path`, finds its start control, presses it, and gives what was pressed and where it led. */
  async function press(path: string): Promise<{ description: string; landed: string }> {
    await page.goto(`${origin}${path}`);
    const start = await findStartControl(page, { waitMs: 2_000 });
    expect(start, `a start control on ${path}`).toBeDefined();
    await Promise.all([page.waitForURL((url) => url.pathname !== path, { timeout: 5_000 }), start!.locator.click()]);
    return { description: start!.description, landed: new URL(page.url()).pathname };
  }

  it('presses the button named Start, not the first submit button (a preset)', async () => {
    expect(await press('/preset-first')).toEqual({ description: 'button "Start verification"', landed: '/started' });
  });

  it('presses the element with data-testid="start" before any button named Start', async () => {
    expect(await press('/test-id')).toEqual({ description: '[data-testid="start"] "Verify"', landed: '/started' });
  });

  it('passes over a hidden data-testid="start" for a visible button named Start', async () => {
    expect(await press('/hidden-test-id')).toEqual({ description: 'button "Start verification"', landed: '/started' });
  });

  it('follows a link named Log in, and not a skip link within the page named Start', async () => {
    expect(await press('/log-in-link')).toEqual({ description: 'link "Log in"', landed: '/started' });
  });

  it('knows the Norwegian names, on an input[type=submit]', async () => {
    expect(await press('/norwegian')).toEqual({ description: 'button "Verifiser med BankID"', landed: '/started' });
  });

  it('matches whole words only ("Restart", "Starting" are not Start), then takes the first submit button', async () => {
    expect(await press('/whole-words')).toEqual({ description: 'submit button "Send"', landed: '/started' });
  });

  it('waits for a control the page shows by its own script after it loaded', async () => {
    expect(await press('/late')).toEqual({ description: 'link "Sign in"', landed: '/started' });
  });

  it('takes only the given selector when one is given', async () => {
    await page.goto(`${origin}/preset-first`);
    const start = await findStartControl(page, { startSelector: 'form[action="/preset"] button', waitMs: 2_000 });
    expect(start?.description).toBe('form[action="/preset"] button "Use preset"');
    await page.goto(`${origin}/nothing`);
    expect(await findStartControl(page, { startSelector: '#start', waitMs: 200 })).toBeUndefined();
  });

  it('finds nothing on a page without a visible start control', async () => {
    await page.goto(`${origin}/nothing`);
    expect(await findStartControl(page, { waitMs: 300 })).toBeUndefined();
  });
});

describe('startControlSearch', () => {
  it('lists where the kit looks, in order, or the given selector alone', () => {
    expect(startControlSearch()).toEqual([
      'an element with data-testid="start"',
      'a button named Start, Verify, Log in, Sign in, Verifiser or Logg inn',
      'a link so named (not one within the page)',
      'the first submit button',
    ]);
    expect(startControlSearch('#go')).toEqual(['an element matching #go']);
  });
});

describe('runCase, against a relying party that never reaches the service', () => {
  let api: APIRequestContext;
  let outDir: string;
  /** An emulator that answers nothing (404): the case never gets as far as needing it. */
  let qa: EmulatorQa;

  beforeAll(async () => {
    api = await playwrightRequest.newContext();
    qa = new EmulatorQa(api, `${origin}/emulator`);
    outDir = await mkdtemp(join(tmpdir(), 'run-case-test-'));
  });

  afterAll(async () => {
    await api?.dispose();
    await rm(outDir, { recursive: true, force: true });
  });

  /** The settings of a case against `path`; `owner` is for runs that arm client faults, which the normal case does not. */
  const settingsFor = (path: string, startSelector?: string) => ({
    clientId: 'test-rp',
    startUrl: `${origin}${path}`,
    ...(startSelector === undefined ? {} : { startSelector }),
    persona: 'default',
    caseTimeoutMs: 15_000,
    relyingPartyOrigins: new Set([origin]),
    outDir,
    owner: 'run-case-test',
  });

  it('says what it pressed and the page it ended on, by its URL, title and text, when the normal case fails', async () => {
    const result = await runCase(browser, qa, settingsFor('/try-it', '[data-testid="try"]'), BASELINE_CASE, new Set());
    expect(result.startControl).toBe('[data-testid="try"] "Try it"');
    expect(result.finalUrl).toBe(`${origin}/failure?`);
    expect(result.finalTitle).toBe('Verification failed');
    // Its main element's text, control characters gone, cut at 200 characters.
    expect(result.finalText).toMatch(/^Verification failed The service could not confirm who you are\. \[31m Code: id_token_invalid\. More text\./);
    expect(result.finalText).toHaveLength(200);
    expect(result.verdict).toEqual({
      status: 'fail',
      reason: `Refused a verification it must accept: the kit pressed [data-testid="try"] "Try it" on ${origin}/try-it and ended on ${origin}/failure? ("Verification failed": ${result.finalText}); the verified given name never appears there.`,
    });
    expect(result.screenshot).toBe('normal.png');
    expect(pngSize(await readFile(join(outDir, 'normal.png')))).toEqual({ width: 1280, height: 900 });
  });

  it("fails the case when the relying party drops the browser's request, and says where and with what error; the runner may run it again", async () => {
    const result = await runCase(browser, qa, settingsFor('/drops'), BASELINE_CASE, new Set());
    expect(result.finalUrl).toMatch(/^chrome-error:/);
    expect(result.browserFailed).toBe(true);
    expect(result.verdict).toEqual({
      status: 'fail',
      reason: `The relying party did not answer the browser: loading ${origin}/dropped? failed with net::ERR_EMPTY_RESPONSE. A failure must be answered with a page that explains it.`,
    });
  });

  it('lists what it looked for when the start page shows no start control', async () => {
    const result = await runCase(browser, qa, { ...settingsFor('/nothing'), startWaitMs: 300 }, BASELINE_CASE, new Set());
    expect(result.startControl).toBeUndefined();
    expect(result.verdict).toEqual({
      status: 'error',
      reason:
        `The start page ${origin}/nothing shows no start control: the kit looked for an element with data-testid="start"; then a button named Start, Verify, Log in, ` +
        'Sign in, Verifiser or Logg inn; then a link so named (not one within the page); then the first submit button. Give its start control with --start-selector.',
    });
  });
});
