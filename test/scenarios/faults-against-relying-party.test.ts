/**
 * The relying party's side of every fault: the lib/oidc core, wired to `emulator.handle` through a
 * fetch that behaves like the real one (it rejects when its signal aborts), runs a whole flow
 * with one fault armed and must fail with the code the fault table promises; with one
 * acceptance variant armed, it must complete the flow and read the claims.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import { JWKS_TIMEOUT_DELAY_MS, NOT_AN_IMAGE_PICTURE, TOKEN_TIMEOUT_DELAY_MS } from '@/lib/emulator/answer-faults';
import { FAULTS, type AcceptanceDefinition, type RefusalDefinition } from '@/lib/emulator/qa/faults';
import {
  DEFAULT_SELECTION,
  DEFAULT_TIMEOUT_MS,
  DiscoveryCache,
  JwksCache,
  clientPublicJwks,
  completeAuthorization,
  generateClientKeys,
  isIdvErrorCode,
  ProtocolTrace,
  startAuthorization,
  type FetchLike,
  type GeneratedClientKeys,
  type HttpOptions,
  type RelyingParty,
} from '@/lib/oidc';
import { approveInBrowser, createTestEmulator } from '@/test/support/emulator';

const ISSUER = 'https://idv.test/emulator';
const REDIRECT_URI = 'https://rp.test/auth/callback';
const CLIENT_ID = 'rp-client';

let keys: GeneratedClientKeys;

const REFUSALS = FAULTS.filter((fault): fault is Extract<(typeof FAULTS)[number], RefusalDefinition> => fault.kind === 'refusal');
const ACCEPTANCES = FAULTS.filter((fault): fault is Extract<(typeof FAULTS)[number], AcceptanceDefinition> => fault.kind === 'acceptance');

beforeAll(async () => {
  keys = await generateClientKeys('ES256');
});

/**
 * fetch over `emulator.handle`, rejecting with the signal's reason on abort, as fetch does; the
 * bodies of the JWKS responses go to `jwksBodies`.
 */
function fetchThrough(emulator: Emulator, jwksBodies: { keys: { kid?: string; kty?: string }[] }[] = []): FetchLike {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const request = new Request(input, init);
      const signal = init?.signal ?? request.signal;
      const abort = () => reject(signal.reason as Error);
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      emulator.handle(request).then(async (response) => {
        if (new URL(request.url).pathname.endsWith('/jwks')) jwksBodies.push(await response.clone().json());
        resolve(response);
      }, reject);
    });
}

/** A fresh emulator and a relying party (with empty caches) registered with it. */
function setUp(http: Omit<HttpOptions, 'fetch'> = {}, jwksClock: () => number = Date.now) {
  const emulator = createTestEmulator({
    baseUrl: ISSUER,
    clients: [{ clientId: CLIENT_ID, jwks: clientPublicJwks(keys), redirectUris: [REDIRECT_URI], populationRegister: true }],
    // As strict as the spec's letter: every fault is the only thing wrong with its response.
    strict: true,
  });
  const jwksBodies: { keys: { kid?: string; kty?: string }[] }[] = [];
  const fetch = fetchThrough(emulator, jwksBodies);
  const rp: RelyingParty = {
    issuer: ISSUER,
    client: { clientId: CLIENT_ID, redirectUri: REDIRECT_URI, ...keys },
    discovery: new DiscoveryCache({ fetch }),
    jwks: new JwksCache({ fetch, now: jwksClock }),
    http: { fetch, ...http },
  };
  return { emulator, rp, jwksBodies };
}

/** Part 1, steps 1–9, as the relying party runs them. */
async function verify(emulator: Emulator, rp: RelyingParty) {
  const started = await startAuthorization(rp, DEFAULT_SELECTION);
  return completeAuthorization(rp, await approveInBrowser(emulator, started.authorizationUrl), started.pending);
}

