import { createHash } from 'node:crypto';
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
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';
import type { Emulator } from '..';
import { LANGUAGE_COOKIE, checkReturnPath, chooseLocale } from './language';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

function newEmulator(): Emulator {
  return createTestEmulator({ clients: [client], deviceBaseUrl: TEST_DEVICE_BASE_URL });
}

/** Runs PAR with `extra` claims merged into the request object; the request_uri, or the refusal. */
async function push(emulator: Emulator, extra: Record<string, unknown> = {}): Promise<Response> {
  const { codeChallenge } = await createPkce();
  return emulator.handle(
    formPost(`${TEST_BASE_URL}/par`, {
      ...(await clientAuthentication(client)),
      request: await signAsClient(client, requestObjectClaims(client, { codeChallenge, claims: extra })),
    }),
  );
}

/** PAR (with `extra` claims), then GET /auth as a browser sending `headers`. */
async function openPage(emulator: Emulator, options: { extra?: Record<string, unknown>; headers?: Record<string, string> } = {}) {
  const par = await push(emulator, options.extra);
  expect(par.status).toBe(201);
  const { request_uri: requestUri } = (await par.json()) as { request_uri: string };
  const query = new URLSearchParams({ client_id: client.clientId, request_uri: requestUri });
  const response = await emulator.handle(new Request(`${TEST_BASE_URL}/auth?${query}`, { headers: options.headers }));
  const html = await response.text();
  const { interaction, browser } = authorizationPageFields(html);
  return { response, html, interaction: interaction!, browser: browser! };
}

function get(emulator: Emulator, url: string, headers: Record<string, string> = {}): Promise<Response> {
  return emulator.handle(new Request(url, { headers }));
}

const NORWEGIAN = { 'Accept-Language': 'nb-NO,nb;q=0.9,en;q=0.5' };

/** The computer confirms the phone whose code screen is `phoneScreen`, by the code it shows. */
async function confirmPhone(emulator: Emulator, interaction: string, browser: string, phoneScreen: string): Promise<void> {
  const code = /data-testid="phone-code">([^<]+)</.exec(phoneScreen)![1]!;
  const confirmed = await emulator.handle(formPost(`${TEST_BASE_URL}/app/${interaction}`, { browser, action: 'confirm-phone', code }));
  expect(confirmed.status).toBe(303);
}
const COOKIE_EN = { Cookie: `${LANGUAGE_COOKIE}=en` };
const COOKIE_NB = { Cookie: `${LANGUAGE_COOKIE}=nb` };

/** The value of the language switch's button for `lang`, as rendered. */
function switchButton(html: string, lang: 'en' | 'nb'): string | undefined {
  return new RegExp(`<button type="submit" name="lang" value="${lang}"[^>]*>[^<]*</button>`).exec(html)?.[0];
}

