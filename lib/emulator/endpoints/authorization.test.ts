import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  authorizationPageFields,
  authorize,
  clientAuthentication,
  createPkce,
  createTestClient,
  createTestEmulator,
  formPost,
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';
import { personas, type Emulator } from '..';

let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  client = await createTestClient();
  other = await createTestClient({ clientId: 'other-client', redirectUri: 'https://rp.example/cb?tenant=a%20b&x=1' });
});

function newEmulator(now?: () => number): Emulator {
  return createTestEmulator({ clients: [client, other], now });
}

async function push(emulator: Emulator, as: TestClient = client, claims: Record<string, unknown> = {}): Promise<string> {
  const { codeChallenge } = await createPkce();
  const response = await emulator.handle(
    formPost(`${TEST_BASE_URL}/par`, {
      ...(await clientAuthentication(as)),
      request: await signAsClient(as, requestObjectClaims(as, { codeChallenge, claims })),
    }),
  );
  expect(response.status).toBe(201);
  return (await response.json()).request_uri;
}

function openAuthorization(emulator: Emulator, query: Record<string, string> | string) {
  return emulator.handle(new Request(`${TEST_BASE_URL}/auth?${new URLSearchParams(query)}`));
}

async function openInteraction(emulator: Emulator, as: TestClient = client, claims?: Record<string, unknown>) {
  const requestUri = await push(emulator, as, claims);
  const page = await openAuthorization(emulator, { client_id: as.clientId, request_uri: requestUri });
  expect(page.status).toBe(200);
  const html = await page.text();
  const { interaction, browser } = authorizationPageFields(html);
  return { html, interaction: interaction!, browser: browser! };
}

/** Posts the quick test form; `browser` is the page's secret, as a browser submits it. */
function decide(emulator: Emulator, form: Record<string, string>) {
  return emulator.handle(formPost(`${TEST_BASE_URL}/auth`, form));
}

async function expectErrorPage(response: Response, error: string, description: RegExp) {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const html = await response.text();
  expect(html).toContain(`<code data-testid="error-code">${error}</code>`);
  expect(html).toMatch(description);
}

