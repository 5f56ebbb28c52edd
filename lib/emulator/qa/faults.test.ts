import { compactDecrypt, createLocalJWKSet, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from 'jose';
import { afterEach, beforeAll, describe, expect, expectTypeOf, it, vi } from 'vitest';
import {
  TEST_BASE_URL,
  authorize,
  clientAuthentication,
  createPkce,
  createTestClient,
  createTestEmulator,
  decryptRsa1_5Jwe,
  formPost,
  redeemCode,
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';
import type { Emulator } from '..';
import { MemoryStore } from '@/lib/store/memory-store';
import type { AuthorizationResponseFault, IdTokenFault, JwksEndpointFault, JwksFault, ParFault, TokenResponseFault } from '../answer-faults';
import { FAULTS, FaultSwitchboard, JWKS_OUTAGE_WINDOW_SECONDS, RUN_LOCK_SECONDS, type FaultId, type FaultOf } from './faults';

let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  client = await createTestClient();
  other = await createTestClient({ clientId: 'other-client', alg: 'EdDSA' });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the catalogue and the answers', () => {
  it('name the same faults: every row is one its answer can make, and every fault an answer can make has a row (checked by tsc)', () => {
    expectTypeOf<FaultOf<'id_token'>>().toEqualTypeOf<IdTokenFault>();
    expectTypeOf<FaultOf<'jwks'>>().toEqualTypeOf<JwksFault>();
    expectTypeOf<FaultOf<'jwks_endpoint'>>().toEqualTypeOf<JwksEndpointFault>();
    expectTypeOf<FaultOf<'token_endpoint'>>().toEqualTypeOf<TokenResponseFault>();
    expectTypeOf<FaultOf<'par_endpoint'>>().toEqualTypeOf<ParFault>();
    expectTypeOf<FaultOf<'authorization_response'>>().toEqualTypeOf<AuthorizationResponseFault>();
  });
});

/** `rateLimits: false` where a test counts timers: the in-memory rate limiter sets one per window. */
function newEmulator(options: { rateLimits?: false } = {}): Emulator {
  return createTestEmulator({ clients: [client, other], ...options });
}

/** Part 1 steps 1–7 for `as`: returns the token endpoint's response and the request's nonce. */
async function runFlow(emulator: Emulator, as: TestClient = client) {
  const authorized = await authorize(emulator, as);
  const response = await redeemCode(emulator, as, authorized);
  return { response, nonce: authorized.requestClaims.nonce as string };
}

/** The redirect back of one approved flow, and the state the request object carried. */
async function redirectOfFlow(emulator: Emulator) {
  const authorized = await authorize(emulator, client);
  return { params: authorized.redirect.searchParams, state: authorized.requestClaims.state as string };
}

/** Arms `fault` and runs a flow. */
async function runFlowWith(emulator: Emulator, fault: FaultId) {
  await emulator.control.armFault(fault);
  return runFlow(emulator);
}

/** The `id_token` of a 200 token response. */
async function idTokenOf(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  return ((await response.json()) as { id_token: string }).id_token;
}

/** 5.6 step one: decrypts with the client's key, allowing only `algorithm` / `enc` (the default variant). */
async function decrypt(idToken: string, as: TestClient = client, algorithm = 'RSA-OAEP-256', enc = 'A256GCM'): Promise<string> {
  const key = algorithm === 'RSA-OAEP-256' ? as.encryptionKey.privateKey : await importJWK({ ...as.encryptionKey.privateJwk, alg: algorithm }, algorithm);
  const { plaintext } = await compactDecrypt(idToken, key, { keyManagementAlgorithms: [algorithm], contentEncryptionAlgorithms: [enc] });
  return new TextDecoder().decode(plaintext);
}

async function jwksOf(emulator: Emulator) {
  return createLocalJWKSet(await (await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).json());
}

/** Every check a correct relying party makes (5.6, 4.5): resolves only for a clean ID token. */
async function acceptAsRelyingParty(emulator: Emulator, idToken: string, nonce: string, as: TestClient = client): Promise<JWTPayload> {
  const { payload } = await jwtVerify(await decrypt(idToken, as), await jwksOf(emulator), {
    algorithms: ['ES256'],
    issuer: TEST_BASE_URL,
    audience: as.clientId,
    // OpenID Connect Core 2: exp is required (jose checks it only when present).
    requiredClaims: ['exp'],
  });
  if (payload.nonce !== nonce) throw new Error('nonce differs');
  // OpenID Connect Core 2 and 3.1.3.7 (jose checks neither): a subject, and no audience but ours.
  if (typeof payload.sub !== 'string') throw new Error('no subject');
  if (Array.isArray(payload.aud) && payload.aud.length !== 1) throw new Error('an extra audience');
  // Spec 4.5: iat must not lie in the future (jose checks exp, not this).
  if (typeof payload.iat !== 'number' || payload.iat > Date.now() / 1000 + 60) throw new Error('issued in the future');
  return payload;
}

