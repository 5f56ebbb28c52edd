/**
 * The whole flow of part 1: the relying-party core against the emulator's handlers, with a fetch
 * that hands each request to `emulator.handle` (no server, no port) and a "browser" that follows
 * the authorization page's form. The emulator is strict (it refuses whatever the spec does not
 * list or shape), as a service that checks the spec's letter would be.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import { DEFAULT_SELECTION } from '@/lib/oidc/claims-request';
import { EDDSA_ASSERTION_BURST } from '@/lib/oidc/client-assertion';
import { clientPublicJwks, generateClientKeys } from '@/lib/oidc/client-keys';
import { DiscoveryCache } from '@/lib/oidc/discovery';
import { completeAuthorization, startAuthorization, type RelyingParty } from '@/lib/oidc/flow';
import { JwksCache } from '@/lib/oidc/jwks';
import { ProtocolTrace } from '@/lib/oidc/trace';
import type { FetchLike, Selection } from '@/lib/oidc/types';
import { ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS, ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS } from '@/lib/oidc/id-token-encryption';
import { createTestEmulator, type TestEmulatorOptions } from '@/test/support/emulator';

const ISSUER = 'https://idv.test/emulator';
const REDIRECT_URI = 'https://rp.test/auth/callback';

let emulator: Emulator;
let rp: RelyingParty;
let emulatorFetch: FetchLike;
const fetched: string[] = [];

beforeAll(async () => {
  const keys = await generateClientKeys('ES256');
  emulator = createTestEmulator({
    baseUrl: ISSUER,
    clients: [{ clientId: 'flow-client', jwks: clientPublicJwks(keys), redirectUris: [REDIRECT_URI], populationRegister: true }],
    strict: true,
  });
  const fetch: FetchLike = async (input, init) => {
    const request = new Request(input, init);
    fetched.push(`${request.method} ${new URL(request.url).pathname}`);
    return emulator.handle(request);
  };
  emulatorFetch = fetch;
  rp = {
    issuer: ISSUER,
    client: { clientId: 'flow-client', redirectUri: REDIRECT_URI, ...keys },
    discovery: new DiscoveryCache({ fetch }),
    jwks: new JwksCache({ fetch }),
    http: { fetch },
  };
});

/** What the browser does between the two calls: load the app's page, pick a persona, decide. */
async function browse(authorizationUrl: string, persona: string, outcome: 'approve' | 'cancel', service: Emulator = emulator): Promise<URLSearchParams> {
  const page = await service.handle(new Request(authorizationUrl));
  expect(page.status).toBe(200);
  // The page's plain form (the one that works without JavaScript): persona and outcome fields.
  const html = (await page.text()).split('<form').find((part) => part.includes('name="persona"')) ?? '';
  const form = /^[^>]*action="([^"]+)"/.exec(html);
  const interaction = /name="interaction"[^>]*value="([^"]+)"/.exec(html) ?? /value="([^"]+)"[^>]*name="interaction"/.exec(html);
  expect(form && interaction).toBeTruthy();
  const decision = await service.handle(
    new Request(new URL(form![1]!.replaceAll('&amp;', '&'), authorizationUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      // `browser`: the page's secret that binds the redirect to this browser, sent as a browser sends hidden fields.
      body: new URLSearchParams({ interaction: interaction![1]!, browser: /name="browser" value="([^"]+)"/.exec(html)?.[1] ?? '', persona, outcome }),
    }),
  );
  expect(decision.status).toBe(303);
  const location = new URL(decision.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(REDIRECT_URI);
  return location.searchParams;
}

/**
 * A service of its own (an emulator with one client, `clientId`, holding `keys`) and a relying
 * party for it with empty caches: for the tests that configure one side or the other.
 */
function ownService(
  clientId: string,
  keys: Awaited<ReturnType<typeof generateClientKeys>>,
  emulatorOptions: Omit<TestEmulatorOptions, 'baseUrl' | 'clients'> = {},
  populationRegister = false,
) {
  const service = createTestEmulator({
    baseUrl: ISSUER,
    clients: [{ clientId, jwks: clientPublicJwks(keys), redirectUris: [REDIRECT_URI], populationRegister }],
    strict: true,
    ...emulatorOptions,
  });
  const fetch: FetchLike = async (input, init) => service.handle(new Request(input, init));
  const relyingParty = (extra: Partial<RelyingParty> = {}, discovery: { flowUrl?: string } = {}): RelyingParty => ({
    issuer: ISSUER,
    client: { clientId, redirectUri: REDIRECT_URI, ...keys },
    discovery: new DiscoveryCache({ fetch, ...discovery }),
    jwks: new JwksCache({ fetch }),
    http: { fetch },
    ...extra,
  });
  return { service, relyingParty };
}

async function verify(selection: Selection, persona: string) {
  const started = await startAuthorization(rp, selection);
  return completeAuthorization(rp, await browse(started.authorizationUrl, persona, 'approve'), started.pending);
}

describe('the core against the emulator', () => {
  it('completes two flows, fetching discovery and the JWKS once', async () => {
    fetched.length = 0;
    const first = await verify(DEFAULT_SELECTION, 'ingrid-haugen');
    const second = await verify(DEFAULT_SELECTION, 'lars-eriksson');

    expect(first.verifiedClaims[0]?.claims.name).toBe('Ingrid Solberg Haugen');
    expect(first.verifiedClaims[0]?.claims.picture).toMatch(/^data:image\/jpeg;base64,/);
    expect(second.verifiedClaims[0]?.claims.name).toBe('Lars Olof Eriksson');
    expect(fetched.filter((f) => f.endsWith('/.well-known/openid-configuration'))).toHaveLength(1);
    expect(fetched.filter((f) => f.endsWith('/jwks'))).toHaveLength(1);
    expect(fetched.filter((f) => f === 'POST /emulator/par')).toHaveLength(2);
    expect(fetched.filter((f) => f === 'POST /emulator/token')).toHaveLength(2);
  });

  it('returns only what was requested (data minimisation)', async () => {
    const { verifiedClaims, idToken } = await verify({ trustFramework: 'standard', claims: { birthdate: { essential: true } } }, 'ingrid-haugen');
    expect(verifiedClaims).toEqual([{ trustFramework: 'standard', evidence: [], claims: { birthdate: '1987-03-14' } }]);
    expect(idToken.claims).not.toHaveProperty('verified_claims.verification.evidence');
  });

  it('returns the document details that were requested', async () => {
    const { verifiedClaims } = await verify(
      { trustFramework: 'standard', claims: { name: { essential: true } }, document: { details: ['type', 'issuer.country_code', 'personal_number'] } },
      'ingrid-haugen',
    );
    const evidence = verifiedClaims[0]?.evidence[0];
    expect(evidence?.type).toBe('document');
    expect(evidence?.type === 'document' && evidence.documentDetails).toEqual({
      type: 'passport',
      issuer: { country_code: 'NOR' },
      personal_number: { type: 'no-fnr', value: expect.stringMatching(/^\d{11}$/) },
    });
  });

  it('surfaces cancel as access_denied', async () => {
    const started = await startAuthorization(rp, DEFAULT_SELECTION);
    const params = await browse(started.authorizationUrl, 'ingrid-haugen', 'cancel');
    await expect(completeAuthorization(rp, params, started.pending)).rejects.toMatchObject({ code: 'access_denied' });
  });

  it('refuses a callback answered with another flow’s pending authorization', async () => {
    const a = await startAuthorization(rp, DEFAULT_SELECTION);
    const b = await startAuthorization(rp, DEFAULT_SELECTION);
    const params = await browse(a.authorizationUrl, 'ingrid-haugen', 'approve');
    await expect(completeAuthorization(rp, params, b.pending)).rejects.toMatchObject({ code: 'state_mismatch' });
  });

  it('refuses a clock tolerance that is not 0 to 60 s at the start, before anything is sent', async () => {
    const before = fetched.length;
    await expect(startAuthorization({ ...rp, clockToleranceSeconds: Number.NaN }, DEFAULT_SELECTION)).rejects.toThrow(RangeError);
    expect(fetched.length).toBe(before);
  });

  it('starts a burst of 30 flows with an EdDSA key, every PAR accepted (no replayed assertion, exp in whole seconds within the lifetime), then holds back rather than drift', async () => {
    const { relyingParty } = ownService('eddsa-client', await generateClientKeys('EdDSA'), { rateLimits: { par: 1000 } });
    let clock = Date.now();
    const eddsa = relyingParty({ now: () => clock });
    for (let i = 0; i < EDDSA_ASSERTION_BURST; i++) {
      const started = await startAuthorization(eddsa, DEFAULT_SELECTION);
      expect(started.authorizationUrl).toContain('request_uri=');
    }
    await expect(startAuthorization(eddsa, DEFAULT_SELECTION)).rejects.toMatchObject({ code: 'client_assertion_rate_exceeded' });
    clock += 1_000;
    await expect(startAuthorization(eddsa, DEFAULT_SELECTION)).resolves.toMatchObject({ authorizationUrl: expect.stringContaining('request_uri=') });
  });

  it('requests the population register by its configured name, and a name the service does not know fails at PAR, not at staging', async () => {
    const keys = await generateClientKeys('ES256');
    const registerName = 'Det sentrale folkeregister';
    const run = async (rpName: string | undefined, serviceName: string | undefined) => {
      const { service, relyingParty: rpFor } = ownService('register-client', keys, serviceName ? { populationRegisterName: serviceName } : {}, true);
      const relyingParty = rpFor(rpName ? { populationRegisterName: rpName } : {});
      const selection: Selection = { trustFramework: 'standard', claims: { name: { essential: true } }, populationRegister: {} };
      const started = await startAuthorization(relyingParty, selection);
      const params = await browse(started.authorizationUrl, 'ingrid-haugen', 'approve', service);
      return completeAuthorization(relyingParty, params, started.pending);
    };

    const agreed = await run(registerName, registerName);
    const record = agreed.verifiedClaims[0]?.evidence.find((evidence) => evidence.type === 'electronic_record');
    expect(record).toMatchObject({ record: { sourceName: registerName, personalNumber: '14038726421' } });

    await expect(run(registerName, undefined)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining("record.source.name: must be 'Folkeregisteret'"),
    });
    await expect(run(undefined, registerName)).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining(`must be '${registerName}'`),
    });
  });

  it('verifies whatever the order and count of the JWKS, the current key last included (spec 4.4)', async () => {
    await emulator.control.rotateSigningKeys();
    const current = (await emulator.control.signingKeys()).find((key) => key.current)!.kid;
    const orders: string[][] = [];
    const recording: FetchLike = async (input, init) => {
      const response = await emulator.handle(new Request(input, init));
      if (new URL(new Request(input, init).url).pathname.endsWith('/jwks')) {
        orders.push(((await response.clone().json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid));
      }
      return response;
    };
    // A fresh key cache for each flow, so each fetches the JWKS in the order the emulator draws.
    for (let attempt = 0; attempt < 30 && !orders.some((order) => order.at(-1) === current); attempt += 1) {
      const fresh: RelyingParty = { ...rp, jwks: new JwksCache({ fetch: recording }), http: { fetch: recording } };
      const started = await startAuthorization(fresh, DEFAULT_SELECTION);
      const completed = await completeAuthorization(fresh, await browse(started.authorizationUrl, 'ingrid-haugen', 'approve'), started.pending);
      expect(completed.verifiedClaims[0]?.claims.name).toBe('Ingrid Solberg Haugen');
    }
    expect(orders.some((order) => order.length === 3 && order.at(-1) === current)).toBe(true);
  });

  it('completes against a minimal discovery document: PAR, token and JWKS from part 4’s paths, /auth from the flow URL on another origin, each noted in the trace', async () => {
    const flowUrl = 'https://flow.idv.test/emulator';
    const keys = await generateClientKeys('ES256');
    const { service, relyingParty: rpFor } = ownService('sparse-client', keys, { flowBaseUrl: flowUrl });
    await service.control.setDiscoveryShape('minimal');
    const relyingParty = (options: { flowUrl?: string }) => rpFor({}, options);

    await expect(startAuthorization(relyingParty({}), DEFAULT_SELECTION)).rejects.toMatchObject({ code: 'discovery_failed' });

    const sparse = relyingParty({ flowUrl });
    const trace = new ProtocolTrace();
    const started = await startAuthorization(sparse, DEFAULT_SELECTION, { trace });
    expect(started.authorizationUrl.startsWith(`${flowUrl}/auth?`)).toBe(true);
    const completed = await completeAuthorization(sparse, await browse(started.authorizationUrl, 'ingrid-haugen', 'approve', service), started.pending, {
      trace,
    });
    expect(completed.verifiedClaims[0]?.claims.name).toBe('Ingrid Solberg Haugen');
    const note = trace.events.find((event) => event.type === 'note' && event.step === 'discovery' && event.detail?.endpoints);
    expect(note).toMatchObject({
      detail: {
        endpoints: {
          authorization_endpoint: { url: `${flowUrl}/auth`, from: 'flow_url' },
          pushed_authorization_request_endpoint: { url: `${ISSUER}/par`, from: 'part_4_path' },
          token_endpoint: { url: `${ISSUER}/token`, from: 'part_4_path' },
          jwks_uri: { url: `${ISSUER}/jwks`, from: 'part_4_path' },
        },
      },
    });
  });

  it('cannot redeem a code twice', async () => {
    const started = await startAuthorization(rp, DEFAULT_SELECTION);
    const params = await browse(started.authorizationUrl, 'ingrid-haugen', 'approve');
    await completeAuthorization(rp, params, started.pending);
    await expect(completeAuthorization(rp, params, started.pending)).rejects.toMatchObject({ code: 'invalid_grant' });
  });
});