describe('GET /auth (spec 4.2)', () => {
  it('shows the identity app: the client, what it requested, and every persona with a portrait', async () => {
    const emulator = newEmulator();
    const requestUri = await push(emulator);
    const response = await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toMatch(
      /default-src 'none'; style-src 'sha256-[^']+'; img-src 'self' http:\/\/localhost:3000;.*frame-ancestors 'none'/,
    );
    const html = await response.text();
    expect(html).toContain('Test client demo-client wants to verify your identity');
    expect(html).toContain('<code>standard</code>');
    expect(html).toMatch(/Given name\(s\)<span class="tag">essential<\/span>/);
    expect(html).toContain('Date of birth');
    expect(html).not.toContain('Nationalities');
    expect(html).toContain('Identity document (passport or ID card): Document type, Document number, Issuing country, National identity number');
    expect(html).toContain(`<form method="post" action="${TEST_BASE_URL}/auth">`);
    for (const persona of personas) {
      expect(html).toContain(`<input type="radio" name="persona" value="${persona.id}"`);
      expect(html).toContain(`<img src="${TEST_BASE_URL}/portraits/${persona.id}.jpg" alt=""`);
    }
    expect(html).toContain('<legend>');
    expect(html).toContain('name="outcome" value="approve"');
    expect(html).toContain('name="outcome" value="cancel"');
    // 4.2: the page works without JavaScript; its one script is external (CSP allows no inline script).
    expect(html.match(/<script\b[^>]*>/g)).toEqual([`<script src="${TEST_BASE_URL}/assets/auth-page.js" defer>`]);
    expect(response.headers.get('content-security-policy')).toContain(`script-src ${TEST_BASE_URL}/assets/auth-page.js;`);
    expect(response.headers.get('content-security-policy')).not.toContain('unsafe-inline');
  });

  it('consumes the request_uri: a second visit shows invalid_request_uri', async () => {
    const emulator = newEmulator();
    const requestUri = await push(emulator);
    expect((await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri })).status).toBe(200);
    await expectErrorPage(
      await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri }),
      'invalid_request_uri',
      /already been used/,
    );
  });

  it('refuses a request_uri after its 600 s lifetime', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const requestUri = await push(emulator);
    clock += 600_000;
    await expectErrorPage(
      await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri }),
      'invalid_request_uri',
      /unknown or has expired/,
    );
  });

  it('accepts a request_uri just before it expires', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const requestUri = await push(emulator);
    clock += 599_000;
    expect((await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri })).status).toBe(200);
  });

  it('refuses a request_uri presented with another client_id, without consuming it', async () => {
    const emulator = newEmulator();
    const requestUri = await push(emulator);
    await expectErrorPage(
      await openAuthorization(emulator, { client_id: other.clientId, request_uri: requestUri }),
      'invalid_request_uri',
      /was not issued to client &#39;other-client&#39;/,
    );
    expect((await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri })).status).toBe(200);
  });

  it.each([
    ['no client_id', { request_uri: 'urn:ietf:params:oauth:request_uri:x' }, 'invalid_request', /client_id&#39; is missing/],
    ['no request_uri', { client_id: 'demo-client' }, 'invalid_request', /request_uri&#39; is missing/],
    ['an unknown client_id', { client_id: 'nobody', request_uri: 'urn:ietf:params:oauth:request_uri:x' }, 'invalid_request', /is not registered/],
    [
      'an unknown request_uri',
      { client_id: 'demo-client', request_uri: 'urn:ietf:params:oauth:request_uri:x' },
      'invalid_request_uri',
      /unknown or has expired/,
    ],
    ['a duplicated client_id', 'client_id=demo-client&client_id=demo-client&request_uri=x', 'invalid_request', /more than once/],
  ])('shows an error page (not a redirect) for %s', async (_name, query, error, description) => {
    await expectErrorPage(await openAuthorization(newEmulator(), query), error, description);
  });

  it('at the default level, ignores query parameters beyond the two of 4.2 (RFC 6749 §3.1)', async () => {
    const emulator = newEmulator();
    const requestUri = await push(emulator);
    const response = await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri, prompt: 'login' });
    expect(response.status).toBe(200);
  });

  it('at the strict level, shows the invalid_request error page for a query parameter beyond the two of 4.2, and leaves the request_uri usable', async () => {
    const emulator = createTestEmulator({ clients: [client], strict: true });
    const requestUri = await push(emulator);
    await expectErrorPage(
      await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri, ui_locales: 'nb' }),
      'invalid_request',
      /unexpected parameter\(s\) &#39;ui_locales&#39;: spec 4.2 lists only client_id, request_uri \(strict level\)/,
    );
    expect((await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri })).status).toBe(200);
  });

  it('escapes every interpolated value (a client name with markup)', async () => {
    const hostile = await createTestClient({ clientId: 'hostile' });
    hostile.registered.name = '<script>alert("x")</script>';
    const emulator = createTestEmulator({ clients: [hostile] });
    const { html } = await openInteraction(emulator, hostile);
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
  });
});