describe('ID token faults (spec 4.5, 5.6), applied where the token endpoint mints the token', () => {
  it('wrong_nonce: the ID token carries another nonce, properly signed and encrypted', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_nonce');
    const { response, nonce } = await runFlow(emulator);
    const { payload } = await jwtVerify(await decrypt(await idTokenOf(response)), await jwksOf(emulator), {
      issuer: TEST_BASE_URL,
      audience: client.clientId,
    });
    expect(payload.nonce).toEqual(expect.any(String));
    expect(payload.nonce).not.toBe(nonce);
  });

  it('wrong_issuer: iss names another issuer; the signature is the current key’s', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_issuer');
    const { response, nonce } = await runFlow(emulator);
    const { payload } = await jwtVerify(await decrypt(await idTokenOf(response)), await jwksOf(emulator), { audience: client.clientId });
    expect(payload.iss).toBe('https://impostor.invalid');
    expect(payload.nonce).toBe(nonce);
  });

  it('wrong_audience: aud is another client', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_audience');
    const { response } = await runFlow(emulator);
    const { payload } = await jwtVerify(await decrypt(await idTokenOf(response)), await jwksOf(emulator), { issuer: TEST_BASE_URL });
    expect(payload.aud).toBe('another-client');
  });

  it('expired: exp is 10 minutes in the past and iat an ID token lifetime before it', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('expired');
    const { response } = await runFlow(emulator);
    const jws = await decrypt(await idTokenOf(response));
    const payload = decodeJwt(jws);
    const now = Math.floor(Date.now() / 1000);
    expect(payload.exp).toBeLessThanOrEqual(now - 600);
    expect(payload.exp).toBeGreaterThan(now - 660);
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(payload.auth_time).toBeLessThanOrEqual(payload.iat!);
    await expect(jwtVerify(jws, await jwksOf(emulator))).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('unknown_signing_key: the kid is the published one, but the signature does not verify with it', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('unknown_signing_key');
    const { response } = await runFlow(emulator);
    const jws = await decrypt(await idTokenOf(response));
    const published = (await emulator.control.signingKeys())[0]!;
    expect(decodeProtectedHeader(jws)).toEqual({ alg: 'ES256', kid: published.kid, typ: 'JWT' });
    await expect(jwtVerify(jws, await jwksOf(emulator))).rejects.toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
  });

  it('unknown_kid: signed under a kid, shaped like a serial number, that the JWKS does not have', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('unknown_kid');
    const { response } = await runFlow(emulator);
    const jws = await decrypt(await idTokenOf(response));
    const { kid } = decodeProtectedHeader(jws);
    expect(kid).toMatch(/^[0-7][0-9a-f]{31}$/);
    expect((await emulator.control.signingKeys()).map((key) => key.kid)).not.toContain(kid);
    await expect(jwtVerify(jws, await jwksOf(emulator))).rejects.toMatchObject({ code: 'ERR_JWKS_NO_MATCHING_KEY' });
  });

  it('unencrypted: the token endpoint returns the bare JWS (three parts), validly signed', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('unencrypted');
    const { response, nonce } = await runFlow(emulator);
    const idToken = await idTokenOf(response);
    expect(idToken.split('.')).toHaveLength(3);
    const { payload } = await jwtVerify(idToken, await jwksOf(emulator), { issuer: TEST_BASE_URL, audience: client.clientId });
    expect(payload.nonce).toBe(nonce);
  });

  it('wrong_jwe_algorithm: encrypted to the client’s key with RSA1_5 (PKCS #1 v1.5 key transport) and A128CBC-HS256', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_jwe_algorithm');
    const { response, nonce } = await runFlow(emulator);
    const idToken = await idTokenOf(response);
    expect(decodeProtectedHeader(idToken)).toEqual({ alg: 'RSA1_5', enc: 'A128CBC-HS256', kid: client.encryptionKey.kid, cty: 'JWT' });
    // A relying party that allows only the variants the emulator issues refuses it (RFC 8725 §3.2).
    await expect(decrypt(idToken)).rejects.toMatchObject({ code: 'ERR_JOSE_ALG_NOT_ALLOWED' });
    // It really is RSA1_5 to the client's key: PKCS #1 v1.5 padding, the CBC-HMAC tag, and the signed token inside.
    const { header, plaintext } = decryptRsa1_5Jwe(idToken, client.encryptionKey.privateJwk);
    expect(header).toMatchObject({ alg: 'RSA1_5', enc: 'A128CBC-HS256' });
    const { payload } = await jwtVerify(plaintext, await jwksOf(emulator), { issuer: TEST_BASE_URL, audience: client.clientId });
    expect(payload.nonce).toBe(nonce);
  });

  it('wrong_encryption_key: the client’s variant and kid, but encrypted to another RSA key, so the client cannot decrypt it', async () => {
    const emulator = newEmulator();
    await emulator.control.setIdTokenEncryption(client.clientId, { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
    await emulator.control.armFault('wrong_encryption_key');
    const idToken = await idTokenOf((await runFlow(emulator)).response);
    expect(decodeProtectedHeader(idToken)).toEqual({ alg: 'RSA-OAEP', enc: 'A128CBC-HS256', kid: client.encryptionKey.kid, cty: 'JWT' });
    await expect(decrypt(idToken, client, 'RSA-OAEP', 'A128CBC-HS256')).rejects.toMatchObject({ code: 'ERR_JWE_DECRYPTION_FAILED' });

    const clean = await runFlow(emulator);
    const jws = await decrypt(await idTokenOf(clean.response), client, 'RSA-OAEP', 'A128CBC-HS256');
    expect(decodeJwt(jws).nonce).toBe(clean.nonce);
  });
});

