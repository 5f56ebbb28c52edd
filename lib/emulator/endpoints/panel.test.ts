import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, createTestEmulator, type TestClient, type TestEmulatorOptions } from '@/test/support/emulator';
import type { Emulator } from '..';
import { personas } from '../personas/personas';
import { FAULTS } from '../qa/faults';

const PANEL_ACTION_URL = `${TEST_BASE_URL}/panel`;
const ORIGIN = new URL(TEST_BASE_URL).origin;

let client: TestClient;
let oddlyNamed: TestClient;

beforeAll(async () => {
  client = await createTestClient({ populationRegister: true });
  oddlyNamed = await createTestClient({ clientId: 'odd-client' });
  oddlyNamed.registered.name = '<img src=x onerror=alert(1)> & "friends"';
});

function newEmulator(): Emulator {
  return createTestEmulator({ clients: [client, oddlyNamed] });
}

async function getPanel(emulator: Emulator, query = '') {
  const response = await emulator.handle(new Request(`${TEST_BASE_URL}${query}`));
  return { response, html: await response.text() };
}

/** A form post as the panel's own page sends it from a browser (same origin). */
function panelPost(fields: Record<string, string>, headers: Record<string, string> = { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin' }) {
  return new Request(PANEL_ACTION_URL, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('GET {base}: the QA panel', () => {
  it('renders every section, every fault id and every client id, with test ids', async () => {
    const emulator = newEmulator();
    const { response, html } = await getPanel(emulator);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');

    for (const heading of ['Service', 'Registered clients', 'Signing keys', 'Faults', 'Personas', 'Conformance kit']) {
      expect(html).toContain(`-heading">${heading}</h2>`);
    }
    for (const fault of FAULTS) {
      expect(html).toContain(`data-testid="fault-${fault.id}"`);
      if (fault.kind === 'refusal') expect(html).toContain(`<code>${fault.expected}</code>`);
    }
    expect(html).toContain('The answer is unusual but valid: the relying party should accept it and read the claims.');
    expect(html).toContain('the relying party should accept it, read the claims and show no portrait from this picture.');
    for (const id of [client.clientId, oddlyNamed.clientId]) expect(html).toContain(`data-testid="client-${id}"`);
    // The current key and the next one, published ahead.
    expect(html.match(/data-testid="signing-key"/g)).toHaveLength(2);
    expect(html.match(/data-status="current"/g)).toHaveLength(1);
    expect(html.match(/data-status="next"/g)).toHaveLength(1);
    for (const persona of personas) expect(html).toContain(`src="/emulator/portraits/${persona.id}.jpg"`);
    expect(html).toContain(`href="${TEST_BASE_URL}/.well-known/openid-configuration"`);
    expect(html).toContain(`href="${TEST_BASE_URL}/jwks"`);
    expect(html).toContain('action="/emulator/panel"');
  });

  it('gives the conformance kit as a command for this emulator and its first client with a home page, and runs nothing itself', async () => {
    const { html } = await getPanel(newEmulator());
    const home = `${new URL(client.registered.redirectUris[0]!).origin}/`;
    expect(html).toContain('<h2 id="conformance-heading">Conformance kit</h2>');
    expect(html).toContain(`<code>npm run conformance -- --emulator ${TEST_BASE_URL} --client-id ${client.clientId} --start-url ${home}</code>`);
    // No page of the emulator runs the kit: the old conformance page is gone.
    expect((await newEmulator().handle(new Request(`${TEST_BASE_URL}/conformance`))).status).toBe(404);
    const withPassword = createTestEmulator({ clients: [client], panel: { mode: 'password', password: 'a-panel-password-long-enough' } });
    expect((await getPanel(withPassword)).html).toContain(`--start-url ${home} --panel-password …</code>`);
  });

  it('is also served at {base}/ and answers HEAD', async () => {
    const emulator = newEmulator();
    expect((await emulator.handle(new Request(`${TEST_BASE_URL}/`))).status).toBe(200);
    const head = await emulator.handle(new Request(TEST_BASE_URL, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('sends a strict CSP: no script, its own style by hash, same-origin images and form posts, no framing', async () => {
    const { response, html } = await getPanel(newEmulator());
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; img-src 'self'; form-action 'self' http:\/\/localhost:3000; base-uri 'none'; frame-ancestors 'none'$/,
    );
    expect(html).not.toMatch(/<script/i);
    // The same policy in the document, for hosts that replace the header (frame-ancestors only works as a header).
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1]?.replaceAll('&#39;', "'");
    expect(`${meta}; frame-ancestors 'none'`).toBe(csp);
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<style>'));
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // same-origin, not no-referrer: with no-referrer a browser would post `Origin: null`, which the CSRF check refuses.
    expect(response.headers.get('referrer-policy')).toBe('same-origin');
  });

  it('escapes every value it shows', async () => {
    const { html } = await getPanel(newEmulator());
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; &#34;friends&#34;');
    expect(html).not.toContain('<img src=x');
  });

  it('shows only fixed confirmations, for known faults and clients: a crafted link cannot make it say anything', async () => {
    const emulator = newEmulator();
    for (const query of [
      '?done=<b>hi</b>',
      '?done=fault_armed&fault=<b>hi</b>',
      '?done=population_register_enabled&client_id=nobody',
      '?done=fault_armed&fault=__proto__',
      '?done=id_token_encryption_set&client_id=<b>hi</b>',
    ]) {
      const { response, html } = await getPanel(emulator, query);
      expect(response.status).toBe(200);
      expect(html).not.toContain('data-testid="panel-notice"');
    }
    const { html } = await getPanel(emulator, '?done=fault_armed&fault=wrong_nonce');
    expect(html).toMatch(/data-testid="panel-notice">Armed &#34;Wrong nonce&#34; \(wrong_nonce\)/);
  });
});

describe('POST {base}/panel: the panel’s actions', () => {
  it('arm_fault arms the fault and answers 303 back to the panel, which shows it armed', async () => {
    const emulator = newEmulator();
    const response = await emulator.handle(panelPost({ action: 'arm_fault', fault: 'unknown_kid' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/emulator?done=fault_armed&fault=unknown_kid');
    expect(await emulator.control.armedFaults()).toEqual(['unknown_kid']);

    const { html } = await getPanel(emulator, '?done=fault_armed&fault=unknown_kid');
    expect(html).toMatch(/data-testid="fault-unknown_kid" data-armed="true">\s*<input type="hidden" name="action" value="disarm_fault">/);
    expect(html).toMatch(/data-testid="fault-wrong_nonce" data-armed="false">\s*<input type="hidden" name="action" value="arm_fault">/);
    expect(html).toContain('data-testid="panel-notice"');
  });

  it('disarm_fault disarms it', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('token_error');
    const response = await emulator.handle(panelPost({ action: 'disarm_fault', fault: 'token_error' }));
    expect(response.status).toBe(303);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('rotate_keys makes the next key current; the panel lists the current, the retiring and a new next key', async () => {
    const emulator = newEmulator();
    const [before, next] = (await emulator.control.signingKeys()).map((key) => key.kid);
    const response = await emulator.handle(panelPost({ action: 'rotate_keys' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/emulator?done=keys_rotated');

    // The key published ahead signs now; the old one retires; a new one is published ahead.
    const keys = await emulator.control.signingKeys();
    expect(keys.map((key) => [key.kid, key.current, key.next === true])).toEqual([
      [next, true, false],
      [before, false, false],
      [expect.not.stringMatching(new RegExp(`^(${before}|${next})$`)), false, true],
    ]);
    const { html } = await getPanel(emulator, '?done=keys_rotated');
    expect(html.match(/data-testid="signing-key"/g)).toHaveLength(3);
    expect(html).toContain(`Signing key rotated: new ID tokens are signed with kid ${keys[0]!.kid}.`);
  });

  it('set_discovery switches the discovery document to minimal and back, and the panel says which is served', async () => {
    const emulator = newEmulator();
    const minimal = await emulator.handle(panelPost({ action: 'set_discovery', shape: 'minimal' }));
    expect(minimal.status).toBe(303);
    expect(minimal.headers.get('location')).toBe('/emulator?done=discovery_minimal');
    expect(await emulator.control.discoveryShape()).toBe('minimal');
    const { html } = await getPanel(emulator, '?done=discovery_minimal');
    expect(html).toContain('data-shape="minimal"');
    expect(html).toContain('Serve the full document');
    expect((await emulator.handle(panelPost({ action: 'set_discovery', shape: 'full' }))).status).toBe(303);
    expect(await emulator.control.discoveryShape()).toBe('full');
    const refused = await emulator.handle(panelPost({ action: 'set_discovery', shape: 'sparse' }));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/shape\S* must be \S*full/);
  });

  it('set_strict switches the strict level on and off, next to the discovery switch, and the panel says which level is on', async () => {
    const emulator = newEmulator();
    expect((await getPanel(emulator)).html).toContain('data-testid="strictness" data-strict="false"');
    const on = await emulator.handle(panelPost({ action: 'set_strict', strict: 'true' }));
    expect(on.status).toBe(303);
    expect(on.headers.get('location')).toBe('/emulator?done=strict_on');
    expect(await emulator.control.strict()).toBe(true);
    const { html } = await getPanel(emulator, '?done=strict_on');
    expect(html).toMatch(/data-testid="strictness" data-strict="true">[\s\S]*name="strict" value="false"[\s\S]*Use the default level<\/button>/);
    expect(html).toContain('data-testid="panel-notice">The strict level is on');
    expect(html.indexOf('data-testid="discovery-shape"')).toBeLessThan(html.indexOf('data-testid="strictness"'));

    const off = await emulator.handle(panelPost({ action: 'set_strict', strict: 'false' }));
    expect(off.headers.get('location')).toBe('/emulator?done=strict_off');
    expect(await emulator.control.strict()).toBe(false);
  });

  it('set_redirect_iss stops and starts iss on the redirect, and the panel says which', async () => {
    const emulator = newEmulator();
    expect((await getPanel(emulator)).html).toContain('data-testid="redirect-iss" data-redirect-iss="true"');
    const off = await emulator.handle(panelPost({ action: 'set_redirect_iss', redirect_iss: 'false' }));
    expect(off.status).toBe(303);
    expect(off.headers.get('location')).toBe('/emulator?done=redirect_iss_off');
    expect(await emulator.control.redirectIss()).toBe(false);
    const { html } = await getPanel(emulator, '?done=redirect_iss_off');
    expect(html).toMatch(/data-testid="redirect-iss" data-redirect-iss="false">[\s\S]*name="redirect_iss" value="true"[\s\S]*Send iss<\/button>/);
    expect(html).toContain('data-testid="panel-notice">The redirect back carries no iss');
    // The fault that removes iss waits while the redirect carries none, and the panel says so.
    expect(html).toMatch(/data-testid="fault-missing_response_issuer"[\s\S]*data-testid="fault-waits"/);

    expect((await emulator.handle(panelPost({ action: 'set_redirect_iss', redirect_iss: 'true' }))).headers.get('location')).toBe(
      '/emulator?done=redirect_iss_on',
    );
    expect(await emulator.control.redirectIss()).toBe(true);
    expect((await getPanel(emulator)).html).not.toContain('data-testid="fault-waits"');
  });

  it('set_id_token_encryption changes one client’s variant; the panel shows each client’s and offers every variant', async () => {
    const emulator = newEmulator();
    const before = (await getPanel(emulator)).html;
    expect(before).toContain(`data-testid="id-token-encryption-${client.clientId}" data-alg="RSA-OAEP-256" data-enc="A256GCM"`);
    for (const value of ['RSA-OAEP-256', 'RSA-OAEP', 'A128GCM', 'A192GCM', 'A256GCM', 'A128CBC-HS256', 'A192CBC-HS384', 'A256CBC-HS512']) {
      expect(before).toContain(`<option value="${value}"`);
    }

    const response = await emulator.handle(panelPost({ action: 'set_id_token_encryption', client_id: client.clientId, alg: 'RSA-OAEP', enc: 'A192CBC-HS384' }));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/emulator?done=id_token_encryption_set&client_id=${client.clientId}`);
    expect(await emulator.control.idTokenEncryption(client.clientId)).toEqual({ alg: 'RSA-OAEP', enc: 'A192CBC-HS384' });
    expect(await emulator.control.idTokenEncryption(oddlyNamed.clientId)).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });

    const { html } = await getPanel(emulator, `?done=id_token_encryption_set&client_id=${client.clientId}`);
    expect(html).toContain(`data-testid="id-token-encryption-${client.clientId}" data-alg="RSA-OAEP" data-enc="A192CBC-HS384"`);
    expect(html).toContain('<option value="A192CBC-HS384" selected>');
    expect(html).toContain(`data-testid="panel-notice">ID tokens to ${client.clientId} are now encrypted with RSA-OAEP / A192CBC-HS384.`);
  });

  it('says the new switches and the encryption column in Norwegian bokmål', async () => {
    const emulator = newEmulator();
    const response = await emulator.handle(new Request(TEST_BASE_URL, { headers: { 'Accept-Language': 'nb' } }));
    const html = await response.text();
    expect(html).toContain('<html lang="nb"');
    for (const text of ['Bruk det strenge nivået', 'iss i videresendingen:', 'Slutt å sende iss', 'Kryptering av ID-token']) expect(html).toContain(text);
    const confirmed = await (await emulator.handle(new Request(`${TEST_BASE_URL}?done=strict_on`, { headers: { 'Accept-Language': 'nb' } }))).text();
    expect(confirmed).toContain('data-testid="panel-notice">Det strenge nivået er på');
  });

  it('set_population_register withdraws and grants the entitlement', async () => {
    const emulator = newEmulator();
    const off = await emulator.handle(panelPost({ action: 'set_population_register', client_id: client.clientId, enabled: 'false' }));
    expect(off.status).toBe(303);
    expect(off.headers.get('location')).toBe(`/emulator?done=population_register_disabled&client_id=${client.clientId}`);
    expect((await emulator.control.clients())[0]!.populationRegister).toBe(false);
    expect((await getPanel(emulator)).html).toContain(`data-testid="population-register-${client.clientId}">Disabled`);

    await emulator.handle(panelPost({ action: 'set_population_register', client_id: client.clientId, enabled: 'true' }));
    expect((await emulator.control.clients())[0]!.populationRegister).toBe(true);
  });

  it.each([
    ['no action', {}, /has no &#39;action&#39;/],
    ['an unknown action', { action: 'drop_tables' }, /Unknown action &#39;drop_tables&#39;/],
    ['arm_fault without a fault', { action: 'arm_fault' }, /has no &#39;fault&#39;/],
    ['an unknown fault', { action: 'arm_fault', fault: 'meltdown' }, /Unknown fault &#39;meltdown&#39;/],
    ['an Object.prototype name as fault', { action: 'disarm_fault', fault: 'constructor' }, /Unknown fault/],
    ['an unknown client', { action: 'set_population_register', client_id: 'nobody', enabled: 'true' }, /No client &#39;nobody&#39; is registered/],
    ['no client', { action: 'set_population_register', enabled: 'true' }, /has no &#39;client_id&#39;/],
    [
      'enabled that is not a boolean',
      { action: 'set_population_register', client_id: 'demo-client', enabled: 'yes' },
      /&#39;enabled&#39; must be &#39;true&#39; or &#39;false&#39;/,
    ],
    ['strict that is not a boolean', { action: 'set_strict', strict: 'on' }, /&#39;strict&#39; must be &#39;true&#39; or &#39;false&#39;, not &#39;on&#39;/],
    ['set_redirect_iss without a value', { action: 'set_redirect_iss' }, /&#39;redirect_iss&#39; must be &#39;true&#39; or &#39;false&#39;, not absent/],
    [
      'an encryption variant the emulator cannot issue',
      { action: 'set_id_token_encryption', client_id: 'demo-client', alg: 'RSA1_5', enc: 'A128CBC-HS256' },
      /&#39;alg&#39; must be one of RSA-OAEP-256, RSA-OAEP/,
    ],
    [
      'an encryption variant for an unknown client',
      { action: 'set_id_token_encryption', client_id: 'nobody', alg: 'RSA-OAEP', enc: 'A128GCM' },
      /No client &#39;nobody&#39; is registered/,
    ],
  ])('answers 400 with a page that says what is wrong for %s, and changes nothing', async (_name, fields, message) => {
    const emulator = newEmulator();
    const response = await emulator.handle(panelPost(fields as Record<string, string>));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toMatch(message);
    expect(html).toContain('data-testid="panel-error"');
    expect(await emulator.control.armedFaults()).toEqual([]);
    expect((await emulator.control.clients())[0]!.populationRegister).toBe(true);
    expect(await emulator.control.strict()).toBe(false);
    expect(await emulator.control.redirectIss()).toBe(true);
    expect((await emulator.control.clients())[0]!.idTokenEncryption).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
  });

  it('answers 400 pages, not 500s, for malformed bodies', async () => {
    const emulator = newEmulator();
    const json = await emulator.handle(
      new Request(PANEL_ACTION_URL, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"action":"rotate_keys"}' }),
    );
    expect(json.status).toBe(400);
    expect(await json.text()).toMatch(/Content-Type must be application\/x-www-form-urlencoded/);

    const twice = await emulator.handle(
      new Request(PANEL_ACTION_URL, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'action=arm_fault&fault=wrong_nonce&fault=expired',
      }),
    );
    expect(twice.status).toBe(400);
    expect(await emulator.control.armedFaults()).toEqual([]);

    const huge = await emulator.handle(panelPost({ action: 'arm_fault', fault: 'x'.repeat(10_000) }));
    expect(huge.status).toBe(413);
    expect(huge.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('answers GET {base}/panel with 405', async () => {
    const response = await newEmulator().handle(new Request(PANEL_ACTION_URL));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});

describe('POST {base}/panel refuses cross-site posts (CSRF)', () => {
  it.each([
    ['another Origin', { Origin: 'https://evil.example' }],
    ['an Origin on another port', { Origin: 'http://localhost:3001' }],
    ['Origin null (an opaque origin)', { Origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-site' }],
    ['Sec-Fetch-Site none (typed or bookmarked, never a form of the panel)', { 'Sec-Fetch-Site': 'none' }],
  ])('refuses %s with a 403 page and changes nothing', async (_name, headers) => {
    const emulator = newEmulator();
    const response = await emulator.handle(panelPost({ action: 'arm_fault', fault: 'wrong_nonce' }, headers));
    expect(response.status).toBe(403);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('data-testid="panel-error"');
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('accepts a post without Origin or Sec-Fetch-Site (curl, a test script)', async () => {
    const emulator = newEmulator();
    const response = await emulator.handle(panelPost({ action: 'arm_fault', fault: 'wrong_nonce' }, {}));
    expect(response.status).toBe(303);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
  });

  it('compares with its configured public origins, not the request URL (which a proxy or the framework reports as localhost:PORT)', async () => {
    const emulator = createTestEmulator({
      baseUrl: 'https://demo.example.com/emulator',
      deviceBaseUrl: 'http://192.168.1.20:3000/emulator',
      clients: [client],
    });
    const post = (origin: string) =>
      emulator.handle(
        new Request('http://localhost:3000/emulator/panel', {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin, 'Sec-Fetch-Site': 'same-origin' },
          body: 'action=arm_fault&fault=wrong_nonce',
        }),
      );
    expect((await post('https://demo.example.com')).status).toBe(303);
    expect((await post('http://192.168.1.20:3000')).status).toBe(303);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
    const refused = await post('http://localhost:3000');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('not from the panel&#39;s own origin https://demo.example.com');
  });
});

describe('arming a fault for one client from the panel', () => {
  it('offers the registered clients, arms for the chosen one and refuses an unknown one', async () => {
    const a = await createTestClient({ clientId: 'client-a' });
    const b = await createTestClient({ clientId: 'client-b' });
    const emulator = createTestEmulator({ clients: [a, b] });
    const post = (body: Record<string, string>) =>
      emulator.handle(
        new Request(`${TEST_BASE_URL}/panel`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(TEST_BASE_URL).origin, 'sec-fetch-site': 'same-origin' },
          body: new URLSearchParams(body),
        }),
      );

    const page = await (await emulator.handle(new Request(TEST_BASE_URL))).text();
    expect(page).toContain('<option value="client-b">client-b</option>');

    expect((await post({ action: 'arm_fault', fault: 'wrong_nonce', client_id: 'client-b' })).status).toBe(303);
    expect(await emulator.control.faultScope('wrong_nonce')).toBe('client-b');
    expect(await (await emulator.handle(new Request(TEST_BASE_URL))).text()).toContain('Armed for client-b');

    expect((await post({ action: 'arm_fault', fault: 'expired', client_id: 'nobody' })).status).toBe(400);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
  });
});

describe('a conformance run on the panel: its lock and the faults it armed', () => {
  const start = Date.UTC(2026, 0, 31, 12, 0, 30);

  it('says, in the Faults section, which run holds the emulator and until when; nothing once the lock is gone', async () => {
    const clock = { now: start };
    const emulator = createTestEmulator({ clients: [client, oddlyNamed], now: () => clock.now });
    expect((await getPanel(emulator)).html).not.toContain('data-testid="run-lock"');

    await emulator.control.takeRunLock('kit-Abc_123', 90);
    const { html } = await getPanel(emulator);
    const faults = html.slice(html.indexOf('<section id="faults"'), html.indexOf('</section>', html.indexOf('<section id="faults"')));
    expect(faults).toContain(
      '<p class="callout" data-testid="run-lock">A conformance run (owner <code>kit-Abc_123</code>) holds this emulator until <time datetime="2026-01-31T12:02:00.000Z">12:02:00 UTC</time>; its client-wide cases may touch other verifications meanwhile.</p>',
    );

    const norwegian = await (await emulator.handle(new Request(TEST_BASE_URL, { headers: { 'Accept-Language': 'nb' } }))).text();
    expect(norwegian).toContain(
      'En kjøring av samsvarstestingen (eier <code>kit-Abc_123</code>) holder denne emulatoren til <time datetime="2026-01-31T12:02:00.000Z">kl. 12:02:00 UTC</time>; tilfellene dens som gjelder hele klienten, kan berøre andre verifiseringer i mellomtiden.',
    );

    await emulator.control.releaseRunLock('kit-Abc_123');
    expect((await getPanel(emulator)).html).not.toContain('data-testid="run-lock"');
    await emulator.control.takeRunLock('kit-Abc_123', 5);
    clock.now += 5_000;
    expect((await getPanel(emulator)).html).not.toContain('data-testid="run-lock"');
  });

  it('marks a fault armed with an armed_by as “armed by” that run, and a hand-armed fault not', async () => {
    const emulator = newEmulator();
    await emulator.control.armFaultAs('wrong_nonce', oddlyNamed.clientId, 'run-1');
    await emulator.control.armFault('expired', client.clientId);
    const { html } = await getPanel(emulator);
    expect(html).toMatch(
      /data-testid="fault-wrong_nonce" data-armed="true">[\s\S]*?<span class="tag warn">Armed for odd-client<\/span> <span class="tag" data-testid="fault-wrong_nonce-armed-by">armed by run-1<\/span><\/p>/,
    );
    expect(html).toMatch(/data-testid="fault-expired" data-armed="true">[\s\S]*?<span class="tag warn">Armed for demo-client<\/span><\/p>/);
    expect(html.match(/-armed-by"/g)).toHaveLength(1);

    const norwegian = await (await emulator.handle(new Request(TEST_BASE_URL, { headers: { 'Accept-Language': 'nb' } }))).text();
    expect(norwegian).toContain('<span class="tag" data-testid="fault-wrong_nonce-armed-by">aktivert av run-1</span>');
  });
});

describe('who may use the panel’s actions', () => {
  const PASSWORD = 'correct horse battery';

  function emulatorWith(panel: TestEmulatorOptions['panel'], address: string | (() => string) = '192.0.2.1', now?: () => number) {
    return createTestEmulator({ clients: [client], panel, clientAddress: typeof address === 'string' ? () => address : address, ...(now ? { now } : {}) });
  }

  /** The panel's cookie from a Set-Cookie header, as a browser sends it back. */
  function cookieOf(response: Response): string {
    const setCookie = response.headers.get('set-cookie') ?? '';
    return setCookie.split(';')[0]!;
  }

  it('a read-only panel shows why, disables every action button and refuses every action with 403', async () => {
    const emulator = emulatorWith({ mode: 'read-only', reason: 'the emulator runs in production without a panel password.' });
    const { html } = await getPanel(emulator);
    expect(html).toContain('data-access="read-only"');
    expect(html).toContain('the emulator runs in production without a panel password.');
    // Every action's button; the language switch is not an action of the panel and stays usable.
    const buttons = (html.match(/<button[^>]*>/g) ?? []).filter((button) => !button.includes('name="lang"'));
    expect(buttons.length).toBeGreaterThan(5);
    for (const button of buttons) expect(button).toContain(' disabled');

    for (const fields of [{ action: 'rotate_keys' }, { action: 'arm_fault', fault: 'par_server_error' }] as Record<string, string>[]) {
      const response = await emulator.handle(panelPost(fields));
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('The panel is read-only');
    }
    expect(await emulator.control.armedFaults()).toEqual([]);
    expect((await emulator.control.signingKeys()).filter((key) => key.current)).toHaveLength(1);
    expect(await emulator.control.signingKeys()).toHaveLength(2);
  });

  it('with a password: actions before signing in are refused, a wrong password is refused, the right one signs the browser in', async () => {
    const emulator = emulatorWith({ mode: 'password', password: PASSWORD });
    const before = await getPanel(emulator);
    expect(before.html).toContain('data-access="signed-out"');
    expect(before.html).toMatch(/<label for="panel-password">Panel password<\/label>\s*<input id="panel-password" name="password" type="password"/);

    const refused = await emulator.handle(panelPost({ action: 'arm_fault', fault: 'par_server_error' }));
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('ask for the panel password');

    const wrong = await emulator.handle(panelPost({ action: 'sign_in', password: 'correct horse battery!' }));
    expect(wrong.status).toBe(403);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    // The panel again, with the refusal at the password field.
    const wrongHtml = await wrong.text();
    expect(wrongHtml).toContain('data-access="signed-out"');
    expect(wrongHtml).toMatch(
      /<input id="panel-password" name="password" type="password" autocomplete="current-password" required aria-invalid="true" aria-describedby="panel-password-error" autofocus>/,
    );
    expect(wrongHtml).toContain('<p id="panel-password-error" class="field-error" role="alert" data-testid="panel-error">That is not the panel password.</p>');

    const signedIn = await emulator.handle(panelPost({ action: 'sign_in', password: PASSWORD }));
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/emulator?done=signed_in');
    const setCookie = signedIn.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^idv_emulator_panel=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/emulator; HttpOnly; SameSite=Strict$/);

    const cookie = cookieOf(signedIn);
    const armed = await emulator.handle(panelPost({ action: 'arm_fault', fault: 'par_server_error' }, { Origin: ORIGIN, Cookie: cookie }));
    expect(armed.status).toBe(303);
    expect(await emulator.control.armedFaults()).toEqual(['par_server_error']);
    const after = await emulator.handle(new Request(`${TEST_BASE_URL}?done=signed_in`, { headers: { Cookie: cookie } }));
    const html = await after.text();
    expect(html).toContain('data-access="signed-in"');
    expect(html).toContain('Signed in: the panel’s actions are yours');
    expect(html).not.toMatch(/<button[^>]* disabled/);

    // A crafted link does not tell a browser that is not signed in that it is.
    expect((await getPanel(emulator, '?done=signed_in')).html).not.toContain('Signed in:');
  });

  it('signing out ends the sign-in for the store, not only the cookie', async () => {
    const emulator = emulatorWith({ mode: 'password', password: PASSWORD });
    const cookie = cookieOf(await emulator.handle(panelPost({ action: 'sign_in', password: PASSWORD })));
    const out = await emulator.handle(panelPost({ action: 'sign_out' }, { Origin: ORIGIN, Cookie: cookie }));
    expect(out.status).toBe(303);
    expect(out.headers.get('set-cookie')).toMatch(/^idv_emulator_panel=; Max-Age=0; Path=\/emulator;/);
    // The old cookie, replayed, no longer works.
    const replayed = await emulator.handle(panelPost({ action: 'rotate_keys' }, { Origin: ORIGIN, Cookie: cookie }));
    expect(replayed.status).toBe(403);
  });

  it('a forged or malformed cookie is not a sign-in', async () => {
    const emulator = emulatorWith({ mode: 'password', password: PASSWORD });
    for (const cookie of ['idv_emulator_panel=' + 'A'.repeat(43), 'idv_emulator_panel=../../x', 'idv_emulator_panel=%E0%A4%A', 'garbage']) {
      const response = await emulator.handle(panelPost({ action: 'rotate_keys' }, { Origin: ORIGIN, Cookie: cookie }));
      expect(response.status).toBe(403);
    }
  });

  it('counts every sign-in attempt per address, the right password included once over the limit: 10 per 15 minutes, then 429', async () => {
    let clock = Date.now();
    const emulator = emulatorWith({ mode: 'password', password: PASSWORD }, '198.51.100.7', () => clock);
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await emulator.handle(panelPost({ action: 'sign_in', password: `guess ${attempt} guess` }))).status).toBe(403);
      clock += 61_000; // past any back-off
    }
    const limited = await emulator.handle(panelPost({ action: 'sign_in', password: PASSWORD }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(limited.headers.get('set-cookie')).toBeNull();
    expect(await limited.text()).toContain('Too many sign-in attempts');
  });

  it('caps sign-in attempts from all addresses together at a high ceiling: 100 per 15 minutes, however many addresses try', async () => {
    let clock = Date.now();
    let address = 0;
    const emulator = emulatorWith(
      { mode: 'password', password: PASSWORD },
      () => `203.0.113.${address}`,
      () => clock,
    );
    // Ten addresses, each up to its own limit of 10.
    for (let attempt = 0; attempt < 100; attempt++) {
      address = attempt % 10;
      expect((await emulator.handle(panelPost({ action: 'sign_in', password: `guess ${attempt} guess` }))).status).toBe(403);
      if (address === 9) clock += 61_000; // past any back-off
    }
    address = 99;
    const limited = await emulator.handle(panelPost({ action: 'sign_in', password: PASSWORD }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('set-cookie')).toBeNull();
  });

  it('after three wrong passwords in a row from an address, each next attempt from it waits twice as long, up to a minute; the right password ends the back-off', async () => {
    let clock = Date.now();
    const emulator = emulatorWith({ mode: 'password', password: PASSWORD }, '203.0.113.7', () => clock);
    const attempt = (password: string) => emulator.handle(panelPost({ action: 'sign_in', password }));
    for (let wrong = 0; wrong < 3; wrong++) expect((await attempt('a wrong guess!')).status).toBe(403);
    // The fourth wrong password (no wait before it) starts a wait of 2 s.
    expect((await attempt('a wrong guess!')).status).toBe(403);
    const waiting = await attempt(PASSWORD);
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get('retry-after')).toBe('2');
    clock += 2000;
    expect((await attempt('a wrong guess!')).status).toBe(403);
    expect((await attempt(PASSWORD)).headers.get('retry-after')).toBe('4');
    // Up to a minute at most: the ninth wrong password would make it 64 s. (Ten attempts in all,
    // the address's limit; a wait is not an attempt.)
    for (let wrong = 6; wrong <= 9; wrong++) {
      clock += 61_000;
      expect((await attempt('a wrong guess!')).status).toBe(403);
    }
    expect((await attempt(PASSWORD)).headers.get('retry-after')).toBe('60');
    clock += 60_000;
    expect((await attempt(PASSWORD)).status).toBe(303);
  });

  it('refuses a sign-in posted from another site, as every panel post', async () => {
    const emulator = emulatorWith({ mode: 'password', password: PASSWORD });
    const response = await emulator.handle(panelPost({ action: 'sign_in', password: PASSWORD }, { Origin: 'https://evil.example' }));
    expect(response.status).toBe(403);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('an open panel has no sign-in, and says so when asked to sign in', async () => {
    const emulator = emulatorWith({ mode: 'open' });
    expect((await getPanel(emulator)).html).not.toContain('data-access=');
    const response = await emulator.handle(panelPost({ action: 'sign_in', password: PASSWORD }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('no password to sign in with');
  });

  it('refuses a password shorter than 12 characters', () => {
    expect(() => emulatorWith({ mode: 'password', password: 'short' })).toThrow(/at least 12 characters/);
  });
});

describe('arm and start', () => {
  it('arms the faults ticked, for the client chosen, and answers 303 to that relying party’s start page', async () => {
    const emulator = newEmulator();
    const response = await emulator.handle(
      panelPost({ action: 'arm_and_start', arm_wrong_nonce: 'on', arm_token_timeout: 'on', arm_expired: 'off', client_id: 'demo-client' }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('http://localhost:3000/');
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce', 'token_timeout']);
    expect(await emulator.control.faultScope('wrong_nonce')).toBe('demo-client');
  });

  it('goes to the first client’s start page, arming nothing, when nothing is ticked; refuses an unknown client', async () => {
    const emulator = newEmulator();
    const clean = await emulator.handle(panelPost({ action: 'arm_and_start' }));
    expect(clean.status).toBe(303);
    expect(clean.headers.get('location')).toBe('http://localhost:3000/');
    expect(await emulator.control.armedFaults()).toEqual([]);
    expect((await emulator.handle(panelPost({ action: 'arm_and_start', client_id: 'nobody' }))).status).toBe(400);
  });

  it('is offered on the panel, with links back to the relying parties', async () => {
    const { html } = await getPanel(newEmulator());
    expect(html).toContain('<input type="hidden" name="action" value="arm_and_start">');
    expect(html).toContain('<input type="checkbox" name="arm_wrong_nonce" value="on">');
    expect(html).toMatch(/<a href="http:\/\/localhost:3000\/" data-testid="back-to-app">Back to [^<]+<\/a>/);
  });

  it('is refused before signing in to a panel with a password', async () => {
    const emulator = createTestEmulator({ clients: [client], panel: { mode: 'password', password: 'a panel password of some length' } });
    const refused = await emulator.handle(panelPost({ action: 'arm_and_start', arm_wrong_nonce: 'on' }));
    expect(refused.status).toBe(403);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });
});
