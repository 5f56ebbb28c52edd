import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  TEST_DEVICE_BASE_URL,
  createDeviceTestEmulator,
  createTestClient,
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
  return createDeviceTestEmulator(client, now);
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

function get(emulator: Emulator, url: string, method = 'GET'): Promise<Response> {
  return emulator.handle(new Request(url, { method }));
}

/** What the QR code encodes: the app at the device URL, with nothing but the interaction id. */
function qrUrl(interaction: string): string {
  return `${TEST_DEVICE_BASE_URL}/app/${interaction}`;
}

/** The app on the phone bound to the verification: the QR link with the phone's device secret. */
function phoneUrl(interaction: string, device: string, step?: string): string {
  return `${qrUrl(interaction)}?${new URLSearchParams(step === undefined ? { device } : { device, step })}`;
}

/**
 * A phone opens the QR code: the bare link binds it (303 to the same link with its device secret),
 * and it follows the redirect to the app. Returns the device secret.
 */
async function openPhone(emulator: Emulator, interaction: string): Promise<string> {
  const { device, location } = await openAppFromQrCode(emulator, qrUrl(interaction));
  expect(device).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(location).toBe(phoneUrl(interaction, device));
  expect((await get(emulator, location)).status).toBe(200);
  return device;
}

/** A phone's button press in the app opened from the QR code: the device secret, no browser secret. */
function phonePress(emulator: Emulator, interaction: string, device: string, fields: Record<string, string>): Promise<Response> {
  return emulator.handle(formPost(qrUrl(interaction), { ...fields, device }));
}

/**
 * The phone (bound as `device`) runs the app to the end as `persona` and presses `outcome`; an
 * approval carries the persona the screen showed, as the Share and End verification forms do.
 */
async function phoneCompletes(
  emulator: Emulator,
  interaction: string,
  device: string,
  persona: string,
  outcome: 'approve' | 'cancel',
): Promise<Response> {
  const steps: Array<Record<string, string>> = [{ action: 'choose-document', persona }, { action: 'scan-document' }, { action: 'read-chip' }, { action: 'check-face' }];
  for (const fields of steps) {
    expect((await phonePress(emulator, interaction, device, fields)).status).toBe(303);
  }
  return phonePress(emulator, interaction, device, outcome === 'approve' ? { outcome, persona } : { outcome });
}

