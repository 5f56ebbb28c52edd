import { CompactEncrypt, CompactSign, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateClientKeys, toPublicJwk } from './client-keys.ts';
import type { IdTokenCheck } from './checks.ts';
import { IdvError } from './errors.ts';
import { clockTolerance, processIdToken, validateAudience, validateIdTokenClaims } from './id-token.ts';
import { JwksCache } from './jwks.ts';
import type { FetchLike } from './types.ts';

const ISSUER = 'https://idv.example';
const JWKS_URI = `${ISSUER}/jwks`;
const CLIENT_ID = 'client-1';
const NONCE = 'n-0S6_WzA2Mj-a-nonce-of-32-characters';
const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const nowSeconds = Math.floor(NOW / 1000);

let serviceKey: CryptoKey;
let servicePublicJwk: JWK;
let foreignKey: CryptoKey;
let client: Awaited<ReturnType<typeof generateClientKeys>>;
let clientEncryptionPublic: CryptoKey;

beforeAll(async () => {
  const service = await generateKeyPair('ES256', { extractable: true });
  serviceKey = service.privateKey;
  servicePublicJwk = { ...(await exportJWK(service.publicKey)), kid: 'service-key-1', use: 'sig', alg: 'ES256' };
  foreignKey = (await generateKeyPair('ES256')).privateKey;
  client = await generateClientKeys('ES256');
  clientEncryptionPublic = (await importJWK({ ...toPublicJwk(client.encryptionKey), alg: undefined }, 'RSA-OAEP-256')) as CryptoKey;
});

function jwksFetch(keys: () => JWK[]): FetchLike {
  return async () => Response.json({ keys: keys() }, { headers: { 'cache-control': 'public, max-age=86400' } });
}

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: ISSUER,
    sub: 'hashed-subject',
    aud: CLIENT_ID,
    exp: nowSeconds + 3600,
    iat: nowSeconds,
    auth_time: nowSeconds - 10,
    nonce: NONCE,
    verified_claims: { verification: { trust_framework: 'standard' }, claims: { given_name: 'Kari' } },
    ...overrides,
  };
}

async function sign(payload: Record<string, unknown>, { key = serviceKey, kid = 'service-key-1' } = {}): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(key);
}

async function encrypt(jws: string, header: { alg: string; enc: string } = { alg: 'RSA-OAEP-256', enc: 'A256GCM' }, key?: CryptoKey) {
  return new CompactEncrypt(new TextEncoder().encode(jws))
    .setProtectedHeader({ ...header, kid: client.encryptionKey.kid, cty: 'JWT' })
    .encrypt(
      key ?? (header.alg === 'RSA-OAEP-256' ? clientEncryptionPublic : await importJWK({ ...toPublicJwk(client.encryptionKey), alg: undefined }, header.alg)),
    );
}

function expectations(jwks = new JwksCache({ fetch: jwksFetch(() => [servicePublicJwk]), now: () => NOW })) {
  return { issuer: ISSUER, clientId: CLIENT_ID, nonce: NONCE, now: NOW, encryptionKey: client.encryptionKey, jwks, jwksUri: JWKS_URI };
}

async function rejection(token: string, jwks?: JwksCache): Promise<IdvError> {
  const error = await processIdToken(token, expectations(jwks)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IdvError);
  return error as IdvError;
}

