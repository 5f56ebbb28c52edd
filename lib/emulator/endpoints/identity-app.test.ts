import { compactDecrypt, decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  TEST_DEVICE_BASE_URL,
  authorizationPageFields,
  clientAuthentication,
  createPkce,
  createTestClient,
  createTestEmulator,
  formPost,
  openAppFromQrCode,
  openAuthorizationPage,
  redeemCode,
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';
import { personas, type Emulator } from '..';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

function newEmulator(now?: () => number): Emulator {
  return createTestEmulator({ clients: [client], deviceBaseUrl: TEST_DEVICE_BASE_URL, now });
}

/**
 * Who uses the app: this device (the browser secret, from the "Use the app on this device" link)
 * or the phone that opened the QR code and that the computer confirmed (the device secret it was
 * given when it opened the link).
 */
type Holder = { browser?: string; device?: string };

/**
 * The app's URL at a step: on this device with the browser secret, on a phone (the device URL)
 * with its device secret; with neither, the bare QR link.
 */
function appUrl(interaction: string, options: Holder & { step?: string } = {}): string {
  const query = new URLSearchParams();
  if (options.browser) query.set('browser', options.browser);
  if (options.device) query.set('device', options.device);
  if (options.step) query.set('step', options.step);
  const base = options.browser ? TEST_BASE_URL : TEST_DEVICE_BASE_URL;
  return `${base}/app/${interaction}${query.size > 0 ? `?${query}` : ''}`;
}

/**
 * A phone opens the QR code (the bare link answers 303 to the app with the phone's own device
 * secret, where the phone shows a code), and the computer (`browser`) confirms it by that code.
 */
async function openOnPhone(emulator: Emulator, interaction: string, browser: string): Promise<string> {
  const { device, location } = await openAppFromQrCode(emulator, appUrl(interaction));
  expect(location).toBe(appUrl(interaction, { device }));
  const code = /data-testid="phone-code">([^<]+)</.exec(await (await get(emulator, location)).text())![1]!;
  const confirmed = await emulator.handle(formPost(`${TEST_BASE_URL}/app/${interaction}`, { browser, action: 'confirm-phone', code }));
  expect(confirmed.status).toBe(303);
  return device;
}

function get(emulator: Emulator, url: string): Promise<Response> {
  return emulator.handle(new Request(url));
}

/**
 * A press of one of the app's buttons: a form post, with the browser secret on this device and
 * the device secret on the phone, as the app's forms carry them.
 */
function press(emulator: Emulator, interaction: string, fields: Record<string, string>, holder: Holder = {}): Promise<Response> {
  const { browser, device } = holder;
  const secrets = { ...(browser ? { browser } : {}), ...(device ? { device } : {}) };
  return emulator.handle(formPost(`${device ? TEST_DEVICE_BASE_URL : TEST_BASE_URL}/app/${interaction}`, { ...fields, ...secrets }));
}

async function expectSeeOther(response: Response, location: string): Promise<void> {
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe(location);
}

/** Runs the four steps before consent as `persona`, checking each 303. */
async function walkToConsent(emulator: Emulator, interaction: string, persona: string, holder: Holder = {}): Promise<void> {
  await expectSeeOther(await press(emulator, interaction, { action: 'choose-document', persona }, holder), appUrl(interaction, { ...holder, step: 'scan' }));
  await expectSeeOther(await press(emulator, interaction, { action: 'scan-document' }, holder), appUrl(interaction, { ...holder, step: 'chip' }));
  await expectSeeOther(await press(emulator, interaction, { action: 'read-chip' }, holder), appUrl(interaction, { ...holder, step: 'chip' }));
  await expectSeeOther(await press(emulator, interaction, { action: 'check-face' }, holder), appUrl(interaction, { ...holder, step: 'face' }));
}

/** The verified claims (`given_name`, …) of the ID token the code of `redirect` is redeemed for. */
async function sharedClaims(emulator: Emulator, redirect: URL, codeVerifier: string): Promise<Record<string, unknown>> {
  const response = await redeemCode(emulator, client, { redirect, codeVerifier });
  expect(response.status).toBe(200);
  const { id_token: idToken } = (await response.json()) as { id_token: string };
  const { plaintext } = await compactDecrypt(idToken, client.encryptionKey.privateKey);
  const verified = decodeJwt(new TextDecoder().decode(plaintext)).verified_claims as { claims: Record<string, unknown> };
  return verified.claims;
}

async function expectErrorPage(response: Response, status: number, description: RegExp): Promise<void> {
  expect(response.status).toBe(status);
  const html = await response.text();
  expect(html).toMatch(/<code data-testid="error-code">invalid_request<\/code>/);
  expect(html).toMatch(description);
}

describe('the identity app on this device (the "Use the app on this device" link)', () => {
  it('walks through document, scan, chip, face and consent, then redirects (303) to the client with code, state and iss', async () => {
    const emulator = newEmulator();
    const page = await openAuthorizationPage(emulator, client);
    const link = /data-testid="use-app-on-this-device" href="([^"]+)"/.exec(page.html)![1]!.replaceAll('&#38;', '&');
    expect(link).toBe(appUrl(page.interaction, { browser: page.browser }));
    const { interaction, browser } = page;

    const start = await get(emulator, link);
    expect(start.status).toBe(200);
    const choose = await start.text();
    expect(choose).toContain('Step 1 of 5');
    expect(choose).toContain('<h1>Choose your document</h1>');
    for (const persona of personas) {
      expect(choose).toContain(`name="persona" value="${persona.id}" data-testid="persona-${persona.id}"`);
      expect(choose).toContain(`<img src="${TEST_BASE_URL}/portraits/${persona.id}.jpg" alt=""`);
    }

    await expectSeeOther(
      await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, { browser }),
      appUrl(interaction, { browser, step: 'scan' }),
    );
    const scan = await (await get(emulator, appUrl(interaction, { browser, step: 'scan' }))).text();
    expect(scan).toContain('Step 2 of 5');
    expect(scan).toContain('<dd>FK4820713</dd>');
    expect(scan).toContain('<span>P&#60;NORHAUGEN&#60;&#60;INGRID&#60;SOLBERG'); // the MRZ, escaped
    expect(scan).toContain('data-testid="scan-document">Scan document</button>');

    await expectSeeOther(await press(emulator, interaction, { action: 'scan-document' }, { browser }), appUrl(interaction, { browser, step: 'chip' }));
    const chip = await (await get(emulator, appUrl(interaction, { browser, step: 'chip' }))).text();
    expect(chip).toContain('Step 3 of 5');
    expect(chip).toContain('data-testid="read-chip">Read chip</button>');

    await expectSeeOther(await press(emulator, interaction, { action: 'read-chip' }, { browser }), appUrl(interaction, { browser, step: 'chip' }));
    const chipRead = await (await get(emulator, appUrl(interaction, { browser, step: 'chip' }))).text();
    expect(chipRead).toContain('<span class="value" data-testid="active-authentication">passed</span>');
    expect(chipRead).toContain(`href="${appUrl(interaction, { browser, step: 'face' }).replaceAll('&', '&#38;')}" data-testid="continue"`);

    const face = await (await get(emulator, appUrl(interaction, { browser, step: 'face' }))).text();
    expect(face).toContain('Step 4 of 5');
    expect(face).toContain('data-testid="check-face">Start face check</button>');
    await expectSeeOther(await press(emulator, interaction, { action: 'check-face' }, { browser }), appUrl(interaction, { browser, step: 'face' }));
    expect(await (await get(emulator, appUrl(interaction, { browser, step: 'face' }))).text()).toContain('<h1>Face check passed</h1>');

    const consent = await (await get(emulator, appUrl(interaction, { browser, step: 'consent' }))).text();
    expect(consent).toContain('Step 5 of 5');
    expect(consent).toContain('<h1>Share with Test client demo-client?</h1>');
    // Exactly what BASIC_CLAIMS_REQUEST asks for, with the persona's values.
    for (const value of ['Ingrid Solberg', 'Haugen', '14 March 1987', 'Passport', 'FK4820713', 'Norway (NOR)', '14038726421']) {
      expect(consent).toContain(`<span class="value">${value}</span>`);
    }
    expect(consent).not.toContain('Politiet');
    expect(consent).toContain('name="outcome" value="approve" data-testid="share">Share</button>');
    expect(consent).toContain('name="outcome" value="cancel" data-testid="cancel">Cancel</button>');
    // Share carries the browser secret and the persona this screen showed (consent is to what was shown).
    expect(consent).toContain(
      `<form method="post" action="${TEST_BASE_URL}/app/${interaction}"><input type="hidden" name="browser" value="${browser}"><input type="hidden" name="persona" value="ingrid-haugen"><button class="btn primary" type="submit" name="outcome" value="approve" data-testid="share">`,
    );

    const shared = await press(emulator, interaction, { outcome: 'approve', persona: 'ingrid-haugen' }, { browser });
    expect(shared.status).toBe(303);
    const redirect = new URL(shared.headers.get('location')!);
    expect(redirect.origin + redirect.pathname).toBe(client.redirectUri);
    expect(redirect.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(redirect.searchParams.get('state')).toBe('state-0123456789abcdef0123456789ab');
    expect(redirect.searchParams.get('iss')).toBe(TEST_BASE_URL);
    expect((await redeemCode(emulator, client, { redirect, codeVerifier: page.codeVerifier })).status).toBe(200);
  });

  it('cancels from the app bar at any step: 303 to the client with access_denied', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await press(emulator, interaction, { action: 'choose-document', persona: 'lars-eriksson' }, { browser });
    const scan = await (await get(emulator, appUrl(interaction, { browser, step: 'scan' }))).text();
    expect(scan).toContain('aria-label="Cancel verification" data-testid="cancel-verification"');

    const cancelled = await press(emulator, interaction, { outcome: 'cancel' }, { browser });
    expect(cancelled.status).toBe(303);
    const redirect = new URL(cancelled.headers.get('location')!);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('error_description')).toBe('the user cancelled the verification');
    expect(redirect.searchParams.get('state')).toBe('state-0123456789abcdef0123456789ab');
  });
});