describe('what the spec leaves open, against the strict emulator', () => {
  it('refuses ui_locales at PAR (spec 2.2 does not list it), which is why the app sends it only where allowed', async () => {
    await expect(startAuthorization(rp, DEFAULT_SELECTION, { uiLocales: 'nb en' })).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('ui_locales'),
    });
  });

  it.each(ID_TOKEN_KEY_MANAGEMENT_ALGORITHMS.flatMap((alg) => ID_TOKEN_CONTENT_ENCRYPTION_ALGORITHMS.map((enc) => ({ alg, enc }))))(
    'verifies an ID token encrypted with $alg / $enc, which discovery advertises',
    async (combination) => {
      const { service, relyingParty } = ownService('encryption-client', await generateClientKeys('ES256'));
      await service.control.setIdTokenEncryption('encryption-client', combination);
      const client = relyingParty();
      const started = await startAuthorization(client, DEFAULT_SELECTION);
      const completed = await completeAuthorization(client, await browse(started.authorizationUrl, 'ingrid-haugen', 'approve', service), started.pending);
      expect(completed.idToken.jweHeader).toMatchObject(combination);
      expect(completed.verifiedClaims[0]?.claims.name).toBe('Ingrid Solberg Haugen');
    },
  );

  it('refuses RSA-OAEP when discovery advertises no encryption (then only the spec’s example), and accepts it pinned', async () => {
    const { service, relyingParty } = ownService('pinned-client', await generateClientKeys('ES256'), { flowBaseUrl: ISSUER });
    await service.control.setDiscoveryShape('minimal');
    await service.control.setIdTokenEncryption('pinned-client', { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
    const run = async (client: RelyingParty) => {
      const started = await startAuthorization(client, DEFAULT_SELECTION);
      return completeAuthorization(client, await browse(started.authorizationUrl, 'ingrid-haugen', 'approve', service), started.pending);
    };
    await expect(run(relyingParty({}, { flowUrl: ISSUER }))).rejects.toMatchObject({
      code: 'id_token_unsupported_encryption',
      cause: { expected: 'RSA-OAEP-256 / A256GCM', actual: 'RSA-OAEP / A128CBC-HS256' },
    });
    const pinned = await run(relyingParty({ idTokenEncryption: [{ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' }] }, { flowUrl: ISSUER }));
    expect(pinned.idToken.jweHeader).toMatchObject({ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
  });

  it('completes without iss on the redirect when the service neither sends nor advertises it (RFC 9207)', async () => {
    const { service, relyingParty } = ownService('no-iss-client', await generateClientKeys('ES256'), { redirectIss: false });
    const client = relyingParty();
    const started = await startAuthorization(client, DEFAULT_SELECTION);
    const params = await browse(started.authorizationUrl, 'ingrid-haugen', 'approve', service);
    expect(params.has('iss')).toBe(false);
    await expect(completeAuthorization(client, params, started.pending)).resolves.toMatchObject({ idToken: expect.anything() });
  });

  it('returns no empty document_details when the persona’s document lacks every detail requested', async () => {
    const { idToken, verifiedClaims } = await verify(
      { trustFramework: 'standard', claims: { name: { essential: true } }, document: { details: ['date_of_issuance'] } },
      // an ID card that states no issue date
      'alex-moreau',
    );
    expect(JSON.stringify(idToken.claims)).not.toContain('"document_details":{}');
    expect(verifiedClaims[0]?.evidence).toEqual([]);
  });
});

describe('the protocol trace', () => {
  it('records every exchange of a flow in order, and notes what the caches answered', async () => {
    const { ProtocolTrace } = await import('@/lib/oidc/trace');
    const fresh: RelyingParty = { ...rp, discovery: new DiscoveryCache({ fetch: emulatorFetch }), jwks: new JwksCache({ fetch: emulatorFetch }) };
    const trace = new ProtocolTrace();
    const started = await startAuthorization(fresh, DEFAULT_SELECTION, { trace });
    const params = await browse(started.authorizationUrl, 'ingrid-haugen', 'approve');
    await completeAuthorization(fresh, params, started.pending, { trace });

    expect(
      trace.events.map((e) => `${e.type}:${e.step}${e.type === 'note' && e.fromCache ? ' (cache)' : ''}${e.type === 'check' ? ` ${e.check} ${e.passed}` : ''}`),
    ).toEqual([
      'http:discovery',
      'http:par',
      'note:authorization_redirect',
      'note:callback',
      'note:discovery (cache)',
      'http:token',
      'check:id_token jwe_header true',
      'check:id_token decryption true',
      'check:id_token jws_header true',
      // the key is chosen from the key set fetched now, the first time
      'http:jwks',
      'check:id_token signing_key true',
      'check:id_token signature true',
      'check:id_token payload true',
      'check:id_token iss true',
      'check:id_token aud true',
      'check:id_token exp true',
      'check:id_token iat true',
      'check:id_token nonce true',
      'check:id_token sub true',
      'check:id_token verified_claims true',
      'note:id_token',
    ]);
    expect(trace.events[0]).toMatchObject({ status: 200, responseHeaders: { 'cache-control': expect.any(String) } });
    const par = trace.events[1];
    expect(par).toMatchObject({ type: 'http', method: 'POST', url: `${ISSUER}/par`, status: 201 });
    expect(par?.type === 'http' && Object.keys(par.requestForm ?? {})).toEqual(['client_id', 'client_assertion_type', 'client_assertion', 'request']);
  });

  it('records a failing exchange with its status, up to the failure', async () => {
    const { ProtocolTrace } = await import('@/lib/oidc/trace');
    const trace = new ProtocolTrace();
    const started = await startAuthorization(rp, DEFAULT_SELECTION, { trace });
    expect(trace.events[0]).toMatchObject({ type: 'note', step: 'discovery', fromCache: true });
    const params = await browse(started.authorizationUrl, 'ingrid-haugen', 'approve');
    params.set('code', 'forged');
    await expect(completeAuthorization(rp, params, started.pending, { trace })).rejects.toMatchObject({ code: 'invalid_grant' });
    expect(trace.events.at(-1)).toMatchObject({ type: 'http', step: 'token', status: 400 });
  });
  it('names the state of the flow it records, from before PAR: a start the service refuses is still told apart by its flow', async () => {
    const { ProtocolTrace } = await import('@/lib/oidc/trace');
    const refused = new ProtocolTrace();
    await expect(startAuthorization(rp, DEFAULT_SELECTION, { trace: refused, uiLocales: 'nb en' })).rejects.toMatchObject({ code: 'invalid_request' });
    expect(refused.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const trace = new ProtocolTrace();
    const started = await startAuthorization(rp, DEFAULT_SELECTION, { trace });
    expect(trace.state).toBe(started.pending.state);
    expect(refused.state).not.toBe(trace.state);
  });
});

describe('mix-up and forged callbacks', () => {
  it('refuses to complete a flow with a relying party of another issuer', async () => {
    const started = await startAuthorization(rp, DEFAULT_SELECTION);
    const params = await browse(started.authorizationUrl, 'ingrid-haugen', 'approve');
    const other: RelyingParty = { ...rp, issuer: 'https://other-idv.test' };
    await expect(completeAuthorization(other, params, started.pending)).rejects.toMatchObject({ code: 'callback_issuer_mismatch' });
  });

  it('records only the parameter names of a callback whose state is not ours', async () => {
    const { ProtocolTrace } = await import('@/lib/oidc/trace');
    const trace = new ProtocolTrace();
    const forged = new URLSearchParams({ error: 'access_denied', error_description: 'Call the attacker to unlock', state: 'forged-state', iss: ISSUER });
    await expect(completeAuthorization(rp, forged, undefined, { trace })).rejects.toMatchObject({ code: 'state_mismatch' });
    // (Words, not digits: a timestamp in the trace may contain any digits.)
    expect(JSON.stringify(trace.events)).not.toContain('attacker');
    expect(JSON.stringify(trace.events)).not.toContain('forged-state');
    expect(trace.events[0]).toMatchObject({ step: 'callback', detail: { parameterNames: ['error', 'error_description', 'state', 'iss'] } });
  });
});
