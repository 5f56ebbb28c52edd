import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  TEST_DEVICE_BASE_URL,
  createTestClient,
  createTestEmulator,
  formPost,
  openAppFromQrCode,
  openAuthorizationPage,
  redeemCode,
  type TestClient,
} from '@/test/support/emulator';
import type { Emulator } from '..';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

function newEmulator(now?: () => number): Emulator {
  return createTestEmulator({ clients: [client], deviceBaseUrl: TEST_DEVICE_BASE_URL, now });
}

/** An attribute value as the browser reads it (the pages escape `&` as `&#38;`). */
function attribute(html: string, testId: string, name: string): string {
  const tag = new RegExp(`<[^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0] ?? '';
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)![1]!.replaceAll('&#38;', '&');
}

function statusUrl(interaction: string, browser?: string): string {
  return `${TEST_BASE_URL}/auth/status?${new URLSearchParams(browser === undefined ? { interaction } : { interaction, browser })}`;
}

function continueUrl(interaction: string, browser?: string): string {
  return `${TEST_BASE_URL}/auth/continue?${new URLSearchParams(browser === undefined ? { interaction } : { interaction, browser })}`;
}

function get(emulator: Emulator, url: string, method = 'GET', headers: Record<string, string> = {}): Promise<Response> {
  return emulator.handle(new Request(url, { method, headers }));
}

/** A browser that reads Norwegian first. */
const NORWEGIAN = { 'Accept-Language': 'nb-NO,nb;q=0.9,en;q=0.5' };

/** What the QR code encodes: the app at the device URL, with nothing but the interaction id. */
function qrUrl(interaction: string): string {
  return `${TEST_DEVICE_BASE_URL}/app/${interaction}`;
}

/** The app on a phone that opened the QR link: the link with the phone's device secret. */
function phoneUrl(interaction: string, device: string, step?: string): string {
  return `${qrUrl(interaction)}?${new URLSearchParams(step === undefined ? { device } : { device, step })}`;
}

/** GET /auth/page: the authorization page again, for the starting browser. */
function pageUrl(interaction: string, browser: string, query: Record<string, string> = {}): string {
  return `${TEST_BASE_URL}/auth/page?${new URLSearchParams({ interaction, browser, ...query })}`;
}

/** The code a waiting phone shows: two groups of three letters of RFC 8628's base-20 alphabet. */
function shownCode(html: string): string {
  const code = /data-testid="phone-code">([^<]*)</.exec(html)?.[1];
  expect(code, 'the code on the phone').toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{3}-[BCDFGHJKLMNPQRSTVWXZ]{3}$/);
  return code!;
}

/**
 * A phone opens the QR code: the bare link makes it a waiting phone (303 to the same link with
 * the phone's own device secret), whose screen shows its code and nothing of the app.
 */
async function phoneOpensLink(emulator: Emulator, interaction: string): Promise<{ device: string; code: string }> {
  const { device, location } = await openAppFromQrCode(emulator, qrUrl(interaction));
  expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(location).toBe(phoneUrl(interaction, device));
  const screen = await get(emulator, location);
  expect(screen.status).toBe(200);
  const html = await screen.text();
  expect(html).toContain('data-testid="app-confirm"');
  expect(html).not.toContain('data-testid="app-step"');
  return { device, code: shownCode(html) };
}

/** The starting browser types `code` into the confirmation form (a post to the app with its browser secret). */
function computerTypes(emulator: Emulator, interaction: string, browser: string, code: string, headers: Record<string, string> = {}): Promise<Response> {
  const request = formPost(`${TEST_BASE_URL}/app/${interaction}`, { browser, action: 'confirm-phone', code });
  for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
  return emulator.handle(request);
}

/**
 * A phone opens the QR code and the starting browser confirms it with the code it shows: 303 to
 * the authorization page. Returns the phone's device secret.
 */
async function openPhone(emulator: Emulator, interaction: string, browser: string): Promise<string> {
  const { device, code } = await phoneOpensLink(emulator, interaction);
  const confirmed = await computerTypes(emulator, interaction, browser, code);
  expect(confirmed.status).toBe(303);
  expect(confirmed.headers.get('location')).toBe(pageUrl(interaction, browser));
  expect((await get(emulator, phoneUrl(interaction, device))).status).toBe(200);
  return device;
}

/** A phone's button press in the app opened from the QR code: the device secret, no browser secret. */
function phonePress(emulator: Emulator, interaction: string, device: string, fields: Record<string, string>): Promise<Response> {
  return emulator.handle(formPost(qrUrl(interaction), { ...fields, device }));
}

/**
 * The phone (confirmed as `device`) runs the app to the end as `persona` and presses `outcome`; an
 * approval carries the persona the screen showed, as the Share and End verification forms do.
 */
async function phoneCompletes(emulator: Emulator, interaction: string, device: string, persona: string, outcome: 'approve' | 'cancel'): Promise<Response> {
  const steps: Array<Record<string, string>> = [
    { action: 'choose-document', persona },
    { action: 'scan-document' },
    { action: 'read-chip' },
    { action: 'check-face' },
  ];
  for (const fields of steps) {
    expect((await phonePress(emulator, interaction, device, fields)).status).toBe(303);
  }
  return phonePress(emulator, interaction, device, outcome === 'approve' ? { outcome, persona } : { outcome });
}

/** Opens the app on a phone from the QR code, confirms it, and runs it to the end: the phone side of a flow. */
async function phoneOpensAndCompletes(
  emulator: Emulator,
  interaction: string,
  browser: string,
  persona: string,
  outcome: 'approve' | 'cancel',
): Promise<Response> {
  return phoneCompletes(emulator, interaction, await openPhone(emulator, interaction, browser), persona, outcome);
}

async function status(emulator: Emulator, interaction: string, browser: string): Promise<Record<string, unknown>> {
  const response = await get(emulator, statusUrl(interaction, browser));
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return response.json();
}

async function expectErrorPage(response: Response, status: number, description: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  const html = await response.text();
  expect(html).toContain('<code data-testid="error-code">invalid_request</code>');
  expect(html).toMatch(description);
}

describe('the authorization page hands the user to the app (spec part 1, step 4)', () => {
  it('shows a QR code (inline SVG) for the app at the device URL, and prints that URL only when asked to ("Show the link")', async () => {
    const emulator = newEmulator();
    const { html, interaction, browser } = await openAuthorizationPage(emulator, client);
    const link = `${TEST_DEVICE_BASE_URL}/app/${interaction}`;
    expect(html).toMatch(
      /<svg role="img" aria-label="QR code that opens the ID Check app on your phone" focusable="false" xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+" shape-rendering="crispEdges"><path /,
    );
    // A shared screen shows the QR code alone: the link is nowhere in the page's HTML.
    expect(html).not.toContain(link);
    expect(html).not.toContain('data-testid="device-url"');
    expect(attribute(html, 'show-device-link', 'href')).toBe(pageUrl(interaction, browser, { link: 'shown' }));
    expect(html).toContain('able to reach <code>http://192.168.1.20:3000</code>');

    const shown = await get(emulator, pageUrl(interaction, browser, { link: 'shown' }));
    expect(shown.status).toBe(200);
    const shownHtml = await shown.text();
    expect(shownHtml).toContain(`<code data-testid="device-url">${link}</code>`);
    expect(attribute(shownHtml, 'hide-device-link', 'href')).toBe(pageUrl(interaction, browser));
    // The language switch keeps it shown; the page without `link=shown` hides it again.
    expect(/name="return_to" value="([^"]*)"/.exec(shownHtml)![1]!.replaceAll('&#38;', '&')).toBe(
      `/emulator/auth/page?interaction=${interaction}&browser=${browser}&link=shown`,
    );
    expect(await (await get(emulator, pageUrl(interaction, browser))).text()).not.toContain(link);
  });

  it('keeps the browser secret out of the QR code: only the same-device link, status, continue, the confirmation and the quick test carry it', async () => {
    const emulator = newEmulator();
    const { html, interaction, browser } = await openAuthorizationPage(emulator, client);
    expect(attribute(html, 'use-app-on-this-device', 'href')).toBe(`${TEST_BASE_URL}/app/${interaction}?browser=${browser}`);
    expect(attribute(html, 'continue-after-phone', 'href')).toBe(continueUrl(interaction, browser));
    expect(/data-status-url="([^"]+)"/.exec(html)![1]!.replaceAll('&#38;', '&')).toBe(statusUrl(interaction, browser));
    // The confirmation posts to the app on the issuer, the secret in the body rather than the URL.
    expect(html).toContain(
      `<form class="confirm-phone" method="post" action="${TEST_BASE_URL}/app/${interaction}" data-testid="confirm-phone-form">\n<input type="hidden" name="browser" value="${browser}">\n<input type="hidden" name="action" value="confirm-phone">`,
    );
    expect(browser).not.toBe(interaction);
    expect(browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const shown = await (await get(emulator, pageUrl(interaction, browser, { link: 'shown' }))).text();
    expect(/data-testid="device-url">([^<]*)</.exec(shown)![1]).not.toContain(browser);
  });

  it('labels the code field, says what to type, and marks a refused code at the field', async () => {
    const emulator = newEmulator();
    const { html, interaction, browser } = await openAuthorizationPage(emulator, client);
    expect(html).toContain('<label for="phone-code">Code shown on your phone</label>');
    expect(html).toContain('<p id="phone-code-hint" class="hint">Six letters, as your phone shows them; the dash is optional.</p>');
    expect(html).toMatch(/<input id="phone-code" name="code" type="text" required [^>]*aria-describedby="phone-code-hint" data-testid="phone-code-input">/);
    expect(html).toContain('<li>Your phone shows a code: type it below, so that only your phone can continue.</li>');

    await phoneOpensLink(emulator, interaction);
    const wrong = await computerTypes(emulator, interaction, browser, 'XXX-XXX');
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('<p id="phone-code-error" class="field-error" role="alert" data-testid="phone-code-error">');
    expect(wrongHtml).toMatch(
      /<input id="phone-code" [^>]*aria-describedby="phone-code-hint phone-code-error" aria-invalid="true" autofocus data-testid="phone-code-input">/,
    );
  });

  it('loads one external script, allowed by the CSP together with the status endpoint, and serves it as JavaScript', async () => {
    const emulator = newEmulator();
    const { html } = await openAuthorizationPage(emulator, client);
    expect(html).toContain(`<script src="${TEST_BASE_URL}/assets/auth-page.js" defer></script>`);

    const script = await get(emulator, `${TEST_BASE_URL}/assets/auth-page.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    const source = await script.text();
    expect(source).toContain("document.querySelector('[data-status-url]')");
    expect(source).toContain('window.location.assign(next.href)');
  });
});