describe('faults of the redirect back to the client (4.2; RFC 6749 §4.1.2, RFC 9207)', () => {
  it.each([
    ['wrong_state', (params: URLSearchParams, state: string) => expect(params.get('state')).not.toBe(state)],
    ['missing_state', (params: URLSearchParams) => expect(params.has('state')).toBe(false)],
    ['wrong_response_issuer', (params: URLSearchParams) => expect(params.get('iss')).toBe('https://impostor.invalid')],
    ['missing_response_issuer', (params: URLSearchParams) => expect(params.has('iss')).toBe(false)],
  ] as const)('%s changes only that parameter of the next redirect with a code, once', async (fault, check) => {
    const emulator = newEmulator();
    await emulator.control.armFault(fault);
    const spoiled = await redirectOfFlow(emulator);
    check(spoiled.params, spoiled.state);
    expect(spoiled.params.get('code')).toEqual(expect.any(String));
    const clean = await redirectOfFlow(emulator);
    expect(clean.params.get('state')).toBe(clean.state);
    expect(clean.params.get('iss')).toBe(TEST_BASE_URL);
  });
});

describe('faults of iss on the redirect while iss is switched off (RFC 9207 §2.4)', () => {
  it('missing_response_issuer waits, armed, while the redirect carries no iss anyway, and applies once iss is back', async () => {
    const emulator = newEmulator();
    await emulator.control.setRedirectIss(false);
    await emulator.control.armFault('missing_response_issuer');
    const without = await redirectOfFlow(emulator);
    expect(without.params.has('iss')).toBe(false);
    expect(await emulator.control.armedFaults()).toEqual(['missing_response_issuer']);

    await emulator.control.setRedirectIss(true);
    expect((await redirectOfFlow(emulator)).params.has('iss')).toBe(false);
    expect(await emulator.control.armedFaults()).toEqual([]);
    expect((await redirectOfFlow(emulator)).params.get('iss')).toBe(TEST_BASE_URL);
  });

  it('wrong_response_issuer still adds its iss: a relying party must compare an iss that is present', async () => {
    const emulator = newEmulator();
    await emulator.control.setRedirectIss(false);
    await emulator.control.armFault('wrong_response_issuer');
    expect((await redirectOfFlow(emulator)).params.get('iss')).toBe('https://impostor.invalid');
    expect((await redirectOfFlow(emulator)).params.has('iss')).toBe(false);
  });
});