/** Opens the app on a phone from the QR code and runs it to the end: the phone side of a flow. */
async function phoneOpensAndCompletes(emulator: Emulator, interaction: string, persona: string, outcome: 'approve' | 'cancel'): Promise<Response> {
  return phoneCompletes(emulator, interaction, await openPhone(emulator, interaction), persona, outcome);
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
  it('shows a QR code (inline SVG) for the app at the device URL, prints that URL, and names the address a phone must reach', async () => {
    const emulator = newEmulator();
    const { html, interaction } = await openAuthorizationPage(emulator, client);
    const phoneUrl = `${TEST_DEVICE_BASE_URL}/app/${interaction}`;
    expect(html).toMatch(/<svg role="img" aria-label="QR code that opens the ID Check app on your phone" focusable="false" xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 \d+ \d+" shape-rendering="crispEdges"><path /);
    expect(html).toContain(`<code data-testid="device-url">${phoneUrl}</code>`);
    expect(html).toContain('able to reach <code>http://192.168.1.20:3000</code>');
  });

  it('keeps the browser secret out of the QR code: only the same-device link, status, continue and quick test carry it', async () => {
    const emulator = newEmulator();
    const { html, interaction, browser } = await openAuthorizationPage(emulator, client);
    expect(attribute(html, 'device-url', 'data-testid')).toBe('device-url');
    expect(html).toContain(`<code data-testid="device-url">${TEST_DEVICE_BASE_URL}/app/${interaction}</code>`);
    expect(attribute(html, 'use-app-on-this-device', 'href')).toBe(`${TEST_BASE_URL}/app/${interaction}?browser=${browser}`);
    expect(attribute(html, 'continue-after-phone', 'href')).toBe(continueUrl(interaction, browser));
    expect(/data-status-url="([^"]+)"/.exec(html)![1]!.replaceAll('&#38;', '&')).toBe(statusUrl(interaction, browser));
    expect(browser).not.toBe(interaction);
    expect(browser).toMatch(/^[A-Za-z0-9_-]{43}$/);
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

    // The bare QR link binds the phone: 303 to the same link with the phone's own device secret.
    const { device, location } = await openAppFromQrCode(emulator, qrUrl(interaction));
    expect(location).toBe(phoneUrl(interaction, device));
    expect(location).not.toContain(browser);
    const opened = await get(emulator, location);
    expect(opened.status).toBe(200);
    expect(await opened.text()).not.toContain(browser);
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
    await phoneOpensAndCompletes(emulator, interaction, 'ingrid-haugen', 'approve');

    await expectErrorPage(await get(emulator, continueUrl(interaction)), 400, /required parameter &#39;browser&#39; is missing/);
    await expectErrorPage(await get(emulator, continueUrl(interaction, 'x'.repeat(43))), 403, /browser secret does not match/);
    await expectErrorPage(await get(emulator, continueUrl(interaction, `${browser}x`)), 403, /browser secret does not match/);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('delivers the redirect once: a second continuation is refused', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await phoneOpensAndCompletes(emulator, interaction, 'ingrid-haugen', 'approve');
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
    await expectErrorPage(await get(emulator, continueUrl(interaction, browser)), 400, /already been completed/);
    const after = await get(emulator, statusUrl(interaction, browser));
    expect(after.status).toBe(400);
    expect(await after.json()).toEqual({ error: 'invalid_request', error_description: 'this verification has already been completed' });
  });

  it('does not use up the delivery on HEAD', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await phoneOpensAndCompletes(emulator, interaction, 'ingrid-haugen', 'approve');
    expect((await get(emulator, continueUrl(interaction, browser), 'HEAD')).status).toBe(204);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('before the phone has finished, shows the page again (409) with a message, and continues later', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const early = await get(emulator, continueUrl(interaction, browser));
    expect(early.status).toBe(409);
    expect(await early.text()).toContain('role="alert">The app has not been opened on a phone yet');

    const device = await openPhone(emulator, interaction);
    const opened = await get(emulator, continueUrl(interaction, browser));
    expect(opened.status).toBe(409);
    const html = await opened.text();
    expect(html).toContain('role="alert">The app on your phone has not finished yet');
    expect(html).toContain('data-testid="device-status">Your phone is at step 1 of 5: choose your document.</p>');

    await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve');
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('issues the code when the browser continues, so a decision older than the code lifetime still works', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const page = await openAuthorizationPage(emulator, client, { now: clock });
    await phoneOpensAndCompletes(emulator, page.interaction, 'ingrid-haugen', 'approve');
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
    const device = await openPhone(emulator, interaction);
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
    const device = await openPhone(emulator, interaction);
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

  it('gives the status only to the starting browser (JSON errors: 400 missing, 403 wrong, 400 unknown)', async () => {
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
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error_description).toMatch(/unknown or has expired/);
  });
});

describe('the QR link belongs to the first device that opens it', () => {
  const ELSEWHERE = /already open on another device/;

  it('refuses a second device with the bare link (409): it can neither see, act nor change the progress, and the first phone finishes', async () => {
    const emulator = newEmulator();
    const { interaction, browser, codeVerifier } = await openAuthorizationPage(emulator, client);
    const device = await openPhone(emulator, interaction);
    expect((await phonePress(emulator, interaction, device, { action: 'choose-document', persona: 'ingrid-haugen' })).status).toBe(303);

    // An onlooker scans the same QR code: refused, with or without a step, on every button.
    await expectErrorPage(await get(emulator, qrUrl(interaction)), 409, ELSEWHERE);
    await expectErrorPage(await get(emulator, `${qrUrl(interaction)}?step=scan`), 409, ELSEWHERE);
    for (const fields of [{ outcome: 'cancel' }, { action: 'choose-document', persona: 'sofia-costa' }, { action: 'scan-document' }] as Array<Record<string, string>>) {
      await expectErrorPage(await emulator.handle(formPost(qrUrl(interaction), fields)), 409, ELSEWHERE);
    }
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'in_progress', step: 2 });

    // The first phone still has Ingrid Haugen's passport, and its decision reaches the starting browser.
    expect(await (await get(emulator, phoneUrl(interaction, device, 'scan'))).text()).toContain('<dd>FK4820713</dd>');
    expect((await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve')).status).toBe(303);
    const redirect = new URL((await get(emulator, continueUrl(interaction, browser))).headers.get('location')!);
    expect(redirect.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await redeemCode(emulator, client, { redirect, codeVerifier })).status).toBe(200);
  });

  it('refuses a device secret it did not give out: 403 before any phone opened the link (binding nothing), 409 after', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const forged = 'x'.repeat(43);
    await expectErrorPage(await get(emulator, phoneUrl(interaction, forged)), 403, /device link is not valid/);
    await expectErrorPage(await phonePress(emulator, interaction, forged, { action: 'choose-document', persona: 'ingrid-haugen' }), 403, /device link is not valid/);
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'waiting' });

    // The forged value bound nothing: the phone that opens the QR link gets its own secret.
    const device = await openPhone(emulator, interaction);
    expect(device).not.toBe(forged);
    for (const wrong of [forged, `${device}x`, device.slice(0, -1)]) {
      await expectErrorPage(await get(emulator, phoneUrl(interaction, wrong)), 409, ELSEWHERE);
      await expectErrorPage(await phonePress(emulator, interaction, wrong, { outcome: 'cancel' }), 409, ELSEWHERE);
    }
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'in_progress', step: 1 });
    expect((await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve')).status).toBe(303);
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'decided' });
  });

  it('refuses a button press with neither the browser nor a device secret (403) before the link was opened, and changes nothing', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    for (const fields of [{ outcome: 'cancel' }, { action: 'choose-document', persona: 'ingrid-haugen' }] as Array<Record<string, string>>) {
      await expectErrorPage(await emulator.handle(formPost(qrUrl(interaction), fields)), 403, /open the app from its link first/);
    }
    expect(await status(emulator, interaction, browser)).toEqual({ status: 'waiting', steps: 5, message: 'Waiting for your phone…' });

    const device = await openPhone(emulator, interaction);
    expect((await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve')).status).toBe(303);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('answers HEAD on the QR link (a link preview) with 200 and no body, binding nothing and not telling the computer the phone opened it', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    for (let preview = 0; preview < 2; preview += 1) {
      const head = await get(emulator, qrUrl(interaction), 'HEAD');
      expect(head.status).toBe(200);
      expect(head.headers.get('location')).toBeNull();
      expect(await head.text()).toBe('');
    }
    expect(await status(emulator, interaction, browser)).toEqual({ status: 'waiting', steps: 5, message: 'Waiting for your phone…' });

    // A later GET still binds the phone (303 to the link with its device secret). A preview of that
    // link (HEAD) changes nothing either; the phone's GET of it opens the app.
    const { device, location } = await openAppFromQrCode(emulator, qrUrl(interaction));
    expect(location).toBe(phoneUrl(interaction, device));
    const beforePreview = await status(emulator, interaction, browser);
    const preview = await get(emulator, location, 'HEAD');
    expect(preview.status).toBe(200);
    expect(await preview.text()).toBe('');
    expect(await status(emulator, interaction, browser)).toEqual(beforePreview);
    expect((await get(emulator, location)).status).toBe(200);
    expect(await status(emulator, interaction, browser)).toMatchObject({ status: 'in_progress', step: 1 });
    expect((await phoneCompletes(emulator, interaction, device, 'ingrid-haugen', 'approve')).status).toBe(303);
    expect((await get(emulator, continueUrl(interaction, browser))).status).toBe(303);
  });

  it('refuses a phone’s approval naming another persona than the one in progress (409), keeps waiting, and takes the right one', async () => {
    const emulator = newEmulator();
    const { interaction, browser, codeVerifier } = await openAuthorizationPage(emulator, client);
    const device = await openPhone(emulator, interaction);
    for (const fields of [{ action: 'choose-document', persona: 'ingrid-haugen' }, { action: 'scan-document' }, { action: 'read-chip' }, { action: 'check-face' }] as Array<Record<string, string>>) {
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
  it('is a 400 error page on continue and a 400 JSON error on status, never a 500', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const { interaction, browser } = await openAuthorizationPage(emulator, client, { now: clock });
    await phoneOpensAndCompletes(emulator, interaction, 'ingrid-haugen', 'approve');
    clock += 600_000;
    await expectErrorPage(await get(emulator, continueUrl(interaction, browser)), 400, /unknown or has expired/);
    const expired = await get(emulator, statusUrl(interaction, browser));
    expect(expired.status).toBe(400);
    expect((await expired.json()).error_description).toMatch(/unknown or has expired/);
  });
});
