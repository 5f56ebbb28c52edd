import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, personas, type Emulator } from './index';
import { TEST_BASE_URL, createTestClient, formPost, openAuthorizationPage, redeemCode, type TestClient } from './testing';

const DEVICE_BASE_URL = 'http://192.168.1.20:3000/emulator';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

function newEmulator(now?: () => number): Emulator {
  return createEmulator({ baseUrl: TEST_BASE_URL, deviceBaseUrl: DEVICE_BASE_URL, clients: [client.registered], now });
}

/** The app's URL on this device (with the browser secret) at a step. */
function appUrl(interaction: string, options: { browser?: string; step?: string } = {}): string {
  const query = new URLSearchParams();
  if (options.browser) query.set('browser', options.browser);
  if (options.step) query.set('step', options.step);
  const base = options.browser ? TEST_BASE_URL : DEVICE_BASE_URL;
  return `${base}/app/${interaction}${query.size > 0 ? `?${query}` : ''}`;
}

function get(emulator: Emulator, url: string): Promise<Response> {
  return emulator.handle(new Request(url));
}

/** A press of one of the app's buttons: a form post, with the browser secret on this device. */
function press(emulator: Emulator, interaction: string, fields: Record<string, string>, browser?: string): Promise<Response> {
  return emulator.handle(formPost(`${TEST_BASE_URL}/app/${interaction}`, browser ? { ...fields, browser } : fields));
}

async function expectSeeOther(response: Response, location: string): Promise<void> {
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe(location);
}

/** Runs the four steps before consent as `persona`, checking each 303. */
async function walkToConsent(emulator: Emulator, interaction: string, persona: string, browser?: string): Promise<void> {
  await expectSeeOther(await press(emulator, interaction, { action: 'choose-document', persona }, browser), appUrl(interaction, { browser, step: 'scan' }));
  await expectSeeOther(await press(emulator, interaction, { action: 'scan-document' }, browser), appUrl(interaction, { browser, step: 'chip' }));
  await expectSeeOther(await press(emulator, interaction, { action: 'read-chip' }, browser), appUrl(interaction, { browser, step: 'chip' }));
  await expectSeeOther(await press(emulator, interaction, { action: 'check-face' }, browser), appUrl(interaction, { browser, step: 'face' }));
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

    await expectSeeOther(await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, browser), appUrl(interaction, { browser, step: 'scan' }));
    const scan = await (await get(emulator, appUrl(interaction, { browser, step: 'scan' }))).text();
    expect(scan).toContain('Step 2 of 5');
    expect(scan).toContain('<dd>FK4820713</dd>');
    expect(scan).toContain('<span>P&#60;NORHAUGEN&#60;&#60;INGRID&#60;SOLBERG'); // the MRZ, escaped
    expect(scan).toContain('data-testid="scan-document">Scan document</button>');

    await expectSeeOther(await press(emulator, interaction, { action: 'scan-document' }, browser), appUrl(interaction, { browser, step: 'chip' }));
    const chip = await (await get(emulator, appUrl(interaction, { browser, step: 'chip' }))).text();
    expect(chip).toContain('Step 3 of 5');
    expect(chip).toContain('data-testid="read-chip">Read chip</button>');

    await expectSeeOther(await press(emulator, interaction, { action: 'read-chip' }, browser), appUrl(interaction, { browser, step: 'chip' }));
    const chipRead = await (await get(emulator, appUrl(interaction, { browser, step: 'chip' }))).text();
    expect(chipRead).toContain('<span class="value" data-testid="active-authentication">passed</span>');
    expect(chipRead).toContain(`href="${appUrl(interaction, { browser, step: 'face' }).replaceAll('&', '&#38;')}" data-testid="continue"`);

    const face = await (await get(emulator, appUrl(interaction, { browser, step: 'face' }))).text();
    expect(face).toContain('Step 4 of 5');
    expect(face).toContain('data-testid="check-face">Start face check</button>');
    await expectSeeOther(await press(emulator, interaction, { action: 'check-face' }, browser), appUrl(interaction, { browser, step: 'face' }));
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

    const shared = await press(emulator, interaction, { outcome: 'approve' }, browser);
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
    await press(emulator, interaction, { action: 'choose-document', persona: 'lars-eriksson' }, browser);
    const scan = await (await get(emulator, appUrl(interaction, { browser, step: 'scan' }))).text();
    expect(scan).toContain('aria-label="Cancel verification" data-testid="cancel-verification"');

    const cancelled = await press(emulator, interaction, { outcome: 'cancel' }, browser);
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
    await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, browser);
    await expectSeeOther(await get(emulator, appUrl(interaction, { browser, step: 'face' })), appUrl(interaction, { browser, step: 'scan' }));
    // Earlier steps stay viewable (the back button).
    expect((await get(emulator, appUrl(interaction, { browser, step: 'document' }))).status).toBe(200);
  });

  it('refuses sharing, scanning, reading the chip and the face check out of order (409), and the app stays usable', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);

    const share = await press(emulator, interaction, { outcome: 'approve' }, browser);
    expect(share.status).toBe(409);
    const html = await share.text();
    expect(html).toContain('role="alert">Finish this step first');
    expect(html).toContain('<h1>Choose your document</h1>');

    expect((await press(emulator, interaction, { action: 'scan-document' }, browser)).status).toBe(409);
    await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, browser);
    expect((await press(emulator, interaction, { action: 'read-chip' }, browser)).status).toBe(409);
    expect((await press(emulator, interaction, { action: 'check-face' }, browser)).status).toBe(409);
    expect((await press(emulator, interaction, { outcome: 'approve' }, browser)).status).toBe(409);

    await press(emulator, interaction, { action: 'scan-document' }, browser);
    await press(emulator, interaction, { action: 'read-chip' }, browser);
    expect((await press(emulator, interaction, { outcome: 'approve' }, browser)).status).toBe(409);
    await press(emulator, interaction, { action: 'check-face' }, browser);
    expect((await press(emulator, interaction, { outcome: 'approve' }, browser)).status).toBe(303);
  });

  it('starts the checks again when another document is chosen', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await walkToConsent(emulator, interaction, 'ingrid-haugen', browser);
    await press(emulator, interaction, { action: 'choose-document', persona: 'sofia-costa' }, browser);
    await expectSeeOther(await get(emulator, appUrl(interaction, { browser, step: 'consent' })), appUrl(interaction, { browser, step: 'scan' }));
    expect((await press(emulator, interaction, { outcome: 'approve' }, browser)).status).toBe(409);
  });
});