describe('one-shot semantics', () => {
  const idTokenFaults = FAULTS.filter((fault) => fault.kind === 'refusal' && fault.target === 'id_token').map((fault) => fault.id);

  it.each(idTokenFaults)('%s spoils exactly one ID token: it disarms itself and the next flow is clean', async (fault) => {
    const emulator = newEmulator();
    const spoiled = await runFlowWith(emulator, fault);
    expect(await emulator.control.armedFaults()).toEqual([]);
    await expect(acceptAsRelyingParty(emulator, await idTokenOf(spoiled.response), spoiled.nonce)).rejects.toThrow();

    const clean = await runFlow(emulator);
    await expect(acceptAsRelyingParty(emulator, await idTokenOf(clean.response), clean.nonce)).resolves.toMatchObject({
      iss: TEST_BASE_URL,
    });
  });

  it('keeps one fault when the same one is armed twice', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_nonce');
    await emulator.control.armFault('wrong_nonce');
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
    await runFlow(emulator);
    const clean = await runFlow(emulator);
    await expect(acceptAsRelyingParty(emulator, await idTokenOf(clean.response), clean.nonce)).resolves.toBeTruthy();
  });

  it('does not apply a disarmed fault', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_issuer');
    await emulator.control.disarmFault('wrong_issuer');
    const { response, nonce } = await runFlow(emulator);
    await expect(acceptAsRelyingParty(emulator, await idTokenOf(response), nonce)).resolves.toBeTruthy();
  });

  it('combines armed faults that change different parts of the token in one response', async () => {
    const emulator = newEmulator();
    for (const fault of ['unencrypted', 'wrong_issuer', 'wrong_nonce'] as const) await emulator.control.armFault(fault);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce', 'wrong_issuer', 'unencrypted']);
    const { response, nonce } = await runFlow(emulator);
    const idToken = await idTokenOf(response);
    expect(idToken.split('.')).toHaveLength(3);
    expect(decodeJwt(idToken)).toMatchObject({ iss: 'https://impostor.invalid', aud: client.clientId });
    expect(decodeJwt(idToken).nonce).not.toBe(nonce);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('applies faults that change the same part one response at a time, in table order', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('unknown_kid');
    await emulator.control.armFault('unknown_signing_key');
    const published = async () => (await emulator.control.signingKeys()).map((key) => key.kid);

    const first = decodeProtectedHeader(await decrypt(await idTokenOf((await runFlow(emulator)).response)));
    expect(await published()).toContain(first.kid);
    expect(await emulator.control.armedFaults()).toEqual(['unknown_kid']);

    const second = decodeProtectedHeader(await decrypt(await idTokenOf((await runFlow(emulator)).response)));
    expect(await published()).not.toContain(second.kid);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('applies to whichever client comes next, and records which one it was', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_audience');
    const { response } = await runFlow(emulator, other);
    expect(decodeJwt(await decrypt(await idTokenOf(response), other)).aud).toBe('another-client');
    expect(await emulator.control.injectedFaults()).toEqual([
      { id: 'wrong_audience', clientId: other.clientId, at: expect.any(Number), state: expect.any(String), chosen: 'panel' },
    ]);
  });

  it('leaves a fault armed when the emulator refuses the request anyway', async () => {
    const emulator = newEmulator();
    for (const fault of ['wrong_nonce', 'token_error', 'par_server_error'] as const) await emulator.control.armFault(fault);

    const badPar = await emulator.handle(formPost(`${TEST_BASE_URL}/par`, { ...(await clientAuthentication(client)), request: 'not-a-jwt' }));
    expect(badPar.status).toBe(400);

    await emulator.control.disarmFault('par_server_error');
    const authorized = await authorize(emulator, client);
    const wrongVerifier = await redeemCode(emulator, client, { ...authorized, codeVerifier: 'x'.repeat(43) });
    expect(((await wrongVerifier.json()) as { error: string }).error).toBe('invalid_grant');
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce', 'token_error']);
    expect(await emulator.control.injectedFaults()).toEqual([]);
  });

  it('refuses to arm a fault that does not exist', async () => {
    const emulator = newEmulator();
    await expect(emulator.control.armFault('no_such_fault' as FaultId)).rejects.toThrow(/unknown fault 'no_such_fault'/);
    await expect(emulator.control.armFault('__proto__' as FaultId)).rejects.toThrow(/unknown fault/);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('keeps faults per emulator store (each emulator here has its own)', async () => {
    const one = newEmulator();
    const two = newEmulator();
    await one.control.armFault('wrong_nonce');
    expect(await two.control.armedFaults()).toEqual([]);
  });
});

describe('token endpoint faults (spec 4.3)', () => {
  it('token_error: answers 500 server_error saying the fault was injected, mints no ID token, then answers normally', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('token_error');
    await emulator.control.armFault('wrong_nonce');
    const authorized = await authorize(emulator, client);
    const response = await redeemCode(emulator, client, authorized);

    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe('server_error');
    expect(body.error_description).toMatch(/injected fault 'token_error'/);
    // The ID token fault waits for a token that is actually issued: the next one.
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
    const next = await runFlow(emulator);
    expect(decodeJwt(await decrypt(await idTokenOf(next.response))).nonce).not.toBe(next.nonce);
  });

  it('token_error: the code was used up, as a code is once its request has been processed', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('token_error');
    const authorized = await authorize(emulator, client);
    expect((await redeemCode(emulator, client, authorized)).status).toBe(500);
    const retry = await redeemCode(emulator, client, authorized);
    expect(((await retry.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('token_timeout: holds the real answer for 15 s, longer than the relying party’s 10 s timeout', async () => {
    const emulator = newEmulator({ rateLimits: false });
    const authorized = await authorize(emulator, client);
    await emulator.control.armFault('token_timeout');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    let answered = false;
    const pending = redeemCode(emulator, client, authorized).then((response) => {
      answered = true;
      return response;
    });
    await untilTimerIsSet();
    await vi.advanceTimersByTimeAsync(14_999);
    // Still held one millisecond before the 15 s are up.
    expect(vi.getTimerCount()).toBe(1);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(vi.getTimerCount()).toBe(0);

    const response = await pending;
    const idToken = await idTokenOf(response);
    await expect(acceptAsRelyingParty(emulator, idToken, authorized.requestClaims.nonce as string)).resolves.toBeTruthy();
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('token_timeout: stops waiting as soon as the client aborts, clears its timer, and mints no ID token', async () => {
    const emulator = newEmulator({ rateLimits: false });
    const authorized = await authorize(emulator, client);
    await emulator.control.armFault('token_timeout');
    await emulator.control.armFault('wrong_nonce');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    const controller = new AbortController();
    const pending = redeemCode(emulator, client, authorized, { signal: controller.signal });
    await untilTimerIsSet();
    controller.abort();
    const response = await pending;

    expect(vi.getTimerCount()).toBe(0);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error_description: string }).error_description).toMatch(/token_timeout.*closed the request/);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
  });
});

/**
 * Lets the handler run (real crypto, real promises) until it has set its one timer: for up to
 * 10 s of the real clock (only setTimeout and clearTimeout are faked), since the crypto runs on
 * Node's thread pool, which a busy machine makes slow, however many turns the loop takes.
 */
async function untilTimerIsSet(): Promise<void> {
  for (const start = Date.now(); Date.now() - start < 10_000 && vi.getTimerCount() === 0;) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  expect(vi.getTimerCount()).toBe(1);
}

describe('PAR faults (spec 4.1, part 7)', () => {
  async function push(emulator: Emulator): Promise<Response> {
    const { codeChallenge } = await createPkce();
    return emulator.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(client)),
        request: await signAsClient(client, requestObjectClaims(client, { codeChallenge })),
      }),
    );
  }

  it('par_server_error: answers 500 server_error, once', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('par_server_error');
    const response = await push(emulator);
    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      error: 'server_error',
      error_description: expect.stringMatching(/injected fault 'par_server_error'/),
    });
    expect((await push(emulator)).status).toBe(201);
  });

  it('par_temporarily_unavailable: answers 503 temporarily_unavailable with Retry-After, once', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('par_temporarily_unavailable');
    const response = await push(emulator);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('60');
    expect(((await response.json()) as { error: string }).error).toBe('temporarily_unavailable');
    expect((await push(emulator)).status).toBe(201);
  });
});