describe('the app enforces the order of its steps (progress kept on the server)', () => {
  it('redirects a request for a later step than the progress allows to the furthest allowed step', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await expectSeeOther(await get(emulator, appUrl(interaction, { browser, step: 'consent' })), appUrl(interaction, { browser, step: 'document' }));
    await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, { browser });
    await expectSeeOther(await get(emulator, appUrl(interaction, { browser, step: 'face' })), appUrl(interaction, { browser, step: 'scan' }));
    // Earlier steps stay viewable (the back button).
    expect((await get(emulator, appUrl(interaction, { browser, step: 'document' }))).status).toBe(200);
  });

  it('refuses sharing, scanning, reading the chip and the face check out of order (409), and the app stays usable', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);

    const share = await press(emulator, interaction, { outcome: 'approve', persona: 'ingrid-haugen' }, { browser });
    expect(share.status).toBe(409);
    const html = await share.text();
    expect(html).toContain('role="alert">Finish this step first');
    expect(html).toContain('<h1>Choose your document</h1>');

    expect((await press(emulator, interaction, { action: 'scan-document' }, { browser })).status).toBe(409);
    await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, { browser });
    expect((await press(emulator, interaction, { action: 'read-chip' }, { browser })).status).toBe(409);
    expect((await press(emulator, interaction, { action: 'check-face' }, { browser })).status).toBe(409);
    expect((await press(emulator, interaction, { outcome: 'approve', persona: 'ingrid-haugen' }, { browser })).status).toBe(409);

    await press(emulator, interaction, { action: 'scan-document' }, { browser });
    await press(emulator, interaction, { action: 'read-chip' }, { browser });
    expect((await press(emulator, interaction, { outcome: 'approve', persona: 'ingrid-haugen' }, { browser })).status).toBe(409);
    await press(emulator, interaction, { action: 'check-face' }, { browser });
    expect((await press(emulator, interaction, { outcome: 'approve', persona: 'ingrid-haugen' }, { browser })).status).toBe(303);
  });

  it('starts the checks again when another document is chosen', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await walkToConsent(emulator, interaction, 'ingrid-haugen', { browser });
    await press(emulator, interaction, { action: 'choose-document', persona: 'sofia-costa' }, { browser });
    await expectSeeOther(await get(emulator, appUrl(interaction, { browser, step: 'consent' })), appUrl(interaction, { browser, step: 'scan' }));
    expect((await press(emulator, interaction, { outcome: 'approve', persona: 'sofia-costa' }, { browser })).status).toBe(409);
  });
});