/** Every page has the switch: a form posting to {base}/language, one button per language, the current one pressed. */
function expectSwitch(html: string, current: 'en' | 'nb', returnTo?: string): void {
  const form =
    /<form class="language-switch-form" method="post" action="\/emulator\/language">\s*<div class="language-switch" role="group" aria-label="([^"]+)" data-testid="language-switch">\s*<input type="hidden" name="return_to" value="([^"]*)">/.exec(
      html,
    );
  expect(form, 'the language switch').not.toBeNull();
  expect(form![1]).toBe(current === 'nb' ? 'Språk' : 'Language');
  if (returnTo !== undefined) expect(form![2]!.replaceAll('&#38;', '&')).toBe(returnTo);
  expect(switchButton(html, 'en')).toBe(`<button type="submit" name="lang" value="en" lang="en" aria-pressed="${current === 'en'}">English</button>`);
  expect(switchButton(html, 'nb')).toBe(`<button type="submit" name="lang" value="nb" lang="nb" aria-pressed="${current === 'nb'}">Norsk</button>`);
}

describe('how a page’s language is chosen', () => {
  it('is English by default: lang="en", the English page as it was, the switch on English', async () => {
    const { response, html } = await openPage(newEmulator());
    expect(response.status).toBe(200);
    expect(html).toContain('<html lang="en" data-theme="system">');
    expect(response.headers.get('content-language')).toBe('en');
    expect(html).toContain('<h1>Test client demo-client wants to verify your identity</h1>');
    expect(html).toContain('<button class="approve" type="submit" name="outcome" value="approve">Verify and share</button>');
    expectSwitch(html, 'en');
  });

  it('follows Accept-Language nb-NO: the page in bokmål, lang="nb", protocol names as they are', async () => {
    const { response, html, interaction, browser } = await openPage(newEmulator(), { headers: NORWEGIAN });
    expect(html).toContain('<html lang="nb" data-theme="system">');
    expect(response.headers.get('content-language')).toBe('nb');
    expect(html).toContain('<title>Verifiser identiteten din for Test client demo-client</title>');
    expect(html).toContain('<h1>Test client demo-client vil verifisere identiteten din</h1>');
    expect(html).toContain('<h2 id="handoff-heading">Fortsett i ID Check-appen</h2>');
    expect(html).toContain('>Jeg er ferdig på telefonen</a>');
    expect(html).toContain('<button class="approve" type="submit" name="outcome" value="approve">Verifiser og del</button>');
    expect(html).toContain('<button class="cancel" type="submit" name="outcome" value="cancel">Avbryt</button>');
    // The requested claims and details in Norwegian; the trust framework id as the spec writes it.
    expect(html).toContain('<p>Tillitsrammeverk <code>standard</code></p>');
    expect(html).toContain('<li>Fornavn<span class="tag">påkrevd</span></li>');
    expect(html).toContain('Identitetsdokument (pass eller ID-kort): Dokumenttype, Dokumentnummer, Utstedende land, Identitetsnummer');
    // Personas: names and numbers unchanged, the document and its date in Norwegian.
    expect(html).toContain('<span class="muted">Norsk pass FK4820713, utløper 10. juni 2031</span>');
    expect(html).toContain('<span class="muted">Brikke og utstederkontroll er gyldige; finnes i folkeregisteret.</span>');
    expect(html).toContain('<span class="tag">I folkeregisteret</span>');
    expect(html).toContain('data-testid="device-status">Venter på telefonen din …</p>');
    // The switch comes back to this page by GET /auth/page (the request_uri is used up).
    expectSwitch(html, 'nb', `/emulator/auth/page?interaction=${interaction}&browser=${browser}`);
    expect(html).not.toContain('Verify and share');
  });

  it('follows the request object’s ui_locales over Accept-Language, and the app on a phone (QR code) speaks it too', async () => {
    const emulator = newEmulator();
    const { html, interaction, browser } = await openPage(emulator, { extra: { ui_locales: 'nb en' }, headers: { 'Accept-Language': 'en-US,en;q=0.9' } });
    expect(html).toContain('<html lang="nb" data-theme="system">');
    expect(html).toContain('vil verifisere identiteten din</h1>');

    // A phone with its own browser (English) opens the QR link: the interaction carries ui_locales.
    const bind = await get(emulator, `${TEST_DEVICE_BASE_URL}/app/${interaction}`, { 'Accept-Language': 'en' });
    expect(bind.status).toBe(303);
    const location = new URL(bind.headers.get('location')!);
    const confirm = await (await get(emulator, location.href, { 'Accept-Language': 'en' })).text();
    expect(confirm).toContain('<html lang="nb" data-theme="system">');
    expect(confirm).toContain('<h1>Bekreft denne telefonen på datamaskinen</h1>');
    expectSwitch(confirm, 'nb', `${location.pathname}${location.search}`);

    // Confirmed on the computer by the code it shows, the phone's app speaks Norwegian too.
    await confirmPhone(emulator, interaction, browser, confirm);
    const screen = await get(emulator, location.href, { 'Accept-Language': 'en' });
    const app = await screen.text();
    expect(app).toContain('<html lang="nb" data-theme="system">');
    expect(app).toContain('<h1>Velg dokumentet ditt</h1>');
    expect(app).toContain('data-testid="app-step">Steg 1 av 5</p>');
    expectSwitch(app, 'nb', `${location.pathname}${location.search}&step=document`);
  });

  it('takes ui_locales in order of preference, skipping languages it does not speak; en picks English', async () => {
    const emulator = newEmulator();
    expect((await openPage(emulator, { extra: { ui_locales: 'de-DE nb-NO' } })).html).toContain('<html lang="nb" data-theme="system">');
    expect((await openPage(emulator, { extra: { ui_locales: 'en nb' }, headers: NORWEGIAN })).html).toContain('<html lang="en" data-theme="system">');
    // Nothing it speaks: Accept-Language decides.
    expect((await openPage(emulator, { extra: { ui_locales: 'fr sv' }, headers: NORWEGIAN })).html).toContain('<html lang="nb" data-theme="system">');
  });

  it('the switch’s cookie beats both ui_locales and Accept-Language', async () => {
    const emulator = newEmulator();
    const english = await openPage(emulator, { extra: { ui_locales: 'nb' }, headers: { ...NORWEGIAN, ...COOKIE_EN } });
    expect(english.html).toContain('<html lang="en" data-theme="system">');
    expect(english.html).toContain('wants to verify your identity</h1>');
    expectSwitch(english.html, 'en');

    const norwegian = await openPage(emulator, { extra: { ui_locales: 'en' }, headers: { 'Accept-Language': 'en', ...COOKIE_NB } });
    expect(norwegian.html).toContain('<html lang="nb" data-theme="system">');
    // A cookie naming no language of ours is ignored.
    const ignored = await openPage(emulator, { extra: { ui_locales: 'nb' }, headers: { Cookie: `${LANGUAGE_COOKIE}=de` } });
    expect(ignored.html).toContain('<html lang="nb" data-theme="system">');
  });

  it('chooseLocale: cookie, then ui_locales, then Accept-Language, then English', () => {
    const request = (headers: Record<string, string>) => new Request(TEST_BASE_URL, { headers });
    expect(chooseLocale(request({}))).toBe('en');
    expect(chooseLocale(request(NORWEGIAN))).toBe('nb');
    expect(chooseLocale(request({ 'Accept-Language': 'nn' }))).toBe('nb');
    expect(chooseLocale(request({ 'Accept-Language': 'en' }), 'no')).toBe('nb');
    expect(chooseLocale(request(NORWEGIAN), 'en')).toBe('en');
    expect(chooseLocale(request({ ...NORWEGIAN, Cookie: `other=1; ${LANGUAGE_COOKIE}=en` }), 'nb')).toBe('en');
  });
});

describe('ui_locales in the request object (OpenID Connect Core §3.1.2.1)', () => {
  it('is optional and must be a string: a number, array or object is refused like any malformed claim', async () => {
    const emulator = newEmulator();
    for (const value of [42, ['nb', 'en'], { nb: true }, null]) {
      const response = await push(emulator, { ui_locales: value });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_request');
      expect(body.error_description).toMatch(/^request object claim 'ui_locales' must be a JSON string, not /);
    }
    expect((await push(emulator, { ui_locales: '' })).status).toBe(201);
    expect((await push(emulator, { ui_locales: 'nb en' })).status).toBe(201);
  });
});

describe('every page in Norwegian', () => {
  it('the app’s screens, from choosing the document to the consent and the done screen', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openPage(emulator, { extra: { ui_locales: 'nb' } });
    const app = (step?: string) => `${TEST_BASE_URL}/app/${interaction}?browser=${browser}${step ? `&step=${step}` : ''}`;
    const press = (fields: Record<string, string>) => emulator.handle(formPost(`${TEST_BASE_URL}/app/${interaction}`, { ...fields, browser }));

    const choose = await (await get(emulator, app())).text();
    expect(choose).toContain('<h1>Velg dokumentet ditt</h1>');
    expect(choose).toContain('<span class="sub">Norsk pass FK4820713</span>');
    expect(choose).toContain('<span class="tag warn">Ansiktskontrollen feiler</span>');
    expect(choose).toContain('aria-label="Avbryt verifiseringen"');
    expect(choose).toContain('<footer class="below">Simulert identitetsapp for Test client demo-client. Alle personer og dokumenter er fiktive.</footer>');
    expectSwitch(choose, 'nb', `/emulator/app/${interaction}?browser=${browser}&step=document`);

    expect((await press({ action: 'choose-document', persona: 'ingrid-haugen' })).status).toBe(303);
    const scan = await (await get(emulator, app('scan'))).text();
    expect(scan).toContain('<h1>Skann dokumentet ditt</h1>');
    expect(scan).toContain('<span>Norge</span><span>Pass</span>');
    expect(scan).toContain('<dt>Etternavn</dt><dd>HAUGEN</dd>');
    expect(scan).toContain('data-testid="scan-document">Skann dokumentet</button>');

    expect((await press({ action: 'scan-document' })).status).toBe(303);
    expect(await (await get(emulator, app('chip'))).text()).toContain('Dokumentet er skannet: norsk pass FK4820713');
    expect((await press({ action: 'read-chip' })).status).toBe(303);
    const chip = await (await get(emulator, app('chip'))).text();
    expect(chip).toContain('<h1>Brikken er lest</h1>');
    expect(chip).toContain('Brikkeautentisering: <span class="value" data-testid="active-authentication">bestått</span>');
    expect(chip).toContain('Utstederkontroll: <span class="value">gyldig</span>');

    expect((await press({ action: 'check-face' })).status).toBe(303);
    const face = await (await get(emulator, app('face'))).text();
    expect(face).toContain('<h1>Ansiktskontrollen er bestått</h1>');
    expect(face).toContain('aria-label="Tilbake til forrige steg: les brikken"');

    const consent = await (await get(emulator, app('consent'))).text();
    expect(consent).toContain('<h1>Dele med Test client demo-client?</h1>');
    expect(consent).toContain('<span class="label">Fødselsdato</span><span class="value">');
    expect(consent).toMatch(/<span class="label">Fødselsdato<\/span><span class="value">\d{1,2}\. [a-zæøå]+ \d{4}<\/span>/);
    expect(consent).toContain('<span class="label">Utstedende land</span><span class="value">Norge (NOR)</span>');
    expect(consent).toContain('<span class="label">Dokumenttype</span><span class="value">Pass</span>');
    expect(consent).toContain('<p class="fine">Tillitsrammeverk <code>standard</code>.</p>');
    expect(consent).toContain('data-testid="share">Del</button>');

    // A refusal is shown on the screen in Norwegian, and its switch comes back to the screen by GET.
    const refused = await press({ outcome: 'approve', persona: 'sofia-costa' });
    expect(refused.status).toBe(409);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('role="alert">Dokumentet er endret siden denne skjermen ble vist.');
    expectSwitch(refusedHtml, 'nb', `/emulator/app/${interaction}?browser=${browser}&step=consent`);
  });

  it('the phone’s done screen, its reason for a refusal, and the finished screen', async () => {
    const emulator = newEmulator();
    const { interaction, browser } = await openPage(emulator, { extra: { ui_locales: 'nb' } });
    const bind = await get(emulator, `${TEST_DEVICE_BASE_URL}/app/${interaction}`);
    const device = new URL(bind.headers.get('location')!).searchParams.get('device')!;
    await confirmPhone(emulator, interaction, browser, await (await get(emulator, bind.headers.get('location')!)).text());
    const cancelled = await emulator.handle(formPost(`${TEST_DEVICE_BASE_URL}/app/${interaction}`, { outcome: 'cancel', device }));
    expect(cancelled.status).toBe(303);
    const done = await (await get(emulator, cancelled.headers.get('location')!)).text();
    expect(done).toContain('<h1>Ferdig – gå tilbake til datamaskinen</h1>');
    expect(done).toContain('<p class="fine">Årsak: du avbrøt verifiseringen.</p>');
    expect(done).toContain('<p class="fine">Du kan lukke appen.</p>');

    // The computer continues (the redirect carries the protocol's English description), then the phone reloads.
    const continued = await get(emulator, `${TEST_BASE_URL}/auth/continue?interaction=${interaction}&browser=${browser}`);
    expect(new URL(continued.headers.get('location')!).searchParams.get('error_description')).toBe('the user cancelled the verification');
    const finished = await get(emulator, `${TEST_DEVICE_BASE_URL}/app/${interaction}?device=${device}`, NORWEGIAN);
    const finishedHtml = await finished.text();
    expect(finishedHtml).toContain('<html lang="nb" data-theme="system">');
    expect(finishedHtml).toContain('<h1>Denne verifiseringen er fullført</h1>');
    expectSwitch(finishedHtml, 'nb', `/emulator/app/${interaction}?device=${device}`);
  });

  it('the error page: the code and the protocol’s description as they are, the explanation in Norwegian', async () => {
    const emulator = newEmulator();
    const response = await get(emulator, `${TEST_BASE_URL}/auth?client_id=${client.clientId}&request_uri=urn:ietf:params:oauth:request_uri:nope`, NORWEGIAN);
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('<html lang="nb" data-theme="system">');
    expect(html).toContain('<h1>Forespørselen om verifisering kan ikke behandles</h1>');
    expect(html).toContain('<p>Feil <code data-testid="error-code">invalid_request_uri</code></p>');
    expect(html).toContain('<p role="alert">Forespørselen finnes ikke eller er utløpt. Start verifiseringen på nytt fra tjenesten du kom fra.</p>');
    expect(html).toContain('<span lang="en" data-testid="error-description">request_uri is unknown or has expired; push a new authorization request</span>');
    expectSwitch(html, 'nb', `/emulator/auth?client_id=${client.clientId}&request_uri=urn:ietf:params:oauth:request_uri:nope`);

    // English: the description is the explanation, as before.
    const english = await (await get(emulator, `${TEST_BASE_URL}/auth?client_id=${client.clientId}&request_uri=urn:x`)).text();
    expect(english).toContain('<p role="alert">request_uri is unknown or has expired; push a new authorization request</p>');
    expect(english).not.toContain('data-testid="error-description"');
  });

  it('the status line’s words for the page’s script, in the page’s language', async () => {
    const { html } = await openPage(newEmulator(), { headers: NORWEGIAN });
    expect(html).toContain('data-text-waiting="Venter på telefonen din …"');
    expect(html).toContain('data-text-confirming="En telefon har åpnet lenken: skriv inn koden den viser."');
    expect(html).toContain('data-text-locked="Overføringen til telefon er låst."');
    expect(html).toContain('data-text-decided="Ferdig på telefonen. Fortsetter …"');
    expect(html).toContain('data-text-step-4="Telefonen din er på steg 4 av 5: kontroller ansiktet ditt."');
    expect(html).toContain('data-text-failed="Verifiseringen kan ikke lenger fortsette her.');
    const english = (await openPage(newEmulator())).html;
    expect(english).toContain('data-text-step-1="Your phone is at step 1 of 5: choose your document."');
    expect(english).toContain('data-text-failed="This verification can no longer continue here: {reason}."');
  });

  it('the QA panel and its error page', async () => {
    const emulator = newEmulator();
    const panel = await get(emulator, TEST_BASE_URL, NORWEGIAN);
    const html = await panel.text();
    expect(html).toContain('<html lang="nb" data-theme="system">');
    expect(html).toContain('<h1>QA-panel</h1>');
    expect(html).toContain('<h2 id="faults-heading">Feil</h2>');
    expect(html).toContain('<strong>Feil nonce</strong> <code>wrong_nonce</code>');
    expect(html).toContain('Tjenesteyteren bør svare <code>id_token_nonce_mismatch</code>.');
    expect(html).toContain('<p class="muted">Norsk pass FK4820713, utløper 10. juni 2031</p>');
    expectSwitch(html, 'nb', '/emulator');

    const refused = await emulator.handle(
      new Request(`${TEST_BASE_URL}/panel`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...NORWEGIAN },
        body: 'action=arm_fault&fault=nope',
      }),
    );
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain('<h1>Panelet kunne ikke gjøre det</h1>');
    expect(refusedHtml).toContain('Ukjent feil &#39;nope&#39;. Forventet ett av wrong_nonce');
    expectSwitch(refusedHtml, 'nb', '/emulator');

    // The panel's confirmation is in the page's language too, and survives the switch's way back.
    const armed = await get(emulator, `${TEST_BASE_URL}?done=fault_armed&fault=wrong_nonce`, NORWEGIAN);
    const armedHtml = await armed.text();
    expect(armedHtml).toContain('data-testid="panel-notice">Aktiverte «Feil nonce» (wrong_nonce)');
    expectSwitch(armedHtml, 'nb', '/emulator?done=fault_armed&fault=wrong_nonce');
  });
});