describe('cross-device: the app on a phone, the continuation in the starting browser', () => {
  it('reports the phone’s progress, then continues (303) to the client with code, state and iss', async () => {
    const emulator = newEmulator();
    const { interaction, browser, codeVerifier } = await openAuthorizationPage(emulator, client);
    expect(await status(emulator, interaction, browser)).toEqual({ status: 'waiting', steps: 5, message: 'Waiting for your phone…' });

    // The bare QR link makes the phone a waiting one: 303 to the same link with its own device secret.
    const { device, location } = await openAppFromQrCode(emulator, qrUrl(interaction));
    expect(location).toBe(phoneUrl(interaction, device));
    expect(location).not.toContain(browser);
    const opened = await get(emulator, location);
    expect(opened.status).toBe(200);
    const openedHtml = await opened.text();
    expect(openedHtml).not.toContain(browser);
    expect(await status(emulator, interaction, browser)).toEqual({
      status: 'confirming',
      steps: 5,
      message: 'A phone opened the link: type the code it shows to confirm it.',
    });

    const confirmed = await computerTypes(emulator, interaction, browser, shownCode(openedHtml));
    expect(confirmed.status).toBe(303);
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'in_progress', step: 1, steps: 5 });

    const shared = await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve');
    // The phone is never sent to the client: it gets the "done" screen of the app.
    expect(shared.status).toBe(303);
    expect(shared.headers.get('location')).toBe(phoneUrl(interaction, device));
    const done = await get(emulator, shared.headers.get('location')!);
    expect(done.status).toBe(200);
    const doneHtml = await done.text();
    expect(doneHtml).toContain('data-testid="app-done"');
    expect(doneHtml).toContain('<h1>Done — return to your computer</h1>');
    expect(doneHtml).not.toContain(browser);

    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'decided' });

    const continued = await get(emulator, continueUrl(interaction, browser));
    expect(continued.status).toBe(303);
    expect(continued.headers.get('referrer-policy')).toBe('no-referrer');
    const redirect = new URL(continued.headers.get('location')!);
    expect(redirect.origin + redirect.pathname).toBe(client.redirectUri);
    expect(redirect.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(redirect.searchParams.get('state')).toBe('state-0123456789abcdef0123456789ab');
    expect(redirect.searchParams.get('iss')).toBe(TEST_BASE_URL);
    expect((await redeemCode(emulator, client, { redirect, codeVerifier })).status).toBe(200);

    // Reloading the app on the phone afterwards shows that it is complete.
    const reloaded = await get(emulator, phoneUrl(interaction, device));
    expect(reloaded.status).toBe(200);
    expect(await reloaded.text()).toContain('data-testid="app-finished"');
  });

  it('refuses to continue without the browser secret (400) or with a wrong one (403), and keeps the decision for the right one', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await phoneOpensAndCompletes(emulator, interaction, browser, 'ingrid-haugen', 'approve');

    await expectErrorPage(await get(emulator, continueUrl(interaction)), 400, /required parameter &#39;browser&#39; is missing/);
    await expectErrorPage(await get(emulator, continueUrl(interaction, 'x'.repeat(43))), 403, /browser secret does not match/);
    await expectErrorPage(await get(emulator, continueUrl(interaction, `${browser}x`)), 403, /browser secret does not match/);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('delivers the redirect once: a second continuation is refused', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await phoneOpensAndCompletes(emulator, interaction, browser, 'ingrid-haugen', 'approve');
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
    await expectErrorPage(await get(emulator, continueUrl(interaction, browser)), 400, /already been completed/);
    // A page still polling is told so (200: a browser logs every 4xx answer as an error).
    const after = await get(emulator, statusUrl(interaction, browser));
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'completed', message: 'this verification has already been completed' });
  });

  it('does not use up the delivery on HEAD', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await phoneOpensAndCompletes(emulator, interaction, browser, 'ingrid-haugen', 'approve');
    expect((await get(emulator, continueUrl(interaction, browser), 'HEAD')).status).toBe(204);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('before the phone has finished, shows the page again (409) with a message, and continues later', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const early = await get(emulator, continueUrl(interaction, browser));
    expect(early.status).toBe(409);
    expect(await early.text()).toContain('role="alert">The app has not been opened on a phone yet');

    const { device, code } = await phoneOpensLink(emulator, interaction);
    const waiting = await get(emulator, continueUrl(interaction, browser));
    expect(waiting.status).toBe(409);
    expect(await waiting.text()).toContain('role="alert">A phone has opened the link, but it is not confirmed yet. Type the code it shows');

    expect((await computerTypes(emulator, interaction, browser, code)).status).toBe(303);
    const opened = await get(emulator, continueUrl(interaction, browser));
    expect(opened.status).toBe(409);
    const html = await opened.text();
    expect(html).toContain('role="alert">The app on your phone has not finished yet');
    expect(html).toContain('data-testid="device-status">Your phone is at step 1 of 5: choose your document.</p>');

    expect(html).not.toContain(device);
    expect(html).not.toContain(code);

    await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve');
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('issues the code when the browser continues, so a decision older than the code lifetime still works', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const page = await openAuthorizationPage(emulator, client, { now: clock });
    await phoneOpensAndCompletes(emulator, page.interaction, page.browser, 'ingrid-haugen', 'approve');
    clock += 120_000;
    const redirect = new URL((await get(emulator, continueUrl(page.interaction, page.browser))).headers.get('location')!);
    expect((await redeemCode(emulator, client, { redirect, codeVerifier: page.codeVerifier }, { now: clock })).status).toBe(200);
  });

  it.each([
    ['cancels', 'ingrid-haugen', 'cancel', 'the user cancelled the verification'],
    ['fails the face check', 'tobias-hansen', 'approve', 'the face check failed: the face did not match the portrait on the document'],
  ] as const)('when the phone %s, the continuation brings access_denied to the client', async (_name, persona, outcome, description) => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const device = await openPhone(emulator, interaction, browser);
    const ended = await phoneCompletes(emulator, interaction, device, persona, outcome);
    expect(ended.headers.get('location')).toBe(phoneUrl(interaction, device));
    expect(await (await get(emulator, phoneUrl(interaction, device))).text()).toContain(`Reason: ${description}.`);
    const redirect = new URL((await get(emulator, continueUrl(interaction, browser))).headers.get('location')!);
    expect(Object.fromEntries(redirect.searchParams)).toEqual({
      error: 'access_denied',
      error_description: description,
      state: 'state-0123456789abcdef0123456789ab',
      iss: TEST_BASE_URL,
    });
  });

  it('keeps the decision once made: the phone cannot decide again, the quick test says to continue (409)', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const device = await openPhone(emulator, interaction, browser);
    await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'cancel');
    const again = await phonePress(emulator, interaction, device, { outcome: 'approve', persona: 'ingrid-haugen' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(phoneUrl(interaction, device));

    const quick = await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }));
    expect(quick.status).toBe(409);
    expect(await quick.text()).toContain('role="alert">You already finished in the identity app');

    const redirect = new URL((await get(emulator, continueUrl(interaction, browser))).headers.get('location')!);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
  });
});