describe('the persona whose face check fails (spec part 1)', () => {
  it('shows the failure at the face step, never reaches consent, and ends with access_denied and no code', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await walkToConsent(emulator, interaction, 'tobias-hansen', { browser });

    await expectSeeOther(await get(emulator, appUrl(interaction, { browser, step: 'consent' })), appUrl(interaction, { browser, step: 'face' }));
    const face = await (await get(emulator, appUrl(interaction, { browser, step: 'face' }))).text();
    expect(face).toContain('<h1>Face check failed</h1>');
    expect(face).toContain('data-testid="face-check-failed"');
    expect(face).toContain('data-testid="end-verification">End verification</button>');
    expect(face).toContain(
      '<input type="hidden" name="persona" value="tobias-hansen"><button class="btn primary" type="submit" name="outcome" value="approve" data-testid="end-verification">',
    );
    expect(face).not.toContain('data-testid="share"');

    const ended = await press(emulator, interaction, { outcome: 'approve', persona: 'tobias-hansen' }, { browser });
    expect(ended.status).toBe(303);
    const redirect = new URL(ended.headers.get('location')!);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('error_description')).toMatch(/face check failed/);
    expect(redirect.searchParams.has('code')).toBe(false);
  });

  it('cannot end with approval before the face check has run', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await press(emulator, interaction, { action: 'choose-document', persona: 'tobias-hansen' }, { browser });
    await press(emulator, interaction, { action: 'scan-document' }, { browser });
    await press(emulator, interaction, { action: 'read-chip' }, { browser });
    expect((await press(emulator, interaction, { outcome: 'approve', persona: 'tobias-hansen' }, { browser })).status).toBe(409);
  });
});