describe('POST /auth: the identity app decides (spec 4.2, part 1)', () => {
  it('on approval, redirects (303) with a code, the state and iss, keeping the redirect URI query', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openInteraction(emulator, other);
    const response = await decide(emulator, { interaction, browser, persona: 'sofia-costa', outcome: 'approve' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location.startsWith('https://rp.example/cb?tenant=a%20b&x=1&code=')).toBe(true);
    const url = new URL(location);
    expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBe('state-0123456789abcdef0123456789ab');
    expect(url.searchParams.get('iss')).toBe(TEST_BASE_URL);
  });

  it('with iss on the redirect switched off, redirects without iss, on approval and on cancel (RFC 9207 is optional)', async () => {
    const emulator = createTestEmulator({ clients: [client], redirectIss: false });
    const approved = await authorize(emulator, client);
    expect([...approved.redirect.searchParams.keys()].sort()).toEqual(['code', 'state']);
    const cancelled = await authorize(emulator, client, { outcome: 'cancel' });
    expect([...cancelled.redirect.searchParams.keys()].sort()).toEqual(['error', 'error_description', 'state']);
    await emulator.control.setRedirectIss(true);
    expect((await authorize(emulator, client)).redirect.searchParams.get('iss')).toBe(TEST_BASE_URL);
  });

  it('on cancel, redirects with error=access_denied, the state and iss', async () => {
    const { redirect } = await authorize(newEmulator(), client, { outcome: 'cancel' });
    expect(Object.fromEntries(redirect.searchParams)).toEqual({
      error: 'access_denied',
      error_description: 'the user cancelled the verification',
      state: 'state-0123456789abcdef0123456789ab',
      iss: TEST_BASE_URL,
    });
  });

  it('redirects with access_denied when the persona fails the face check', async () => {
    const { redirect } = await authorize(newEmulator(), client, { persona: 'tobias-hansen' });
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('error_description')).toMatch(/face check failed/);
    expect(redirect.searchParams.has('code')).toBe(false);
  });

  it('redirects with access_denied under standard_etsi when the issuer check is not VALID', async () => {
    const claims = {
      id_token: {
        verified_claims: {
          verification: { trust_framework: { value: 'standard_etsi' } },
          claims: { given_name: { essential: true }, family_name: { essential: true } },
        },
      },
    };
    const { redirect } = await authorize(newEmulator(), client, { persona: 'lars-eriksson', claims });
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('error_description')).toMatch(/standard_etsi .* issuer check is UNKNOWN/);
    const norwegian = await authorize(newEmulator(), client, { persona: 'mikkel-strand', claims });
    expect(norwegian.redirect.searchParams.has('code')).toBe(true);
  });

  it('re-renders the app (400) for an unknown persona, and the interaction stays usable', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openInteraction(emulator);
    const response = await decide(emulator, { interaction, browser, persona: 'nobody', outcome: 'approve' });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('role="alert">That persona does not exist');
    expect(html).toContain(`value="${interaction}"`);
    expect((await decide(emulator, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' })).status).toBe(303);
  });

  it('re-renders the app (400) without a persona or with an unknown outcome', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openInteraction(emulator);
    expect((await decide(emulator, { interaction, browser, outcome: 'approve' })).status).toBe(400);
    expect((await decide(emulator, { interaction, browser, persona: 'ingrid-haugen', outcome: 'maybe' })).status).toBe(400);
    expect((await decide(emulator, { interaction, browser, persona: 'ingrid-haugen' })).status).toBe(400);
  });

  it('completes an interaction once: a second submission shows an error page', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openInteraction(emulator);
    expect((await decide(emulator, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' })).status).toBe(303);
    await expectErrorPage(
      await decide(emulator, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }),
      'invalid_request',
      /already been completed/,
    );
  });

  it('shows an error page for an unknown or expired interaction', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    await expectErrorPage(await decide(emulator, { interaction: 'forged', outcome: 'approve' }), 'invalid_request', /unknown or has expired/);
    const { interaction, browser } = await openInteraction(emulator);
    clock += 600_000;
    await expectErrorPage(
      await decide(emulator, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }),
      'invalid_request',
      /unknown or has expired/,
    );
  });

  it('shows an error page for a form post without interaction or with the wrong content type', async () => {
    const emulator = newEmulator();
    await expectErrorPage(await decide(emulator, { outcome: 'approve' }), 'invalid_request', /interaction&#39; is missing/);
    const json = await emulator.handle(new Request(`${TEST_BASE_URL}/auth`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }));
    await expectErrorPage(json, 'invalid_request', /Content-Type must be application\/x-www-form-urlencoded/);
  });
});