describe('faults armed for one client', () => {
  it('spoil only that client’s next response and wait for it, leaving other clients’ flows clean', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    await board.arm('wrong_nonce', 'second-rp');
    expect((await board.take('id_token', 'demo-client')).size).toBe(0);
    expect(await board.scope('wrong_nonce')).toBe('second-rp');
    expect([...(await board.take('id_token', 'second-rp'))]).toEqual(['wrong_nonce']);
    expect(await board.armed()).toEqual([]);
  });

  it('for any client when no client is named', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    await board.arm('par_server_error');
    expect([...(await board.take('par_endpoint', 'anyone'))]).toEqual(['par_server_error']);
  });
});

describe('faults armed as a run’s own (armed_by)', () => {
  it('arms a fault nobody armed, records its owner and client, and applies it once like any other', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    expect(await board.armAs('wrong_nonce', 'demo-client', 'run-1')).toEqual({ armed: true });
    expect(await board.arming('wrong_nonce')).toEqual({ clientId: 'demo-client', armedBy: 'run-1' });
    expect(await board.scope('wrong_nonce')).toBe('demo-client');
    expect([...(await board.take('id_token', 'demo-client'))]).toEqual(['wrong_nonce']);
    expect(await board.arming('wrong_nonce')).toBeUndefined();
  });

  it('refuses, changing nothing, a fault armed by hand, for its client or for any', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    await board.arm('wrong_nonce', 'second-rp');
    await board.arm('token_error');
    expect(await board.armAs('wrong_nonce', 'demo-client', 'run-1')).toEqual({ armed: false, existing: { clientId: 'second-rp' } });
    expect(await board.armAs('token_error', 'demo-client', 'run-1')).toEqual({ armed: false, existing: {} });
    expect(await board.arming('wrong_nonce')).toEqual({ clientId: 'second-rp' });
    expect(await board.arming('token_error')).toEqual({});
  });

  it('refuses a fault another run armed, and arms again (for a new client) one the same run armed', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    await board.armAs('expired', 'demo-client', 'run-2');
    expect(await board.armAs('expired', 'second-rp', 'run-1')).toEqual({ armed: false, existing: { clientId: 'demo-client', armedBy: 'run-2' } });
    expect(await board.armAs('expired', 'second-rp', 'run-2')).toEqual({ armed: true });
    expect(await board.arming('expired')).toEqual({ clientId: 'second-rp', armedBy: 'run-2' });
  });

  it('reads a record kept from before owners (no armedBy) as armed by hand', async () => {
    const store = new MemoryStore();
    const board = new FaultSwitchboard(store, () => 0);
    await store.set('fault:unknown_kid', { clientId: null }, 3600);
    expect(await board.arming('unknown_kid')).toEqual({});
    expect((await board.armAs('unknown_kid', 'demo-client', 'run-1')).armed).toBe(false);
  });

  it('of two runs arming one fault at once, exactly one wins', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    const outcomes = await Promise.all(['run-1', 'run-2'].map((owner) => board.armAs('wrong_issuer', 'demo-client', owner)));
    expect(outcomes.filter((outcome) => outcome.armed)).toHaveLength(1);
    const winner = outcomes[0]!.armed ? 'run-1' : 'run-2';
    expect(await board.arming('wrong_issuer')).toEqual({ clientId: 'demo-client', armedBy: winner });
    expect(outcomes.find((outcome) => !outcome.armed)).toEqual({ armed: false, existing: { clientId: 'demo-client', armedBy: winner } });
  });

  it('disarm with an owner disarms only that owner’s fault; without one, anyone’s', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    await board.arm('wrong_nonce', 'demo-client');
    await board.armAs('wrong_issuer', 'demo-client', 'run-2');
    await board.armAs('expired', 'demo-client', 'run-1');
    for (const id of ['wrong_nonce', 'wrong_issuer', 'expired'] as const) await board.disarm(id, 'run-1');
    expect(await board.armed()).toEqual(['wrong_nonce', 'wrong_issuer']);
    await board.disarm('wrong_issuer');
    expect(await board.armed()).toEqual(['wrong_nonce']);
  });

  it('refuses an owner that is not 1 to 64 of [A-Za-z0-9_-], arming and disarming nothing', async () => {
    const board = new FaultSwitchboard(new MemoryStore(), () => 0);
    await board.armAs('wrong_nonce', 'demo-client', 'r'.repeat(64));
    for (const owner of ['', 'r'.repeat(65), 'run 1', 'run\n', 'rün', 42 as unknown as string]) {
      await expect(board.armAs('expired', 'demo-client', owner), JSON.stringify(owner)).rejects.toThrow(/a run's name is 1 to 64/);
      await expect(board.disarm('wrong_nonce', owner), JSON.stringify(owner)).rejects.toThrow(/a run's name is 1 to 64/);
    }
    expect(await board.armed()).toEqual(['wrong_nonce']);
  });

  it('gives up, armed for nobody, when the fault is armed and applied by others on every try', async () => {
    const store = new MemoryStore();
    // Every write finds the fault armed, every read finds it applied already.
    store.setIfAbsent = async () => false;
    store.get = async () => undefined;
    const board = new FaultSwitchboard(store, () => 0);
    expect(await board.armAs('wrong_nonce', 'demo-client', 'run-1')).toEqual({ armed: false });
  });
});