describe('the relying-party core refuses every fault with the code the fault table names', () => {
  it('names only codes the core actually has', () => {
    for (const fault of REFUSALS) expect(isIdvErrorCode(fault.expected), fault.id).toBe(true);
  });

  // The timeouts and the JWKS outages have tests of their own below: a timeout is raced with a
  // shortened wait, and after a JWKS outage the core backs off before it asks again.
  it.each(REFUSALS.filter((fault) => fault.id !== 'token_timeout' && fault.target !== 'jwks_endpoint').map((fault) => [fault.id, fault.expected] as const))(
    '%s → %s, and the next flow succeeds',
    async (id, expected) => {
      const { emulator, rp } = setUp();
      await emulator.control.armFault(id);
      await expect(verify(emulator, rp)).rejects.toMatchObject({ name: 'IdvError', code: expected });
      expect(await emulator.control.armedFaults()).toEqual([]);

      const clean = await verify(emulator, rp);
      expect(clean.verifiedClaims[0]?.claims.given_name).toBe('Ingrid Solberg');
    },
  );

  it('token_timeout → timeout: the emulator holds its answer longer than the core waits', async () => {
    expect(TOKEN_TIMEOUT_DELAY_MS).toBeGreaterThan(DEFAULT_TIMEOUT_MS);
    // The same race as in production (10 s against 15 s), shortened so the test runs in a second.
    const { emulator, rp } = setUp({ timeoutMs: 1_000 });
    await emulator.control.armFault('token_timeout');
    await expect(verify(emulator, rp)).rejects.toMatchObject({ name: 'IdvError', code: 'timeout' });
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('jwks_error → jwks_fetch_failed for a relying party that must fetch the JWKS (an empty cache), and the next flow succeeds once its back-off has passed', async () => {
    let jwksClockOffset = 0;
    const { emulator, rp } = setUp({}, () => Date.now() + jwksClockOffset);
    await emulator.control.armFault('jwks_error');
    await expect(verify(emulator, rp)).rejects.toMatchObject({ name: 'IdvError', code: 'jwks_fetch_failed', cause: { status: 500 } });
    const [applied] = await emulator.control.injectedFaults();
    expect(applied).toMatchObject({ id: 'jwks_error' });
    expect(applied).not.toHaveProperty('reached');

    // The core asks the endpoint again only after its back-off (1 s after a first failure).
    jwksClockOffset += 1_000;
    const clean = await verify(emulator, rp);
    expect(clean.verifiedClaims[0]?.claims.given_name).toBe('Ingrid Solberg');
  });

  it('jwks_error is never reached by a relying party that has the key cached: the flow succeeds, and the emulator records it as not reached', async () => {
    const { emulator, rp, jwksBodies } = setUp();
    await verify(emulator, rp);
    expect(jwksBodies).toHaveLength(1);
    await emulator.control.armFault('jwks_error');
    const cached = await verify(emulator, rp);
    expect(cached.verifiedClaims[0]?.claims.given_name).toBe('Ingrid Solberg');
    expect(jwksBodies).toHaveLength(1);
    expect((await emulator.control.injectedFaults())[0]).toMatchObject({ id: 'jwks_error', reached: false });
  });

  it('jwks_timeout → timeout: the emulator holds the JWKS longer than the core waits', async () => {
    expect(JWKS_TIMEOUT_DELAY_MS).toBeGreaterThan(DEFAULT_TIMEOUT_MS);
    // The same race as in production (10 s against 15 s), shortened so the test runs in a second.
    const { emulator, rp } = setUp({ timeoutMs: 1_000 });
    await emulator.control.armFault('jwks_timeout');
    await expect(verify(emulator, rp)).rejects.toMatchObject({ name: 'IdvError', code: 'timeout' });
    expect((await emulator.control.injectedFaults())[0]).toMatchObject({ id: 'jwks_timeout' });
  });
});

describe('the trace explains every ID token fault with the check that failed', () => {
  it.each(REFUSALS.filter((fault) => fault.target === 'id_token').map((fault) => [fault.id, fault.expected] as const))(
    '%s: the first check that fails fails with %s, and no check after a failed signature or decryption is made',
    async (id, expected) => {
      const { emulator, rp } = setUp();
      await emulator.control.armFault(id);
      const trace = new ProtocolTrace();
      const started = await startAuthorization(rp, DEFAULT_SELECTION, { trace });
      const params = await approveInBrowser(emulator, started.authorizationUrl);
      await expect(completeAuthorization(rp, params, started.pending, { trace })).rejects.toMatchObject({ code: expected });
      const checks = trace.events.flatMap((event) => (event.type === 'check' ? [event] : []));
      const failed = checks.filter((check) => !check.passed);
      expect(failed[0]).toMatchObject({ code: expected });
      // the checks of the claims are all made; any earlier failure ends the list
      const claimChecks = ['iss', 'aud', 'exp', 'iat', 'nonce', 'sub'];
      if (!claimChecks.includes(failed[0]!.check)) expect(checks.at(-1)).toBe(failed[0]);
    },
  );
});

describe('the relying-party core across a signing key rotation (spec 4.4)', () => {
  it('refetches the JWKS for the new kid once its refetch cool-down has passed, and accepts the token', async () => {
    let jwksClockOffset = 0;
    const { emulator, rp } = setUp({}, () => Date.now() + jwksClockOffset);
    const before = await verify(emulator, rp);

    const [current] = await emulator.control.rotateSigningKeys();
    jwksClockOffset = 60_000;
    const after = await verify(emulator, rp);

    expect(after.idToken.jwsHeader.kid).toBe(current!.kid);
    expect(after.idToken.jwsHeader.kid).not.toBe(before.idToken.jwsHeader.kid);
  });
});

describe('the relying-party core accepts every acceptance variant: the verification completes and the claims are read', () => {
  it.each(ACCEPTANCES.map((variant) => variant.id))('%s → accepted, the variant was applied, and the next flow is normal', async (id) => {
    const { emulator, rp } = setUp();
    await emulator.control.armFault(id);
    const trace = new ProtocolTrace();
    const started = await startAuthorization(rp, DEFAULT_SELECTION, { trace });
    const result = await completeAuthorization(rp, await approveInBrowser(emulator, started.authorizationUrl), started.pending, { trace });

    const claims = result.verifiedClaims[0]?.claims;
    // minimal_token keeps given_name alone; every other variant keeps every claim.
    expect(claims?.given_name).toBe('Ingrid Solberg');
    if (id === 'minimal_token') expect(Object.keys(claims ?? {})).toEqual(['given_name']);
    expect(await emulator.control.armedFaults()).toEqual([]);
    expect((await emulator.control.injectedFaults()).map((fault) => fault.id)).toEqual([id]);

    const clean = await verify(emulator, rp);
    expect(clean.verifiedClaims[0]?.claims.given_name).toBe('Ingrid Solberg');
    expect(clean.token.expiresIn).toBe(3600);
  });

  it('the encryption variants: the token came encrypted with exactly the alg and enc of the row', async () => {
    for (const variant of ACCEPTANCES.flatMap((row) => ('encryption' in row ? [row] : []))) {
      const { emulator, rp } = setUp();
      await emulator.control.armFault(variant.id);
      const { idToken } = await verify(emulator, rp);
      expect({ alg: idToken.jweHeader.alg, enc: idToken.jweHeader.enc }, variant.id).toEqual(variant.encryption);
    }
  });

  it('aud_array, clock_skew_within_tolerance, minimal_token: the token the core accepted had that shape', async () => {
    const claimsWith = async (id: (typeof ACCEPTANCES)[number]['id']) => {
      const { emulator, rp } = setUp();
      await emulator.control.armFault(id);
      return (await verify(emulator, rp)).idToken.claims;
    };
    expect((await claimsWith('aud_array')).aud).toEqual([CLIENT_ID]);
    const skewed = await claimsWith('clock_skew_within_tolerance');
    expect(skewed.iat).toBeGreaterThan(Date.now() / 1000 + 10);
    expect(skewed.exp - Date.now() / 1000).toBeLessThanOrEqual(3600);
    const minimal = await claimsWith('minimal_token');
    expect(Object.keys(minimal).sort()).toEqual(['aud', 'exp', 'iat', 'iss', 'nonce', 'sub', 'verified_claims']);
    expect(minimal.verified_claims).toEqual({ verification: { trust_framework: 'standard' }, claims: { given_name: 'Ingrid Solberg' } });
  });

  it('unknown_verified_claims_members: the core reads every known member and names the unknown ones it left out', async () => {
    const { emulator, rp } = setUp();
    await emulator.control.armFault('unknown_verified_claims_members');
    const trace = new ProtocolTrace();
    const started = await startAuthorization(rp, DEFAULT_SELECTION, { trace });
    const result = await completeAuthorization(rp, await approveInBrowser(emulator, started.authorizationUrl), started.pending, { trace });
    expect(result.verifiedClaims[0]?.evidence[0]).toMatchObject({ type: 'document' });
    const check = trace.events.find((event) => event.type === 'check' && event.check === 'verified_claims');
    const dropped = (check as { detail?: { dropped?: { path: string; reason: string }[] } }).detail?.dropped ?? [];
    expect(dropped.filter((member) => member.reason === 'unknown_member').length).toBeGreaterThanOrEqual(3);
  });

  it('picture_not_image: the core accepts the token and keeps no portrait, naming the picture it dropped', async () => {
    const { emulator, rp } = setUp();
    await emulator.control.armFault('picture_not_image');
    const result = await verify(emulator, rp);
    expect(result.idToken.claims.verified_claims).toMatchObject({ claims: { picture: NOT_AN_IMAGE_PICTURE } });
    expect(result.verifiedClaims[0]?.claims.picture).toBeUndefined();
    expect(JSON.stringify(result.verifiedClaims)).not.toContain(NOT_AN_IMAGE_PICTURE);
  });

  it('no_expires_in: the token response had no expires_in', async () => {
    const { emulator, rp } = setUp();
    await emulator.control.armFault('no_expires_in');
    expect((await verify(emulator, rp)).token.expiresIn).toBeUndefined();
  });

  it('jwks_keys_shuffled, jwks_unparseable_extra_keys: the key set the core fetched was changed, and it picked the signing key by kid', async () => {
    const reordered = setUp();
    await reordered.emulator.control.armFault('jwks_keys_shuffled');
    const first = await verify(reordered.emulator, reordered.rp);
    expect(reordered.jwksBodies).toHaveLength(1);
    expect(reordered.jwksBodies[0]!.keys.at(-1)?.kid).toBe(first.idToken.jwsHeader.kid);

    const extra = setUp();
    await extra.emulator.control.armFault('jwks_unparseable_extra_keys');
    await verify(extra.emulator, extra.rp);
    expect(extra.jwksBodies[0]!.keys.map((key) => key.kid)).toEqual(
      expect.arrayContaining(['emulator-unknown-kty', 'emulator-encryption-key', 'emulator-garbage-x']),
    );
  });

  it('key_rotated_unpublished: a relying party that cached the JWKS refetches it for the new kid (after its cool-down) and accepts the token', async () => {
    let jwksClockOffset = 0;
    const { emulator, rp, jwksBodies } = setUp({}, () => Date.now() + jwksClockOffset);
    await verify(emulator, rp);
    const publishedBefore = jwksBodies[0]!.keys.map((key) => key.kid);

    await emulator.control.armFault('key_rotated_unpublished');
    jwksClockOffset = 60_000;
    const rotated = await verify(emulator, rp);
    expect(publishedBefore).not.toContain(rotated.idToken.jwsHeader.kid);
    expect(jwksBodies).toHaveLength(2);
    // The fresh key stays current: the next token is signed by it too, from the refetched set.
    const [current] = await emulator.control.signingKeys();
    expect(current?.kid).toBe(rotated.idToken.jwsHeader.kid);
    expect((await verify(emulator, rp)).idToken.jwsHeader.kid).toBe(current!.kid);
  });
});