describe('HEAD on the authorization endpoint', () => {
  it('does not use up the request_uri (a link preview or prefetch must be harmless)', async () => {
    const client = await createTestClient();
    const emulator = createTestEmulator({ clients: [client] });
    const { codeChallenge } = await createPkce();
    const request = await signAsClient(client, requestObjectClaims(client, { codeChallenge }));
    const par = await emulator.handle(formPost(`${TEST_BASE_URL}/par`, { ...(await clientAuthentication(client)), request }));
    const { request_uri: requestUri } = (await par.json()) as { request_uri: string };
    const url = `${TEST_BASE_URL}/auth?${new URLSearchParams({ client_id: client.clientId, request_uri: requestUri })}`;

    const head = await emulator.handle(new Request(url, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const get = await emulator.handle(new Request(url));
    expect(get.status).toBe(200);
    expect(await get.text()).toContain('name="interaction"');
  });
});

describe('the client’s name and logo (clients.ts logoUri), and the persona it suggests (login_hint)', () => {
  const PNG = `data:image/png;base64,${Buffer.from('a logo').toString('base64')}`;
  const withLogo = (logoUri: string): TestClient => ({ ...client, registered: { ...client.registered, name: 'Nordlys Bank', logoUri } });

  it('says "<name> wants to verify your identity" with the logo beside it, its alternative text the name', async () => {
    const emulator = createTestEmulator({ clients: [withLogo(PNG)] });
    const { html } = await openInteraction(emulator);
    expect(html).toContain(
      `<div class="client-heading"><img class="client-logo" src="${PNG}" alt="Nordlys Bank" width="56" height="56" data-testid="client-logo"><h1>Nordlys Bank wants to verify your identity</h1></div>`,
    );
  });

  it('allows exactly the logo’s source for images: data: for an inlined logo, else the logo URL’s origin', async () => {
    const imgSrc = async (logo?: string) => {
      const emulator = createTestEmulator({ clients: [logo ? withLogo(logo) : client] });
      const requestUri = await push(emulator);
      const page = await openAuthorization(emulator, { client_id: client.clientId, request_uri: requestUri });
      return /img-src ([^;]+);/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    };
    expect(await imgSrc(PNG)).toBe("'self' http://localhost:3000 data:");
    expect(await imgSrc('https://cdn.rp.example/brand/logo.svg?v=3')).toBe("'self' http://localhost:3000 https://cdn.rp.example");
    expect(await imgSrc()).toBe("'self' http://localhost:3000");
  });

  it('shows no logo for a client without one, and names it by client_id when it has no name', async () => {
    const bare: TestClient = { ...client, registered: { ...client.registered, name: undefined } };
    const { html } = await openInteraction(createTestEmulator({ clients: [bare] }));
    expect(html).not.toContain('data-testid="client-logo"');
    expect(html).toContain('<h1>demo-client wants to verify your identity</h1>');
  });

  it('pre-selects the persona of the login_hint and says the client suggested it, in English and Norwegian', async () => {
    const emulator = createTestEmulator({ clients: [withLogo(PNG)] });
    const { html } = await openInteraction(emulator, client, { login_hint: 'lars-eriksson' });
    expect(html.match(/ checked>/g)).toHaveLength(1);
    expect(html).toContain('<input type="radio" name="persona" value="lars-eriksson" checked>');
    expect(html).toMatch(
      /value="lars-eriksson" checked>[\s\S]*?<span class="tag suggested" data-testid="suggested-persona">Suggested by Nordlys Bank<\/span>[\s\S]*?<\/label>/,
    );

    const norwegian = await openInteraction(emulator, client, { login_hint: 'lars-eriksson', ui_locales: 'nb' });
    expect(norwegian.html).toContain('<h1>Nordlys Bank vil verifisere identiteten din</h1>');
    expect(norwegian.html).toContain('data-testid="suggested-persona">Foreslått av Nordlys Bank</span>');
  });

  it('without a login_hint, or with one that names no persona, pre-selects the first persona and suggests none', async () => {
    const emulator = newEmulator();
    for (const claims of [{}, { login_hint: 'nobody-here' }]) {
      const { html } = await openInteraction(emulator, client, claims);
      expect(html).toContain(`<input type="radio" name="persona" value="${personas[0]!.id}" checked>`);
      expect(html.match(/ checked>/g)).toHaveLength(1);
      expect(html).not.toContain('suggested-persona');
    }
  });

  it('keeps the persona chosen in a refused post over the suggested one', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openInteraction(emulator, client, { login_hint: 'lars-eriksson' });
    const refused = await decide(emulator, { interaction, browser, persona: 'sofia-costa' });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('<input type="radio" name="persona" value="sofia-costa" checked>');
    expect(html).toContain('data-testid="suggested-persona">Suggested by Test client demo-client</span>');
  });
});