describe('the run lock: one conformance run at a time on a store', () => {
  const start = Date.UTC(2026, 0, 31, 12, 0, 0);

  /** A switchboard whose clock and store's clock are `clock`; several may share `store`. */
  function boardAt(clock = { now: start }, store = new MemoryStore({ now: () => clock.now })) {
    return { board: new FaultSwitchboard(store, () => clock.now), clock, store };
  }

  it('is taken when free, for the seconds asked, and read back', async () => {
    const { board } = boardAt();
    expect(await board.runLock()).toBeUndefined();
    expect(await board.takeRunLock('run-1', 60)).toEqual({ taken: true, lock: { owner: 'run-1', expiresAt: start + 60_000 } });
    expect(await board.runLock()).toEqual({ owner: 'run-1', expiresAt: start + 60_000 });
  });

  it('is renewed from now by its owner, and refused to another owner with the holder’s lock', async () => {
    const { board, clock } = boardAt();
    await board.takeRunLock('run-1', 60);
    clock.now += 20_000;
    expect(await board.takeRunLock('run-1', 30)).toEqual({ taken: true, lock: { owner: 'run-1', expiresAt: start + 50_000 } });
    expect(await board.takeRunLock('run-2', 600)).toEqual({ taken: false, lock: { owner: 'run-1', expiresAt: start + 50_000 } });
    expect(await board.runLock()).toEqual({ owner: 'run-1', expiresAt: start + 50_000 });
  });

  it('ends by itself when its seconds are up, and another owner may take it then', async () => {
    const { board, clock } = boardAt();
    await board.takeRunLock('run-1', 5);
    clock.now += 4_999;
    expect((await board.takeRunLock('run-2', 60)).taken).toBe(false);
    clock.now += 1;
    expect(await board.runLock()).toBeUndefined();
    expect(await board.takeRunLock('run-2', 60)).toEqual({ taken: true, lock: { owner: 'run-2', expiresAt: start + 65_000 } });
  });

  it('is released by its owner only', async () => {
    const { board } = boardAt();
    await board.takeRunLock('run-1', 60);
    await board.releaseRunLock('run-2');
    expect((await board.runLock())?.owner).toBe('run-1');
    await board.releaseRunLock('run-1');
    expect(await board.runLock()).toBeUndefined();
    await board.releaseRunLock('run-1');
  });

  it('is one lock for every switchboard on the store: of owners racing on two of them, exactly one takes it', async () => {
    const clock = { now: start };
    const store = new MemoryStore({ now: () => clock.now });
    const [one, two] = [boardAt(clock, store).board, boardAt(clock, store).board];
    const outcomes = await Promise.all([one.takeRunLock('run-1', 60), two.takeRunLock('run-2', 60), two.takeRunLock('run-3', 60)]);
    expect(outcomes.filter((outcome) => outcome.taken)).toHaveLength(1);
    const holder = (await one.runLock())!.owner;
    for (const outcome of outcomes.filter((outcome) => !outcome.taken)) expect(outcome.lock?.owner).toBe(holder);
  });

  it('refuses seconds outside 5 to 600 or not whole, and an owner not of the run-name form', async () => {
    const { board } = boardAt();
    expect(RUN_LOCK_SECONDS).toEqual({ min: 5, max: 600 });
    for (const seconds of [4, 601, 5.5, Number.NaN, Number.POSITIVE_INFINITY, '60' as unknown as number]) {
      await expect(board.takeRunLock('run-1', seconds), String(seconds)).rejects.toThrow(/a run lock lasts 5 to 600 whole seconds/);
    }
    await expect(board.takeRunLock('run 1', 60)).rejects.toThrow(/a run's name is 1 to 64/);
    await expect(board.releaseRunLock('')).rejects.toThrow(/a run's name is 1 to 64/);
    expect(await board.runLock()).toBeUndefined();
    expect((await board.takeRunLock('run-1', 5)).taken).toBe(true);
    expect((await board.takeRunLock('run-1', 600)).taken).toBe(true);
  });

  it('gives up, taken by nobody it can name, when the lock changes hands on every try', async () => {
    const store = new MemoryStore();
    store.setIfAbsent = async () => false;
    store.get = async () => undefined;
    const { board } = boardAt(undefined, store);
    expect(await board.takeRunLock('run-1', 60)).toEqual({ taken: false });
  });

  it('renews its owner’s lock that ended between two store calls by taking it afresh', async () => {
    const { board, store } = boardAt();
    await board.takeRunLock('run-1', 60);
    // The lock ends just as the renewal reads it: `replace` finds nothing, the next round takes it.
    const replace = store.replace.bind(store);
    store.replace = async (key, value, ttl) => {
      await store.delete(key);
      return replace(key, value, ttl);
    };
    expect(await board.takeRunLock('run-1', 30)).toEqual({ taken: true, lock: { owner: 'run-1', expiresAt: start + 30_000 } });
    expect(await board.runLock()).toEqual({ owner: 'run-1', expiresAt: start + 30_000 });
  });
});

describe('JWKS variants: taken with the ID token of their client, then served for a window', () => {
  const kidsOf = async (emulator: Emulator) =>
    ((await (await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);

  it('jwks_unparseable_extra_keys: nothing changes until the ID token is issued; then every JWKS response carries the extra keys', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('jwks_unparseable_extra_keys', client.clientId);
    expect(await kidsOf(emulator)).not.toContain('emulator-garbage-x');
    // Another client's token does not take it.
    await runFlow(emulator, other);
    expect(await kidsOf(emulator)).not.toContain('emulator-garbage-x');
    expect(await emulator.control.armedFaults()).toEqual(['jwks_unparseable_extra_keys']);

    const { response, nonce } = await runFlow(emulator);
    expect(await emulator.control.armedFaults()).toEqual([]);
    for (let request = 0; request < 2; request += 1) {
      expect(await kidsOf(emulator)).toEqual(expect.arrayContaining(['emulator-unknown-kty', 'emulator-encryption-key', 'emulator-garbage-x']));
    }
    // The token itself is untouched, and verifies against the changed set.
    await expect(acceptAsRelyingParty(emulator, await idTokenOf(response), nonce)).resolves.toMatchObject({ iss: TEST_BASE_URL });
  });

  it('jwks_keys_shuffled: the key that signs is listed last, response after response', async () => {
    const emulator = newEmulator();
    await runFlowWith(emulator, 'jwks_keys_shuffled');
    const [current] = await emulator.control.signingKeys();
    for (let request = 0; request < 5; request += 1) expect((await kidsOf(emulator)).at(-1)).toBe(current!.kid);
  });
});

describe('JWKS outage faults: taken with the ID token of their client, made on the JWKS request that follows', () => {
  const jwksRequest = (signal?: AbortSignal) => new Request(`${TEST_BASE_URL}/jwks`, signal ? { signal } : {});

  it('jwks_error: the JWKS answers normally until the token is issued, then once 500 server_error, then normally again', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('jwks_error', client.clientId);
    expect((await emulator.handle(jwksRequest())).status).toBe(200);
    // Another client's token does not take it.
    await runFlow(emulator, other);
    expect((await emulator.handle(jwksRequest())).status).toBe(200);
    expect(await emulator.control.armedFaults()).toEqual(['jwks_error']);

    const { response } = await runFlow(emulator);
    const state = (await emulator.control.injectedFaults())[0]!.state!;
    // Taken with the token, which it leaves as it is; not reached until the JWKS is asked for.
    expect(await emulator.control.armedFaults()).toEqual([]);
    expect(response.status).toBe(200);
    expect((await emulator.control.flowAnswers(state)).faults).toEqual([expect.objectContaining({ id: 'jwks_error', reached: false })]);

    const failed = await emulator.handle(jwksRequest());
    expect(failed.status).toBe(500);
    const body = (await failed.json()) as { error: string; error_description: string };
    expect(body).toEqual({ error: 'server_error', error_description: expect.stringMatching(/injected fault 'jwks_error'/) });
    expect((await emulator.control.flowAnswers(state)).faults).toEqual([expect.not.objectContaining({ reached: false })]);
    expect((await emulator.control.injectedFaults())[0]).toEqual(expect.not.objectContaining({ reached: false }));
    // One-shot: the next JWKS request gets the keys.
    expect((await emulator.handle(jwksRequest())).status).toBe(200);
  });

  it('a JWKS outage waits a few seconds for the JWKS request; none came (the key cached): it is spent, recorded as not reached', async () => {
    const start = Date.UTC(2026, 0, 31, 12, 0, 0);
    const clock = { now: start };
    const store = new MemoryStore({ now: () => clock.now });
    const board = new FaultSwitchboard(store, () => clock.now);
    await board.armForFlow('state-1', client.clientId, ['jwks_timeout']);
    const taken = [...(await board.take('jwks_endpoint', client.clientId, [], 'state-1'))];
    expect(taken).toEqual(['jwks_timeout']);
    for (const id of taken) await board.awaitJwksRequest(id, 'state-1');
    clock.now += JWKS_OUTAGE_WINDOW_SECONDS * 1000;
    expect(await board.takeAwaitedJwksFaults()).toEqual([]);
    expect((await board.flowRecord('state-1')).faults).toEqual([expect.objectContaining({ id: 'jwks_timeout', chosen: 'flow', reached: false })]);
    // Within the window it would have been made.
    await board.armForFlow('state-2', client.clientId, ['jwks_timeout']);
    for (const id of await board.take('jwks_endpoint', client.clientId, [], 'state-2')) await board.awaitJwksRequest(id, 'state-2');
    clock.now += JWKS_OUTAGE_WINDOW_SECONDS * 1000 - 1;
    expect(await board.takeAwaitedJwksFaults()).toEqual(['jwks_timeout']);
    expect((await board.flowRecord('state-2')).faults).toEqual([
      { id: 'jwks_timeout', clientId: client.clientId, at: expect.any(Number), chosen: 'flow', state: 'state-2' },
    ]);
  });

  it('jwks_timeout: holds the keys for 15 s, longer than the relying party’s 10 s timeout, and logs the response with the fault', async () => {
    const emulator = newEmulator({ rateLimits: false });
    await emulator.control.armFault('jwks_timeout');
    await runFlow(emulator);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    let answered = false;
    const pending = emulator.handle(jwksRequest()).then((response) => {
      answered = true;
      return response;
    });
    await untilTimerIsSet();
    await vi.advanceTimersByTimeAsync(14_999);
    expect(vi.getTimerCount()).toBe(1);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const response = await pending;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    const [logged] = await emulator.control.injectedFaults();
    expect(logged).toEqual(expect.objectContaining({ id: 'jwks_timeout' }));
    expect(logged).not.toHaveProperty('reached');
  });

  it('jwks_timeout: stops waiting as soon as the client aborts and clears its timer', async () => {
    const emulator = newEmulator({ rateLimits: false });
    await emulator.control.armFault('jwks_timeout');
    await runFlow(emulator);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    const controller = new AbortController();
    const pending = emulator.handle(jwksRequest(controller.signal));
    await untilTimerIsSet();
    controller.abort();
    const response = await pending;
    expect(vi.getTimerCount()).toBe(0);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error_description: string }).error_description).toMatch(/jwks_timeout.*closed the request/);
  });
});