describe('the pages’ Content-Security-Policy with the switch', () => {
  it('still allows each page’s inlined stylesheet by its hash, and says where forms may post', async () => {
    const emulator = newEmulator();
    const { response, html, interaction, browser } = await openPage(emulator, { headers: NORWEGIAN });
    const pages: Array<[Response, string]> = [[response, html]];
    for (const url of [`${TEST_BASE_URL}/app/${interaction}?browser=${browser}`, TEST_BASE_URL, `${TEST_BASE_URL}/auth`]) {
      const page = await get(emulator, url, NORWEGIAN);
      pages.push([page, await page.text()]);
    }
    for (const [page, text] of pages) {
      const styles = /<style>([\s\S]*?)<\/style>/.exec(text)![1]!;
      expect(styles).toContain('.language-switch');
      const hash = createHash('sha256').update(styles).digest('base64');
      const policy = page.headers.get('content-security-policy')!;
      expect(policy).toContain(`style-src 'sha256-${hash}'`);
      expect(policy).toMatch(/; form-action 'self'( [^;]+)?; /);
    }
    // The authorization page's quick test posts to the issuer and ends at the client's redirect URI.
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:3000;");
    // The QA panel posts to its own origin, answered there or ("arm and start") by a redirect to a
    // relying party's start page; the error page posts nowhere but its own origin.
    expect(pages[2]![0].headers.get('content-security-policy')).toContain(`form-action 'self' ${new URL(client.redirectUri).origin}; base-uri`);
    expect(pages[3]![0].headers.get('content-security-policy')).toContain("form-action 'self'; base-uri");
  });

  it('names the redirect URI’s origin when it is another than the emulator’s', async () => {
    const far = await createTestClient({ clientId: 'far-client', redirectUri: 'https://rp.example/callback' });
    const emulator = createTestEmulator({ clients: [far] });
    const { codeChallenge } = await createPkce();
    const par = await emulator.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(far)),
        request: await signAsClient(far, requestObjectClaims(far, { codeChallenge })),
      }),
    );
    const { request_uri: requestUri } = (await par.json()) as { request_uri: string };
    const page = await get(emulator, `${TEST_BASE_URL}/auth?client_id=far-client&request_uri=${encodeURIComponent(requestUri)}`);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:3000 https://rp.example;");
    const { interaction, browser } = authorizationPageFields(await page.text());
    // The app on this device ends at the client too; on a phone it never does.
    const here = await get(emulator, `${TEST_BASE_URL}/app/${interaction}?browser=${browser}`);
    expect(here.headers.get('content-security-policy')).toContain("form-action 'self' http://localhost:3000 https://rp.example;");
  });
});