describe('bad input to the app is a 4xx page, never a 500', () => {
  it.each([
    ['an unknown step', { step: 'share' }, 400, /step &#39;share&#39; is not a step of the app/],
    ['a duplicated step', 'step=scan&step=face', 400, /more than once/],
  ])('GET with %s is a 400 error page', async (_name, query, status, description) => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    await expectErrorPage(await get(emulator, `${TEST_DEVICE_BASE_URL}/app/${interaction}?${new URLSearchParams(query)}`), status, description);
  });

  it.each([
    ['an unknown action', { action: 'teleport' }, 400, /Unknown action &#39;teleport&#39;/],
    ['an unknown outcome', { outcome: 'maybe' }, 400, /Unknown outcome &#39;maybe&#39;/],
    ['both an action and an outcome', { action: 'scan-document', outcome: 'approve' }, 400, /either an action or an outcome/],
    ['no action', {}, 400, /Choose what to do/],
    ['an unknown persona', { action: 'choose-document', persona: 'nobody' }, 400, /That persona does not exist/],
    ['no persona', { action: 'choose-document' }, 400, /Choose a document/],
  ])('POST with %s re-renders the app with a message and keeps the interaction open', async (_name, fields, status, message) => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const response = await press(emulator, interaction, fields as Record<string, string>, { browser });
    expect(response.status).toBe(status);
    expect(await response.text()).toMatch(message);
    expect((await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, { browser })).status).toBe(303);
  });

  it('refuses a browser secret that does not match (403) on GET and POST', async () => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    await expectErrorPage(await get(emulator, appUrl(interaction, { browser: 'guessed' })), 403, /browser secret does not match/);
    await expectErrorPage(await press(emulator, interaction, { outcome: 'cancel' }, { browser: 'guessed' }), 403, /browser secret does not match/);
  });

  it('shows a 400 error page for an unknown interaction and for one past its 600 s lifetime', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    await expectErrorPage(await get(emulator, `${TEST_DEVICE_BASE_URL}/app/forged`), 400, /unknown or has expired/);
    await expectErrorPage(await press(emulator, 'forged', { action: 'scan-document' }), 400, /unknown or has expired/);
    const { interaction, browser } = await openAuthorizationPage(emulator, client, { now: clock });
    clock += 600_000;
    await expectErrorPage(await get(emulator, appUrl(interaction)), 400, /unknown or has expired/);
    await expectErrorPage(await press(emulator, interaction, { outcome: 'cancel' }, { browser }), 400, /unknown or has expired/);
  });

  it.each([
    ['a NUL byte', '/app/%00'],
    ['markup', '/app/%3Cscript%3E'],
    ['a very long id', `/app/${'x'.repeat(256)}`],
    ['dot segments', '/app/..%2F..%2Fpackage.json'],
  ])('answers a request for the app with %s with a 4xx', async (_name, path) => {
    const response = await newEmulator().handle(new Request(`${TEST_BASE_URL}${path}`));
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await response.text()).not.toContain('<script>');
  });

  it('answers other methods and bodies with 4xx', async () => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    const put = await emulator.handle(new Request(`${TEST_BASE_URL}/app/${interaction}`, { method: 'PUT' }));
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST, HEAD');
    const json = await emulator.handle(
      new Request(`${TEST_BASE_URL}/app/${interaction}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    );
    await expectErrorPage(json, 400, /Content-Type must be application\/x-www-form-urlencoded/);
  });
});

describe('the app pages', () => {
  it('escape every interpolated value (a client name with markup)', async () => {
    const hostile = await createTestClient({ clientId: 'hostile' });
    hostile.registered.name = '<img src=x onerror="alert(1)">';
    const emulator = createTestEmulator({ clients: [hostile] });
    const { interaction, browser } = await openAuthorizationPage(emulator, hostile);
    await walkToConsent(emulator, interaction, 'ingrid-haugen', { browser });
    for (const step of ['document', 'consent']) {
      const html = await (await get(emulator, appUrl(interaction, { browser, step }).replace(TEST_DEVICE_BASE_URL, TEST_BASE_URL))).text();
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&#60;img src=x onerror=&#34;alert(1)&#34;&#62;');
    }
  });

  it('are phone-sized HTML with a strict CSP, one script of their own, and portraits from both the issuer and the device URL', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const device = await openOnPhone(emulator, interaction, browser);
    const response = await get(emulator, appUrl(interaction, { device }));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toMatch(
      // form-action: the app's own forms post to the device URL; the language switch to 'self'.
      /^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self' http:\/\/localhost:3000 http:\/\/192\.168\.1\.20:3000; script-src http:\/\/192\.168\.1\.20:3000\/emulator\/assets\/auth-page\.js; form-action 'self' http:\/\/192\.168\.1\.20:3000; base-uri 'none'; frame-ancestors 'none'$/,
    );
    const html = await response.text();
    expect(html).toContain('<html lang="en" data-theme="system">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">');
    // Only the pages' own script (it shows a pressed button working), never an inline one.
    expect(html.match(/<script[^>]*>/g)).toEqual([`<script src="${TEST_DEVICE_BASE_URL}/assets/auth-page.js" defer>`]);
    // Opened from the QR code: everything points at the device URL.
    expect(html).toContain(`<img src="${TEST_DEVICE_BASE_URL}/portraits/ingrid-haugen.jpg"`);
    expect(html).toContain(`<form method="post" action="${TEST_DEVICE_BASE_URL}/app/${interaction}"><input type="hidden" name="device" value="${device}">`);
  });
  it('show a phone only its code before the computer confirms it, and another phone only a refusal: phone-sized, the strict CSP, no cancel, nothing of the verification', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const { device: waiting, location } = await openAppFromQrCode(emulator, appUrl(interaction));
    const confirm = await get(emulator, location);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self' [^;]+; form-action 'self' http:\/\/192\.168\.1\.20:3000; base-uri 'none'; frame-ancestors 'none'$/,
    );
    const html = await confirm.text();
    expect(html).toContain('<title>Confirm this phone – ID Check</title>');
    expect(html).toContain('<h1>Confirm this phone on your computer</h1>');
    expect(html).toMatch(
      /<p class="pairing-code"><span class="visually-hidden">Your code: <\/span><strong data-testid="phone-code">[A-Z]{3}-[A-Z]{3}<\/strong><\/p>/,
    );
    expect(html).toContain(`href="${appUrl(interaction, { device: waiting, step: 'document' }).replaceAll('&', '&#38;')}" data-testid="continue"`);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('data-testid="cancel-verification"');
    expect(html).not.toContain('Test client demo-client wants');
    expect(html).not.toContain(browser);

    // Another phone is confirmed: the waiting one gets the refusal, without its code or the app.
    await openOnPhone(emulator, interaction, browser);
    const refused = await get(emulator, location);
    expect(refused.status).toBe(409);
    expect(refused.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self' [^;]+; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/,
    );
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('<title>Another device – ID Check</title>');
    expect(refusedHtml).toContain('data-testid="app-elsewhere"');
    expect(refusedHtml).not.toContain('data-testid="phone-code"');
    expect(refusedHtml).not.toContain('<script');
    expect(refusedHtml).not.toContain('<form method="post" action="');
  });
});

describe('consent is to what the screen showed (Share and End verification carry the persona)', () => {
  const CHANGED = 'role="alert">The document changed since this screen was shown';

  it('refuses an approval naming another persona than the one in progress, or none (409, the consent screen again), and shares the right one afterwards', async () => {
    const emulator = newEmulator();
    const { interaction, browser, codeVerifier } = await openAuthorizationPage(emulator, client);
    await walkToConsent(emulator, interaction, 'ingrid-haugen', { browser });

    for (const fields of [{ outcome: 'approve', persona: 'sofia-costa' }, { outcome: 'approve', persona: 'nobody' }, { outcome: 'approve' }] as Array<
      Record<string, string>
    >) {
      const refused = await press(emulator, interaction, fields, { browser });
      expect(refused.status).toBe(409);
      const html = await refused.text();
      expect(html).toContain(CHANGED);
      expect(html).toContain('<h1>Share with Test client demo-client?</h1>');
      expect(html).toContain('<input type="hidden" name="persona" value="ingrid-haugen">');
    }

    // Nothing was decided: the approval of what the screen shows still completes the verification.
    const shared = await press(emulator, interaction, { outcome: 'approve', persona: 'ingrid-haugen' }, { browser });
    expect(shared.status).toBe(303);
    const redirect = new URL(shared.headers.get('location')!);
    expect(redirect.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sharedClaims(emulator, redirect, codeVerifier)).toMatchObject({ given_name: 'Ingrid Solberg', family_name: 'Haugen' });
  });

  it('refuses the Share of a screen shown before another tab chose another document, and shares the document now shown', async () => {
    const emulator = newEmulator();
    const { interaction, browser, codeVerifier } = await openAuthorizationPage(emulator, client);
    await walkToConsent(emulator, interaction, 'ingrid-haugen', { browser });
    const shown = await (await get(emulator, appUrl(interaction, { browser, step: 'consent' }))).text();
    expect(shown).toContain('<input type="hidden" name="persona" value="ingrid-haugen">');

    // Another tab chooses Sofia Costa's passport and runs the checks again.
    await walkToConsent(emulator, interaction, 'sofia-costa', { browser });
    const stale = await press(emulator, interaction, { outcome: 'approve', persona: 'ingrid-haugen' }, { browser });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain(CHANGED);
    expect(html).toContain('<span class="value">FK7305518</span>');
    expect(html).toContain('<input type="hidden" name="persona" value="sofia-costa">');

    const shared = await press(emulator, interaction, { outcome: 'approve', persona: 'sofia-costa' }, { browser });
    expect(shared.status).toBe(303);
    const claims = await sharedClaims(emulator, new URL(shared.headers.get('location')!), codeVerifier);
    expect(claims).toMatchObject({ given_name: 'Sofia', family_name: 'Costa' });
  });

  it('refuses End verification after a failed face check naming another persona (409, the face screen again), then ends it', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await walkToConsent(emulator, interaction, 'tobias-hansen', { browser });

    for (const fields of [{ outcome: 'approve', persona: 'ingrid-haugen' }, { outcome: 'approve' }] as Array<Record<string, string>>) {
      const refused = await press(emulator, interaction, fields, { browser });
      expect(refused.status).toBe(409);
      const html = await refused.text();
      expect(html).toContain(CHANGED);
      expect(html).toContain('<h1>Face check failed</h1>');
    }

    const ended = await press(emulator, interaction, { outcome: 'approve', persona: 'tobias-hansen' }, { browser });
    expect(ended.status).toBe(303);
    const redirect = new URL(ended.headers.get('location')!);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('error_description')).toMatch(/face check failed/);
  });
});

describe('the app on a phone (opened from the QR code)', () => {
  it('carries the device secret in every form (hidden field) and every link, and the persona in Share and End verification', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const device = await openOnPhone(emulator, interaction, browser);
    const deviceForm = `<form method="post" action="${TEST_DEVICE_BASE_URL}/app/${interaction}"><input type="hidden" name="device" value="${device}">`;
    const screen = async (step: string): Promise<string> => {
      const response = await get(emulator, appUrl(interaction, { device, step }));
      expect(response.status).toBe(200);
      const html = await response.text();
      // The app's forms; the language switch posts elsewhere and carries the secret in its way back.
      const forms = (html.match(/<form [^>]*>/g) ?? []).filter((form) => !form.includes('class="language-switch-form"'));
      expect(forms.length).toBeGreaterThan(0);
      expect(html.split(deviceForm).length - 1).toBe(forms.length);
      for (const [, href] of html.matchAll(/href="([^"]*\/app\/[^"]*)"/g)) {
        expect(new URL(href!.replaceAll('&#38;', '&')).searchParams.get('device')).toBe(device);
      }
      expect(html).not.toContain('name="browser"');
      expect(html).not.toContain(browser);
      return html;
    };

    await screen('document');
    // The 303s of the steps carry the device secret too (walkToConsent checks each Location).
    await walkToConsent(emulator, interaction, 'ingrid-haugen', { device });
    expect(await screen('scan')).toContain(`href="${appUrl(interaction, { device, step: 'document' }).replaceAll('&', '&#38;')}"`);
    expect(await screen('chip')).toContain(`href="${appUrl(interaction, { device, step: 'face' }).replaceAll('&', '&#38;')}" data-testid="continue"`);
    await screen('face');
    expect(await screen('consent')).toContain(
      `${deviceForm}<input type="hidden" name="persona" value="ingrid-haugen"><button class="btn primary" type="submit" name="outcome" value="approve" data-testid="share">`,
    );

    // Another document on the same phone: the failed face check's End verification carries its persona.
    await walkToConsent(emulator, interaction, 'tobias-hansen', { device });
    expect(await screen('face')).toContain(
      `${deviceForm}<input type="hidden" name="persona" value="tobias-hansen"><button class="btn primary" type="submit" name="outcome" value="approve" data-testid="end-verification">`,
    );
    await expectSeeOther(await press(emulator, interaction, { outcome: 'approve', persona: 'tobias-hansen' }, { device }), appUrl(interaction, { device }));
    expect(await (await get(emulator, appUrl(interaction, { device }))).text()).toContain('data-testid="app-done"');
  });
});

describe('the client’s logo and the persona it suggests (login_hint) in the app', () => {
  const PNG = `data:image/png;base64,${Buffer.from('a logo').toString('base64')}`;

  /** PAR with `extra` claims in the request object, then the authorization page, as a browser opens it. */
  async function openWith(emulator: Emulator, as: TestClient, extra: Record<string, unknown>): Promise<{ interaction: string; browser: string }> {
    const { codeChallenge } = await createPkce();
    const par = await emulator.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(as)),
        request: await signAsClient(as, requestObjectClaims(as, { codeChallenge, claims: extra })),
      }),
    );
    const { request_uri: requestUri } = (await par.json()) as { request_uri: string };
    const page = await emulator.handle(new Request(`${TEST_BASE_URL}/auth?${new URLSearchParams({ client_id: as.clientId, request_uri: requestUri })}`));
    const { interaction, browser } = authorizationPageFields(await page.text());
    return { interaction: interaction!, browser: browser! };
  }

  it('marks the suggested persona as the current choice of step 1, on this device and on a phone, and says who suggested it', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openWith(emulator, client, { login_hint: 'lars-eriksson' });
    const here = await (await get(emulator, appUrl(interaction, { browser }))).text();
    expect(here.match(/data-testid="persona-[a-z-]+" aria-current="true"/g)).toHaveLength(1);
    expect(here).toMatch(
      /data-testid="persona-lars-eriksson" aria-current="true">[\s\S]*?<span class="tag suggested" data-testid="suggested-persona">Suggested by Test client demo-client<\/span>/,
    );
    const device = await openOnPhone(emulator, interaction, browser);
    const phone = await (await get(emulator, appUrl(interaction, { device }))).text();
    expect(phone).toMatch(/data-testid="persona-lars-eriksson" aria-current="true">/);
  });

  it('lets the choice made in the app win over the suggestion once made', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openWith(emulator, client, { login_hint: 'lars-eriksson' });
    await press(emulator, interaction, { action: 'choose-document', persona: 'sofia-costa' }, { browser });
    const html = await (await get(emulator, appUrl(interaction, { browser, step: 'document' }))).text();
    expect(html.match(/data-testid="persona-[a-z-]+" aria-current="true"/g)).toHaveLength(1);
    expect(html).toContain('data-testid="persona-sofia-costa" aria-current="true"');
    expect(html).toContain('data-testid="suggested-persona">Suggested by');
  });

  it('without a login_hint, marks no persona and suggests none', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const html = await (await get(emulator, appUrl(interaction, { browser }))).text();
    expect(html).toContain('data-testid="persona-lars-eriksson">');
    expect(html).not.toMatch(/data-testid="persona-[a-z-]+" aria-current="true"/);
    expect(html).not.toContain('suggested-persona');
  });

  it('on a phone, fetches a logo served on the issuer’s own origin from the address the phone reached the app by', async () => {
    const branded: TestClient = { ...client, registered: { ...client.registered, name: 'Nordlys Bank', logoUri: 'http://localhost:3000/demo-logo?v=2' } };
    const emulator = createTestEmulator({ clients: [branded], deviceBaseUrl: TEST_DEVICE_BASE_URL });
    const { interaction, browser } = await openAuthorizationPage(emulator, branded);
    const here = await (await get(emulator, appUrl(interaction, { browser }))).text();
    expect(here).toContain('<img class="client-logo" src="http://localhost:3000/demo-logo?v=2" alt="Nordlys Bank"');
    const device = await openOnPhone(emulator, interaction, browser);
    const phone = await get(emulator, appUrl(interaction, { device }));
    expect(await phone.text()).toContain('<img class="client-logo" src="http://192.168.1.20:3000/demo-logo?v=2" alt="Nordlys Bank"');
    // Both origins are the page's own image sources already: the logo adds nothing.
    expect(phone.headers.get('content-security-policy')).toContain("img-src 'self' http://localhost:3000 http://192.168.1.20:3000;");
  });

  it('names the client with its logo at step 1 and at consent, and allows only the logo’s source for images', async () => {
    const branded: TestClient = { ...client, registered: { ...client.registered, name: 'Nordlys Bank', logoUri: PNG } };
    const emulator = createTestEmulator({ clients: [branded], deviceBaseUrl: TEST_DEVICE_BASE_URL });
    const { interaction, browser } = await openAuthorizationPage(emulator, branded);
    const first = await get(emulator, appUrl(interaction, { browser }));
    expect(first.headers.get('content-security-policy')).toContain("img-src 'self' http://localhost:3000 http://192.168.1.20:3000 data:;");
    expect(await first.text()).toContain(
      `<p class="client-asks"><img class="client-logo" src="${PNG}" alt="Nordlys Bank" width="40" height="40" data-testid="client-logo"><span>Nordlys Bank wants to verify your identity</span></p>`,
    );
    await walkToConsent(emulator, interaction, 'ingrid-haugen', { browser });
    const consent = await (await get(emulator, appUrl(interaction, { browser, step: 'consent' }))).text();
    expect(consent).toMatch(
      /<div class="client-heading"><img class="client-logo" src="data:image\/png;base64,[^"]+" alt="Nordlys Bank" width="40" height="40" data-testid="client-logo"><h1>/,
    );
  });
});