describe('whoever sees the QR code cannot take over the redirect', () => {
  it('refuses the quick test form without the browser secret (400) or with a wrong one (403)', async () => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    const decide = (fields: Record<string, string>) => emulator.handle(formPost(`${TEST_BASE_URL}/auth`, fields));
    await expectErrorPage(await decide({ interaction, persona: 'ingrid-haugen', outcome: 'approve' }), 400, /required parameter &#39;browser&#39; is missing/);
    await expectErrorPage(await decide({ interaction, browser: 'guess', persona: 'ingrid-haugen', outcome: 'approve' }), 403, /browser secret does not match/);
  });

  it('gives the status only to the starting browser (JSON errors: 400 missing, 403 wrong; an unknown one is gone, 200)', async () => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    const missing = await get(emulator, statusUrl(interaction));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe('invalid_request');
    const wrong = await get(emulator, statusUrl(interaction, 'guess'));
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({
      error: 'invalid_request',
      error_description: 'the browser secret does not match: only the browser that started this verification can continue it',
    });
    const unknown = await get(emulator, statusUrl('forged', 'guess'));
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ status: 'gone', message: expect.stringMatching(/unknown or has expired/) });
  });
});

describe('a phone uses the app only once the starting browser confirms it by the code it shows', () => {
  it('refuses a phone that opened the QR link until its code is typed on the computer: its screens show the code, its buttons change nothing (403)', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const { device, code } = await phoneOpensLink(emulator, interaction);

    // "Continue" (the first step) and any other step: the code again, saying it is not confirmed yet.
    for (const step of ['document', 'scan', 'consent']) {
      const screen = await get(emulator, phoneUrl(interaction, device, step));
      expect(screen.status).toBe(409);
      const html = await screen.text();
      expect(html).toContain('data-testid="app-confirm"');
      expect(html).toContain('role="alert">The computer has not confirmed this phone yet. Type the code there, then continue.</p>');
      expect(shownCode(html)).toBe(code);
      expect(html).not.toContain('data-testid="app-step"');
      expect(html).not.toContain('data-testid="persona-');
    }
    for (const fields of [
      { action: 'choose-document', persona: 'ingrid-haugen' },
      { action: 'scan-document' },
      { outcome: 'cancel' },
      { outcome: 'approve', persona: 'ingrid-haugen' },
    ] as Array<Record<string, string>>) {
      const pressed = await phonePress(emulator, interaction, device, fields);
      expect(pressed.status).toBe(403);
      expect(await pressed.text()).toContain('data-testid="app-confirm"');
    }
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'confirming' });
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(409);

    // Confirmed, the same phone uses the app from its first step.
    expect((await computerTypes(emulator, interaction, browser, code)).status).toBe(303);
    const first = await get(emulator, phoneUrl(interaction, device, 'document'));
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('data-testid="app-step">Step 1 of 5</p>');
    expect((await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve')).status).toBe(303);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('never puts the code a phone shows on the computer’s page or in its status, which a shared screen shows', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const { code } = await phoneOpensLink(emulator, interaction);
    const page = await (await get(emulator, pageUrl(interaction, browser))).text();
    expect(page).toContain('data-testid="device-status">A phone opened the link: type the code it shows.</p>');
    expect(page).not.toContain(code);
    expect(page).not.toContain(code.replace('-', ''));
    expect(JSON.stringify(await status(emulator, interaction, browser))).not.toContain(code.replace('-', ''));
  });

  it('takes the code as people type it: in lower case, with or without the dash, with spaces', async () => {
    for (const typed of [(code: string) => code.toLowerCase(), (code: string) => code.replace('-', ''), (code: string) => ` ${code.replace('-', ' ')} `]) {
      const emulator = newEmulator();
      const { interaction, browser } = await openAuthorizationPage(emulator, client);
      const { device, code } = await phoneOpensLink(emulator, interaction);
      expect((await computerTypes(emulator, interaction, browser, typed(code))).status).toBe(303);
      expect((await phonePress(emulator, interaction, device, { action: 'choose-document', persona: 'ingrid-haugen' })).status).toBe(303);
    }
  });

  it('refuses a wrong code (400, saying how many tries are left) and locks the hand-off at the fifth: the page says so and no phone can continue', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const { device, code } = await phoneOpensLink(emulator, interaction);
    const other = code === 'BBB-BBB' ? 'CCC-CCC' : 'BBB-BBB';

    for (const left of [4, 3, 2, 1]) {
      const refused = await computerTypes(emulator, interaction, browser, other);
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(html).toContain(
        `data-testid="phone-code-error">That is not a code a phone shows for this verification. ${left === 1 ? '1 try' : `${left} tries`} left.</p>`,
      );
      // The page again, for the same browser: the QR code and the form are still there.
      expect(html).toContain('data-testid="confirm-phone-form"');
      expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'confirming' });
    }
    const locking = await computerTypes(emulator, interaction, browser, other);
    expect(locking.status).toBe(403);
    const locked = await locking.text();
    expect(locked).toContain('role="alert" data-testid="hand-off-locked">The hand-off to a phone is locked');
    expect(locked).not.toContain('data-testid="confirm-phone-form"');

    // Locked: the right code no longer works, and the page shows the lock instead of the QR code.
    const late = await computerTypes(emulator, interaction, browser, code);
    expect(late.status).toBe(403);
    expect(await status(emulator, interaction, browser)).toEqual({
      status: 'locked',
      steps: 5,
      message: 'The hand-off to a phone is locked: too many wrong codes were typed.',
    });
    const page = await (await get(emulator, pageUrl(interaction, browser))).text();
    expect(page).toContain(
      'data-testid="hand-off-locked">The hand-off to a phone is locked: a wrong code was typed too many times. Use the app on this device, or start again from Test client demo-client.</p>',
    );
    expect(page).toContain('data-state="locked" data-testid="device-status">The hand-off to a phone is locked.</p>');
    expect(page).not.toContain('<svg role="img"');
    expect(page).not.toContain('data-testid="confirm-phone-form"');
    expect(page).not.toContain('data-testid="show-device-link"');
    expect(await (await get(emulator, continueUrl(interaction, browser))).text()).toContain('role="alert">The hand-off to a phone is locked');

    // Every phone, the waiting one and a new one, gets the locked page, never the app or a code.
    for (const response of [
      await get(emulator, phoneUrl(interaction, device)),
      await get(emulator, qrUrl(interaction)),
      await phonePress(emulator, interaction, device, { action: 'choose-document', persona: 'ingrid-haugen' }),
    ]) {
      expect(response.status).toBe(403);
      const html = await response.text();
      expect(html).toContain('data-testid="app-locked"');
      expect(html).toContain('<h1>This verification can no longer continue on a phone</h1>');
      expect(html).not.toContain('data-testid="phone-code"');
    }

    // This device still can: the quick test completes the verification.
    const quick = await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }));
    expect(quick.status).toBe(303);
  });

  it('does not count an empty code, or a code typed before any phone opened the link', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const early = await computerTypes(emulator, interaction, browser, 'BCD-FGH');
      expect(early.status).toBe(400);
      expect(await early.text()).toContain('data-testid="phone-code-error">No phone is waiting for a code yet. Scan the QR code with your phone first.</p>');
    }
    const { code } = await phoneOpensLink(emulator, interaction);
    for (const empty of ['', ' - ']) {
      const refused = await computerTypes(emulator, interaction, browser, empty);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('data-testid="phone-code-error">Type the code your phone shows.</p>');
    }
    expect((await computerTypes(emulator, interaction, browser, code)).status).toBe(303);
  });

  it('takes the confirmation only from the starting browser: a phone cannot confirm itself (403)', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const { device, code } = await phoneOpensLink(emulator, interaction);
    const byPhone = await emulator.handle(formPost(qrUrl(interaction), { device, action: 'confirm-phone', code }));
    await expectErrorPage(byPhone, 403, /only the browser that started this verification can confirm a phone/);
    await expectErrorPage(await computerTypes(emulator, interaction, 'x'.repeat(43), code), 403, /browser secret does not match/);
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'confirming' });
    const still = await get(emulator, phoneUrl(interaction, device, 'document'));
    expect(still.status).toBe(409);
  });

  it('refuses every other device once a phone is confirmed, with a page saying so (409), never the app; the confirmed phone finishes', async () => {
    const emulator = newEmulator();
    const { interaction, browser, codeVerifier } = await openAuthorizationPage(emulator, client);
    const mine = await phoneOpensLink(emulator, interaction);
    const onlooker = await phoneOpensLink(emulator, interaction);
    expect(onlooker.device).not.toBe(mine.device);
    expect(onlooker.code).not.toBe(mine.code);
    expect((await computerTypes(emulator, interaction, browser, mine.code)).status).toBe(303);
    expect((await phonePress(emulator, interaction, mine.device, { action: 'choose-document', persona: 'ingrid-haugen' })).status).toBe(303);

    // The onlooker's own link, a step of it, the bare link scanned again, and every button.
    const refusals = [
      await get(emulator, phoneUrl(interaction, onlooker.device)),
      await get(emulator, phoneUrl(interaction, onlooker.device, 'scan')),
      await get(emulator, qrUrl(interaction)),
      await get(emulator, `${qrUrl(interaction)}?step=scan`),
      await get(emulator, phoneUrl(interaction, 'x'.repeat(43))),
      await phonePress(emulator, interaction, onlooker.device, { outcome: 'cancel' }),
      await phonePress(emulator, interaction, onlooker.device, { action: 'choose-document', persona: 'sofia-costa' }),
      await emulator.handle(formPost(qrUrl(interaction), { action: 'scan-document' })),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(409);
      const html = await refused.text();
      expect(html).toContain('data-testid="app-elsewhere"');
      expect(html).toContain('<h1>This verification is being completed on another device</h1>');
      expect(html).not.toContain('data-testid="app-step"');
      expect(html).not.toContain('FK4820713');
      expect(html).not.toContain(mine.device);
    }
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'in_progress', step: 2 });

    // The confirmed phone still has Ingrid Haugen's passport, and its decision reaches the starting browser.
    expect(await (await get(emulator, phoneUrl(interaction, mine.device, 'scan'))).text()).toContain('<dd>FK4820713</dd>');
    expect((await phoneCompletes(emulator, interaction, mine.device, 'ingrid-haugen', 'approve')).status).toBe(303);
    const redirect = new URL((await get(emulator, continueUrl(interaction, browser))).headers.get('location')!);
    expect(redirect.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await redeemCode(emulator, client, { redirect, codeVerifier })).status).toBe(200);
  });

  it('says all of it in Norwegian too', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const mine = await phoneOpensLink(emulator, interaction);
    const waiting = await (await get(emulator, phoneUrl(interaction, mine.device), 'GET', NORWEGIAN)).text();
    expect(waiting).toContain('<h1>Bekreft denne telefonen på datamaskinen</h1>');
    expect(shownCode(waiting)).toBe(mine.code);
    const page = await (await get(emulator, pageUrl(interaction, browser), 'GET', NORWEGIAN)).text();
    expect(page).toContain('<label for="phone-code">Koden telefonen viser</label>');
    expect(page).toContain('data-testid="show-device-link">Vis lenken</a>');
    expect(page).toContain('data-testid="device-status">En telefon har åpnet lenken: skriv inn koden den viser.</p>');
    const wrong = await computerTypes(emulator, interaction, browser, mine.code === 'BBB-BBB' ? 'CCC-CCC' : 'BBB-BBB', NORWEGIAN);
    expect(await wrong.text()).toContain(
      'data-testid="phone-code-error">Det er ikke en kode som en telefon viser for denne verifiseringen. 4 forsøk igjen.</p>',
    );
    expect((await computerTypes(emulator, interaction, browser, mine.code)).status).toBe(303);
    expect(await (await get(emulator, pageUrl(interaction, browser), 'GET', NORWEGIAN)).text()).toContain(
      'data-testid="phone-confirmed">Telefonen din er bekreftet: bare den kan fortsette denne verifiseringen.</p>',
    );
    const elsewhere = await get(emulator, qrUrl(interaction), 'GET', NORWEGIAN);
    expect(elsewhere.status).toBe(409);
    const html = await elsewhere.text();
    expect(html).toContain('<html lang="nb" data-theme="system">');
    expect(html).toContain('<h1>Denne verifiseringen fullføres på en annen enhet</h1>');
  });

  it('treats a device secret it did not give out as a new phone before confirmation: a new secret and code, binding nothing', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const forged = 'x'.repeat(43);
    const opened = await get(emulator, phoneUrl(interaction, forged));
    expect(opened.status).toBe(303);
    const device = new URL(opened.headers.get('location')!).searchParams.get('device')!;
    expect(device).not.toBe(forged);
    expect(await (await get(emulator, opened.headers.get('location')!)).text()).toContain('data-testid="app-confirm"');
    // A post with the forged secret is no phone's: refused, nothing changes.
    await expectErrorPage(
      await phonePress(emulator, interaction, forged, { action: 'choose-document', persona: 'ingrid-haugen' }),
      403,
      /open the app from its link first/,
    );
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'confirming' });
  });

  it('refuses a button press with neither the browser nor a device secret (403) before a phone is confirmed, and changes nothing', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    for (const fields of [{ outcome: 'cancel' }, { action: 'choose-document', persona: 'ingrid-haugen' }] as Array<Record<string, string>>) {
      await expectErrorPage(await emulator.handle(formPost(qrUrl(interaction), fields)), 403, /open the app from its link first/);
    }
    expect(await status(emulator, interaction, browser)).toEqual({ status: 'waiting', steps: 5, message: 'Waiting for your phone…' });

    const device = await openPhone(emulator, interaction, browser);
    expect((await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve')).status).toBe(303);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('answers HEAD on the QR link (a link preview) with 200 and no body, adding no phone and telling the computer nothing', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    for (let preview = 0; preview < 2; preview += 1) {
      const head = await get(emulator, qrUrl(interaction), 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('location')).toBeNull();
      expect(await head.text()).toBe('');
    }
    expect(await status(emulator, interaction, browser)).toEqual({ status: 'waiting', steps: 5, message: 'Waiting for your phone…' });

    // A later GET adds the phone (303 to the link with its device secret). A preview of that link
    // (HEAD) changes nothing either.
    const { device, location } = await openAppFromQrCode(emulator, qrUrl(interaction));
    expect(location).toBe(phoneUrl(interaction, device));
    const preview = await get(emulator, location, 'HEAD');
    expect(preview.status).toBe(200);
    expect(await preview.text()).toBe('');
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'confirming' });
    const code = shownCode(await (await get(emulator, location)).text());
    expect((await computerTypes(emulator, interaction, browser, code)).status).toBe(303);
    expect((await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve')).status).toBe(303);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('lets at most 10 phones wait at once, each for 90 s: onlookers who fill them hold them no longer, and the person’s phone then gets in', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const { interaction, browser } = await openAuthorizationPage(emulator, client, { now: clock });
    const onlookers = [];
    for (let phone = 0; phone < 10; phone += 1) onlookers.push(await phoneOpensLink(emulator, interaction));
    expect(new Set(onlookers.map((phone) => phone.code)).size).toBe(10);
    // The person's phone, 30 s later: told to try again when a place frees, not to start over.
    clock += 30_000;
    const refused = await get(emulator, qrUrl(interaction));
    expect(refused.headers.get('retry-after')).toBe('60');
    await expectErrorPage(refused, 409, /too many devices are waiting for a code for this verification; try again in 60 s/);
    // The onlookers' 90 s end: the person's phone gets a place and a code of its own.
    clock += 60_000;
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'waiting' });
    const mine = await phoneOpensLink(emulator, interaction);
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'confirming' });
    // An onlooker's code, typed late, is expired: said so, and not counted as a wrong code.
    const late = await computerTypes(emulator, interaction, browser, onlookers[5]!.code);
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('That code has expired: the phone waited too long.');
    const wrong = await computerTypes(emulator, interaction, browser, 'BCDBCD');
    expect(await wrong.text()).toContain('4 tries left');
    // The onlooker's phone, continuing after its wait ended, is a new phone: a new code.
    const again = await get(emulator, phoneUrl(interaction, onlookers[5]!.device));
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).not.toContain(onlookers[5]!.device);
    expect((await computerTypes(emulator, interaction, browser, mine.code)).status).toBe(303);
    expect((await phonePress(emulator, interaction, mine.device, { action: 'choose-document', persona: 'ingrid-haugen' })).status).toBe(303);
  });

  it('refuses a phone’s approval naming another persona than the one in progress (409), keeps waiting, and takes the right one', async () => {
    const emulator = newEmulator();
    const { interaction, browser, codeVerifier } = await openAuthorizationPage(emulator, client);
    const device = await openPhone(emulator, interaction, browser);
    for (const fields of [
      { action: 'choose-document', persona: 'ingrid-haugen' },
      { action: 'scan-document' },
      { action: 'read-chip' },
      { action: 'check-face' },
    ] as Array<Record<string, string>>) {
      expect((await phonePress(emulator, interaction, device, fields)).status).toBe(303);
    }

    for (const fields of [{ outcome: 'approve', persona: 'sofia-costa' }, { outcome: 'approve' }] as Array<Record<string, string>>) {
      const refused = await phonePress(emulator, interaction, device, fields);
      expect(refused.status).toBe(409);
      const html = await refused.text();
      expect(html).toContain('role="alert">The document changed since this screen was shown');
      expect(html).toContain(`<input type="hidden" name="device" value="${device}"><input type="hidden" name="persona" value="ingrid-haugen">`);
    }
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'in_progress', step: 5 });
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(409);

    const shared = await phonePress(emulator, interaction, device, { outcome: 'approve', persona: 'ingrid-haugen' });
    expect(shared.status).toBe(303);
    expect(shared.headers.get('location')).toBe(phoneUrl(interaction, device));
    const redirect = new URL((await get(emulator, continueUrl(interaction, browser))).headers.get('location')!);
    expect(redirect.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await redeemCode(emulator, client, { redirect, codeVerifier })).status).toBe(200);
  });
});

describe('an interaction past its 600 s lifetime', () => {
  it('is a 400 error page on continue and "gone" on status (200), never a 500', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const { interaction, browser } = await openAuthorizationPage(emulator, client, { now: clock });
    await phoneOpensAndCompletes(emulator, interaction, browser, 'ingrid-haugen', 'approve');
    clock += 600_000;
    await expectErrorPage(await get(emulator, continueUrl(interaction, browser)), 400, /unknown or has expired/);
    const expired = await get(emulator, statusUrl(interaction, browser));
    expect(expired.status).toBe(200);
    expect((await expired.json()).status).toBe('gone');
  });
});