describe('processIdToken', () => {
  it('accepts an ES256 token encrypted with RSA-OAEP-256 / A256GCM and returns its claims and headers', async () => {
    const validated = await processIdToken(await encrypt(await sign(claims())), expectations());
    expect(validated.claims.sub).toBe('hashed-subject');
    expect(validated.jwsHeader).toMatchObject({ alg: 'ES256', kid: 'service-key-1' });
    expect(validated.jweHeader).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
  });

  it('rejects a token signed by a foreign key under the service kid', async () => {
    const error = await rejection(await encrypt(await sign(claims(), { key: foreignKey })));
    expect(error.code).toBe('id_token_signature_invalid');
  });

  it('rejects alg "none"', async () => {
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`;
    expect((await rejection(await encrypt(unsigned))).code).toBe('id_token_unsupported_algorithm');
  });

  it('rejects an HS256 token made with the public key as secret (algorithm confusion)', async () => {
    const secret = new TextEncoder().encode(JSON.stringify(servicePublicJwk));
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(claims())))
      .setProtectedHeader({ alg: 'HS256', kid: 'service-key-1' })
      .sign(secret);
    expect((await rejection(await encrypt(jws))).code).toBe('id_token_unsupported_algorithm');
  });

  it('rejects a token whose kid is not in the JWKS, after one refetch', async () => {
    let fetches = 0;
    const jwks = new JwksCache({
      fetch: async (...args) => {
        fetches++;
        return jwksFetch(() => [servicePublicJwk])(...args);
      },
      now: () => NOW,
    });
    const error = await rejection(await encrypt(await sign(claims(), { kid: 'unknown-kid' })), jwks);
    expect(error.code).toBe('id_token_key_not_found');
    expect(fetches).toBe(1); // the first load is the refetch: nothing older to refresh
  });

  it.each([
    ['wrong issuer', { iss: 'https://evil.example' }, 'id_token_issuer_mismatch'],
    ['wrong audience', { aud: 'another-client' }, 'id_token_audience_mismatch'],
    ['an extra audience', { aud: [CLIENT_ID, 'another-client'] }, 'id_token_audience_mismatch'],
    ['wrong nonce', { nonce: 'another-nonce' }, 'id_token_nonce_mismatch'],
    ['no nonce', { nonce: undefined }, 'id_token_nonce_mismatch'],
    ['expired', { exp: nowSeconds - 120 }, 'id_token_expired'],
    ['iat in the future', { iat: nowSeconds + 600 }, 'id_token_issued_in_future'],
    ['no sub', { sub: undefined }, 'id_token_subject_missing'],
    ['an empty sub', { sub: '' }, 'id_token_subject_missing'],
    ['a sub that is not a string', { sub: 42 }, 'id_token_subject_missing'],
    ['a one-element audience array of another client', { aud: ['another-client'] }, 'id_token_audience_mismatch'],
    ['an empty audience array', { aud: [] }, 'id_token_audience_mismatch'],
    ['no exp', { exp: undefined }, 'id_token_malformed'],
    ['an exp as a string', { exp: String(nowSeconds + 3600) }, 'id_token_malformed'],
    ['no iat', { iat: undefined }, 'id_token_malformed'],
    ['exp exactly at the tolerance’s edge (30 s ago)', { exp: nowSeconds - 30 }, 'id_token_expired'],
    ['iat one second past the tolerance (31 s ahead)', { iat: nowSeconds + 31 }, 'id_token_issued_in_future'],
  ])('rejects a token with %s', async (_name, overrides, code) => {
    expect((await rejection(await encrypt(await sign(claims(overrides))))).code).toBe(code);
  });

  it('accepts a one-element audience array and clock skew within the tolerance', async () => {
    const token = await encrypt(await sign(claims({ aud: [CLIENT_ID], iat: nowSeconds + 20, exp: nowSeconds - 10 })));
    await expect(processIdToken(token, expectations())).resolves.toBeDefined();
  });

  it('fetches the JWKS with the expectations’ own fetch (a tracing one) over the cache’s', async () => {
    const token = await encrypt(await sign(claims()));
    const unreachable = new JwksCache({ fetch: () => Promise.reject(new TypeError('the cache’s own fetch')), now: () => NOW });
    let traced = 0;
    const tracing = jwksFetch(() => [servicePublicJwk]);
    await expect(
      processIdToken(token, { ...expectations(unreachable), fetch: (...args: Parameters<typeof tracing>) => (traced++, tracing(...args)) }),
    ).resolves.toBeDefined();
    expect(traced).toBe(1);
  });

  it('accepts clock skew up to the tolerance’s edge: exp 29 s ago, iat 30 s ahead', async () => {
    const token = await encrypt(await sign(claims({ iat: nowSeconds + 30, exp: nowSeconds - 29 })));
    await expect(processIdToken(token, expectations())).resolves.toBeDefined();
  });

  it.each([
    ['no kid', {}],
    ['an empty kid', { kid: '' }],
  ])('rejects a JWS with %s before looking for a key', async (_name, kid) => {
    let fetches = 0;
    const jwks = new JwksCache({ fetch: async (...args) => (fetches++, jwksFetch(() => [{ ...servicePublicJwk, kid: '' }])(...args)), now: () => NOW });
    const jws = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'JWT', ...kid }).sign(serviceKey);
    const error = await rejection(await encrypt(jws), jwks);
    expect(error).toMatchObject({ code: 'id_token_key_not_found', cause: { claim: 'kid' } });
    expect(fetches).toBe(0);
  });

  it('rejects a decrypted payload that is not a compact JWS', async () => {
    for (const inner of ['not a jws', 'a.b', 'a.b.c.d']) {
      expect((await rejection(await encrypt(inner))).code).toBe('id_token_malformed');
    }
  });

  it.each([
    ['not JSON', 'not json'],
    ['a JSON array', '[1, 2]'],
    ['JSON null', 'null'],
    ['a JSON string', '"claims"'],
  ])('rejects a signed payload that is %s', async (_name, payload) => {
    const jws = await new CompactSign(new TextEncoder().encode(payload)).setProtectedHeader({ alg: 'ES256', kid: 'service-key-1' }).sign(serviceKey);
    const error = await rejection(await encrypt(jws));
    expect(error.code).toBe('id_token_malformed');
    expect(error.message).toMatch(/payload is not (JSON|a JSON object)/);
  });

  it.each(['a.b.c.d', 'a.b.c.d.e.f'])('rejects a token of another number of parts than a compact JWE’s five (%s)', async (token) => {
    const error = await rejection(token);
    expect(error).toMatchObject({ code: 'id_token_malformed', message: 'The ID token is not a compact JWE' });
  });

  it.each([Number.NaN, Number(undefined), -1, 61, Number.POSITIVE_INFINITY])(
    'refuses a clock tolerance of %s rather than weaken the time checks',
    async (tolerance) => {
      const expired = await encrypt(await sign(claims({ exp: nowSeconds - 3600 })));
      await expect(processIdToken(expired, { ...expectations(), clockToleranceSeconds: tolerance })).rejects.toThrow(RangeError);
      expect(() =>
        validateIdTokenClaims(claims({ exp: nowSeconds - 3600 }), {
          issuer: ISSUER,
          clientId: CLIENT_ID,
          nonce: NONCE,
          now: NOW,
          clockToleranceSeconds: tolerance,
        }),
      ).toThrow(/^clockToleranceSeconds must be a finite number of seconds from 0 to 60/);
    },
  );

  it('uses 30 s when no tolerance is given, and any from 0 to 60 s as given', async () => {
    expect(clockTolerance(undefined)).toBe(30);
    expect(clockTolerance(0)).toBe(0);
    expect(clockTolerance(60)).toBe(60);
    const tenSecondsLate = await encrypt(await sign(claims({ exp: nowSeconds - 10 })));
    await expect(processIdToken(tenSecondsLate, { ...expectations(), clockToleranceSeconds: 15 })).resolves.toBeDefined();
    expect((await processIdToken(tenSecondsLate, { ...expectations(), clockToleranceSeconds: 5 }).catch((error: IdvError) => error)) as IdvError).toMatchObject(
      { code: 'id_token_expired' },
    );
  });

  it('rejects a bare JWS (not encrypted)', async () => {
    expect((await rejection(await sign(claims()))).code).toBe('id_token_not_encrypted');
  });

  it('rejects a JWE with another key management algorithm', async () => {
    const token = await encrypt(await sign(claims()), { alg: 'RSA-OAEP', enc: 'A256GCM' });
    expect((await rejection(token)).code).toBe('id_token_unsupported_encryption');
  });

  it('rejects a JWE with another content encryption', async () => {
    const token = await encrypt(await sign(claims()), { alg: 'RSA-OAEP-256', enc: 'A128CBC-HS256' });
    expect((await rejection(token)).code).toBe('id_token_unsupported_encryption');
  });

  it('rejects a JWE encrypted to another RSA key', async () => {
    const other = await generateKeyPair('RSA-OAEP-256');
    const token = await encrypt(await sign(claims()), undefined, other.publicKey);
    expect((await rejection(token)).code).toBe('id_token_decryption_failed');
  });

  it('rejects garbage', async () => {
    expect((await rejection('not-a-token')).code).toBe('id_token_malformed');
    expect((await rejection('a.b.c.d.e')).code).toBe('id_token_malformed');
  });
});

describe('validateAudience', () => {
  it('names expected and actual in the error cause', () => {
    try {
      validateAudience({ aud: 'x' }, CLIENT_ID);
      expect.unreachable();
    } catch (error) {
      expect((error as IdvError).cause).toMatchObject({ claim: 'aud', expected: CLIENT_ID, actual: 'x' });
    }
  });
});

function countingJwks(keys: () => JWK[], now = () => NOW) {
  let fetches = 0;
  const fetch: FetchLike = async () => {
    fetches += 1;
    return Response.json({ keys: keys() }, { headers: { 'cache-control': 'public, max-age=86400' } });
  };
  return { cache: new JwksCache({ fetch, now }), fetches: () => fetches };
}

async function checksOf(
  token: string,
  cache = countingJwks(() => [servicePublicJwk]).cache,
  nonce = NONCE,
): Promise<{ checks: IdTokenCheck[]; error?: { code: string } }> {
  const checks: IdTokenCheck[] = [];
  const expected = { ...expectations(cache), nonce, onCheck: (check: IdTokenCheck) => checks.push(check) };
  try {
    await processIdToken(token, expected);
    return { checks };
  } catch (error) {
    return { checks, error: error as { code: string } };
  }
}

const byName = (checks: IdTokenCheck[], name: IdTokenCheck['check']) => checks.find((check) => check.check === name);

describe('processIdToken reports each check as it makes it (onCheck)', () => {
  it('reports every check of a valid token in order, each passed, with what it expected and received', async () => {
    const { checks, error } = await checksOf(await encrypt(await sign(claims())));
    expect(error).toBeUndefined();
    expect(checks.map((check) => check.check)).toEqual([
      'jwe_header',
      'decryption',
      'jws_header',
      'signing_key',
      'signature',
      'payload',
      'iss',
      'aud',
      'exp',
      'iat',
      'nonce',
      'sub',
    ]);
    expect(checks.every((check) => check.passed)).toBe(true);
    expect(byName(checks, 'jwe_header')).toMatchObject({
      expected: ['RSA-OAEP-256 / A256GCM'],
      received: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: client.encryptionKey.kid, cty: 'JWT' },
    });
    expect(byName(checks, 'decryption')).toMatchObject({ expected: client.encryptionKey.kid, received: client.encryptionKey.kid });
    expect(byName(checks, 'jws_header')).toMatchObject({ expected: 'ES256', received: { alg: 'ES256', kid: 'service-key-1', typ: 'JWT' } });
    expect(byName(checks, 'signing_key')).toMatchObject({
      expected: 'service-key-1',
      received: { kid: 'service-key-1', kty: 'EC', crv: 'P-256' },
      detail: { source: 'fetched', jwksUri: JWKS_URI },
    });
    expect(byName(checks, 'iss')).toMatchObject({ expected: ISSUER, received: ISSUER });
    expect(byName(checks, 'aud')).toMatchObject({ expected: CLIENT_ID, received: CLIENT_ID });
    expect(byName(checks, 'exp')).toMatchObject({ received: nowSeconds + 3600, detail: { now: nowSeconds, toleranceSeconds: 30, limit: nowSeconds - 30 } });
    expect(byName(checks, 'iat')).toMatchObject({ received: nowSeconds, detail: { now: nowSeconds, toleranceSeconds: 30, limit: nowSeconds + 30 } });
    expect(byName(checks, 'nonce')).toMatchObject({ expected: NONCE, received: NONCE });
  });

  it('reports a wrong nonce as the failing check, with the nonce sent and the one received, and goes on to check sub', async () => {
    const { checks, error } = await checksOf(await encrypt(await sign(claims({ nonce: 'someone-elses-nonce' }))));
    expect(error).toMatchObject({ code: 'id_token_nonce_mismatch' });
    expect(byName(checks, 'nonce')).toMatchObject({ passed: false, code: 'id_token_nonce_mismatch', expected: NONCE, received: 'someone-elses-nonce' });
    expect(byName(checks, 'nonce')!.detail?.reason).toBe('The ID token nonce differs from the one we sent');
    expect(byName(checks, 'sub')).toMatchObject({ passed: true });
  });

  it('checks every claim of a token wrong in two ways, reports both and throws the first in order', async () => {
    const { checks, error } = await checksOf(await encrypt(await sign(claims({ aud: 'another-client', exp: nowSeconds - 600 }))));
    expect(error).toMatchObject({ code: 'id_token_audience_mismatch' });
    expect(checks.filter((check) => !check.passed).map((check) => [check.check, check.code])).toEqual([
      ['aud', 'id_token_audience_mismatch'],
      ['exp', 'id_token_expired'],
    ]);
    expect(byName(checks, 'aud')).toMatchObject({ expected: CLIENT_ID, received: 'another-client' });
    expect(byName(checks, 'exp')).toMatchObject({ received: nowSeconds - 600, detail: { limit: nowSeconds - 30 } });
  });

  it('reports a bare JWS at the JWE header, with its header and its three parts, and nothing after it', async () => {
    const { checks, error } = await checksOf(await sign(claims()));
    expect(error).toMatchObject({ code: 'id_token_not_encrypted' });
    expect(checks).toEqual([
      expect.objectContaining({
        check: 'jwe_header',
        passed: false,
        code: 'id_token_not_encrypted',
        received: { alg: 'ES256', kid: 'service-key-1', typ: 'JWT' },
        detail: expect.objectContaining({ parts: 3 }),
      }),
    ]);
  });

  it('reports an unknown kid at the signing key, with the kids the JWKS publishes', async () => {
    const { checks, error } = await checksOf(await encrypt(await sign(claims(), { kid: 'not-published' })));
    expect(error).toMatchObject({ code: 'id_token_key_not_found' });
    expect(checks.at(-1)).toMatchObject({ check: 'signing_key', passed: false, expected: 'not-published', detail: { published: ['service-key-1'] } });
    expect(byName(checks, 'signature')).toBeUndefined();
  });

  it('says where the key came from: fetched, then the cache, then a refetch for a rotated kid', async () => {
    let keys = [servicePublicJwk];
    let now = NOW;
    const { cache, fetches } = countingJwks(
      () => keys,
      () => now,
    );
    expect(byName((await checksOf(await encrypt(await sign(claims())), cache)).checks, 'signing_key')?.detail?.source).toBe('fetched');
    expect(byName((await checksOf(await encrypt(await sign(claims())), cache)).checks, 'signing_key')?.detail?.source).toBe('cache');
    keys = [{ ...servicePublicJwk, kid: 'service-key-2' }];
    now = NOW + 60_000;
    const rotated = await checksOf(await encrypt(await sign(claims(), { kid: 'service-key-2' })), cache);
    expect(rotated.error).toBeUndefined();
    expect(byName(rotated.checks, 'signing_key')?.detail?.source).toBe('refetched');
    expect(fetches()).toBe(2);
  });
});

describe('validateIdTokenClaims without a listener', () => {
  it('still throws without a listener, and checks each claim the same way', () => {
    expect(() => validateIdTokenClaims(claims({ iss: 'https://impostor.invalid' }), { issuer: ISSUER, clientId: CLIENT_ID, nonce: NONCE, now: NOW })).toThrow(
      expect.objectContaining({ code: 'id_token_issuer_mismatch' }),
    );
  });
});

describe('exp and iat that are not numbers', () => {
  it.each([
    ['exp', '9999999999'],
    ['exp', null],
    ['iat', '0'],
  ])('refuses %s as %j: a string would compare as NaN and pass the time checks', (claim, value) => {
    expect(() => validateIdTokenClaims(claims({ [claim]: value }), { issuer: ISSUER, clientId: CLIENT_ID, nonce: NONCE, now: NOW })).toThrow(
      expect.objectContaining({ code: 'id_token_malformed' }),
    );
  });
});