describe('the persona whose face check fails (spec part 1)', () => {
  it('shows the failure at the face step, never reaches consent, and ends with access_denied and no code', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await walkToConsent(emulator, interaction, 'tobias-hansen', browser);

    await expectSeeOther(await get(emulator, appUrl(interaction, { browser, step: 'consent' })), appUrl(interaction, { browser, step: 'face' }));
    const face = await (await get(emulator, appUrl(interaction, { browser, step: 'face' }))).text();
    expect(face).toContain('<h1>Face check failed</h1>');
    expect(face).toContain('data-testid="face-check-failed"');
    expect(face).toContain('data-testid="end-verification">End verification</button>');
    expect(face).not.toContain('data-testid="share"');

    const ended = await press(emulator, interaction, { outcome: 'approve' }, browser);
    expect(ended.status).toBe(303);
    const redirect = new URL(ended.headers.get('location')!);
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('error_description')).toMatch(/face check failed/);
    expect(redirect.searchParams.has('code')).toBe(false);
  });

  it('cannot end with approval before the face check has run', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    await press(emulator, interaction, { action: 'choose-document', persona: 'tobias-hansen' }, browser);
    await press(emulator, interaction, { action: 'scan-document' }, browser);
    await press(emulator, interaction, { action: 'read-chip' }, browser);
    expect((await press(emulator, interaction, { outcome: 'approve' }, browser)).status).toBe(409);
  });
});

describe('bad input to the app is a 4xx page, never a 500', () => {
  it.each([
    ['an unknown step', { step: 'share' }, 400, /step &#39;share&#39; is not a step of the app/],
    ['a duplicated step', 'step=scan&step=face', 400, /more than once/],
  ])('GET with %s is a 400 error page', async (_name, query, status, description) => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    await expectErrorPage(await get(emulator, `${DEVICE_BASE_URL}/app/${interaction}?${new URLSearchParams(query)}`), status, description);
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
    const response = await press(emulator, interaction, fields as Record<string, string>, browser);
    expect(response.status).toBe(status);
    expect(await response.text()).toMatch(message);
    expect((await press(emulator, interaction, { action: 'choose-document', persona: 'ingrid-haugen' }, browser)).status).toBe(303);
  });

  it('refuses a browser secret that does not match (403) on GET and POST', async () => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    await expectErrorPage(await get(emulator, appUrl(interaction, { browser: 'guessed' })), 403, /browser secret does not match/);
    await expectErrorPage(await press(emulator, interaction, { outcome: 'cancel' }, 'guessed'), 403, /browser secret does not match/);
  });

  it('shows a 400 error page for an unknown interaction and for one past its 600 s lifetime', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    await expectErrorPage(await get(emulator, `${DEVICE_BASE_URL}/app/forged`), 400, /unknown or has expired/);
    await expectErrorPage(await press(emulator, 'forged', { action: 'scan-document' }), 400, /unknown or has expired/);
    const { interaction, browser } = await openAuthorizationPage(emulator, client, { now: clock });
    clock += 600_000;
    await expectErrorPage(await get(emulator, appUrl(interaction)), 400, /unknown or has expired/);
    await expectErrorPage(await press(emulator, interaction, { outcome: 'cancel' }, browser), 400, /unknown or has expired/);
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
    expect(put.headers.get('allow')).toBe('GET, POST');
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
    const emulator = createEmulator({ baseUrl: TEST_BASE_URL, clients: [hostile.registered] });
    const { interaction, browser } = await openAuthorizationPage(emulator, hostile);
    await walkToConsent(emulator, interaction, 'ingrid-haugen', browser);
    for (const step of ['document', 'consent']) {
      const html = await (await get(emulator, appUrl(interaction, { browser, step }).replace(DEVICE_BASE_URL, TEST_BASE_URL))).text();
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&#60;img src=x onerror=&#34;alert(1)&#34;&#62;');
    }
  });

  it('are phone-sized HTML with a strict CSP, no script, and portraits from both the issuer and the device URL', async () => {
    const emulator = newEmulator();
    const { interaction } = await openAuthorizationPage(emulator, client);
    const response = await get(emulator, appUrl(interaction));
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; img-src 'self' http:\/\/localhost:3000 http:\/\/192\.168\.1\.20:3000; base-uri 'none'; frame-ancestors 'none'$/,
    );
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">');
    expect(html).not.toContain('<script');
    // Opened from the QR code: everything points at the device URL.
    expect(html).toContain(`<img src="${DEVICE_BASE_URL}/portraits/ingrid-haugen.jpg"`);
    expect(html).toContain(`<form method="post" action="${DEVICE_BASE_URL}/app/${interaction}">`);
  });
});