describe('ID token refusals that change the JWT or the JWE around it', () => {
  it('jwe_tag_tampered: only the tag differs from a JWE the client can decrypt', async () => {
    const emulator = newEmulator();
    const idToken = await idTokenOf((await runFlowWith(emulator, 'jwe_tag_tampered')).response);
    await expect(decrypt(idToken)).rejects.toThrow();
    const segments = idToken.split('.');
    const tag = Buffer.from(segments[4]!, 'base64url');
    tag[0]! ^= 0x01;
    segments[4] = tag.toString('base64url');
    await expect(decrypt(segments.join('.'))).resolves.toEqual(expect.any(String));
  });

  it('alg_none: an unsigned JWT under the current kid; hs256_public_key: HS256 under the current kid', async () => {
    const emulator = newEmulator();
    const [current] = await emulator.control.signingKeys();
    const unsigned = await decrypt(await idTokenOf((await runFlowWith(emulator, 'alg_none')).response));
    expect(unsigned.endsWith('.')).toBe(true);
    expect(decodeProtectedHeader(unsigned)).toEqual({ alg: 'none', kid: current!.kid, typ: 'JWT' });
    const hmac = await decrypt(await idTokenOf((await runFlowWith(emulator, 'hs256_public_key')).response));
    expect(decodeProtectedHeader(hmac)).toEqual({ alg: 'HS256', kid: current!.kid, typ: 'JWT' });
  });
});