describe('checkReturnPath', () => {
  it('accepts paths at or under the base path, normalised, with their query', () => {
    expect(checkReturnPath('/emulator', '/emulator')).toBe('/emulator');
    expect(checkReturnPath('/emulator/app/x?browser=a&step=scan', '/emulator')).toBe('/emulator/app/x?browser=a&step=scan');
    expect(checkReturnPath('/emulator/app/../auth/page?x=1#top', '/emulator')).toBe('/emulator/auth/page?x=1');
    expect(checkReturnPath('/anything', '')).toBe('/anything');
  });

  it('refuses other origins, protocol-relative and backslash paths, and paths that leave the base path', () => {
    for (const value of [
      'https://evil.example/emulator',
      '//evil.example/emulator',
      '/\\evil.example/emulator',
      '\\\\evil.example',
      'emulator/app',
      'javascript:alert(1)',
      '/emulatorx',
      '/other',
      '/emulator/../other',
      '/emulator/%2e%2e/other',
      '/emulator/..//evil.example',
      '/emulator/\nx',
      '',
      `/emulator/${'a'.repeat(3000)}`,
    ]) {
      expect(checkReturnPath(value, '/emulator'), value).toBeUndefined();
    }
    expect(checkReturnPath('//evil.example', '')).toBeUndefined();
    expect(checkReturnPath('/..//evil.example', '')).toBeUndefined();
  });
});
