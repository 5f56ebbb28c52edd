import { CompactEncrypt, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IdTokenCheck } from './checks.ts';
import { generateClientKeys, toPublicJwk } from './client-keys.ts';
import { processIdToken, validateIdTokenClaims } from './id-token.ts';
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
let client: Awaited<ReturnType<typeof generateClientKeys>>;
let clientEncryptionPublic: CryptoKey;

beforeAll(async () => {
  const service = await generateKeyPair('ES256', { extractable: true });
  serviceKey = service.privateKey;
  servicePublicJwk = { ...(await exportJWK(service.publicKey)), kid: 'service-key-1', use: 'sig', alg: 'ES256' };
  client = await generateClientKeys('ES256');
  clientEncryptionPublic = (await importJWK({ ...toPublicJwk(client.encryptionKey), alg: undefined }, 'RSA-OAEP-256')) as CryptoKey;
});

const claims = (overrides: Record<string, unknown> = {}) => ({
  iss: ISSUER,
  sub: 'hashed-subject',
  aud: CLIENT_ID,
  exp: nowSeconds + 3600,
  iat: nowSeconds,
  nonce: NONCE,
  ...overrides,
});

const sign = (payload: Record<string, unknown>, kid = 'service-key-1') => new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' }).sign(serviceKey);

const encrypt = (jws: string) =>
  new CompactEncrypt(new TextEncoder().encode(jws)).setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: client.encryptionKey.kid, cty: 'JWT' }).encrypt(clientEncryptionPublic);

function jwks(keys: () => JWK[], now = () => NOW) {
  let fetches = 0;
  const fetch: FetchLike = async () => {
    fetches += 1;
    return Response.json({ keys: keys() }, { headers: { 'cache-control': 'public, max-age=86400' } });
  };
  return { cache: new JwksCache({ fetch, now }), fetches: () => fetches };
}

async function checksOf(token: string, cache = jwks(() => [servicePublicJwk]).cache, nonce = NONCE): Promise<{ checks: IdTokenCheck[]; error?: { code: string } }> {
  const checks: IdTokenCheck[] = [];
  const expectations = { issuer: ISSUER, clientId: CLIENT_ID, nonce, now: NOW, encryptionKey: client.encryptionKey, jwks: cache, jwksUri: JWKS_URI, onCheck: (check: IdTokenCheck) => checks.push(check) };
  try {
    await processIdToken(token, expectations);
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
    expect(checks.map((check) => check.check)).toEqual(['jwe_header', 'decryption', 'jws_header', 'signing_key', 'signature', 'payload', 'iss', 'aud', 'exp', 'iat', 'nonce', 'sub']);
    expect(checks.every((check) => check.passed)).toBe(true);
    expect(byName(checks, 'jwe_header')).toMatchObject({ expected: ['RSA-OAEP-256 / A256GCM'], received: { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: client.encryptionKey.kid, cty: 'JWT' } });
    expect(byName(checks, 'decryption')).toMatchObject({ expected: client.encryptionKey.kid, received: client.encryptionKey.kid });
    expect(byName(checks, 'jws_header')).toMatchObject({ expected: 'ES256', received: { alg: 'ES256', kid: 'service-key-1', typ: 'JWT' } });
    expect(byName(checks, 'signing_key')).toMatchObject({ expected: 'service-key-1', received: { kid: 'service-key-1', kty: 'EC', crv: 'P-256' }, detail: { source: 'fetched', jwksUri: JWKS_URI } });
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
      expect.objectContaining({ check: 'jwe_header', passed: false, code: 'id_token_not_encrypted', received: { alg: 'ES256', kid: 'service-key-1', typ: 'JWT' }, detail: expect.objectContaining({ parts: 3 }) }),
    ]);
  });

  it('reports an unknown kid at the signing key, with the kids the JWKS publishes', async () => {
    const { checks, error } = await checksOf(await encrypt(await sign(claims(), 'not-published')));
    expect(error).toMatchObject({ code: 'id_token_key_not_found' });
    expect(checks.at(-1)).toMatchObject({ check: 'signing_key', passed: false, expected: 'not-published', detail: { published: ['service-key-1'] } });
    expect(byName(checks, 'signature')).toBeUndefined();
  });

  it('says where the key came from: fetched, then the cache, then a refetch for a rotated kid', async () => {
    let keys = [servicePublicJwk];
    let now = NOW;
    const { cache, fetches } = jwks(() => keys, () => now);
    expect(byName((await checksOf(await encrypt(await sign(claims())), cache)).checks, 'signing_key')?.detail?.source).toBe('fetched');
    expect(byName((await checksOf(await encrypt(await sign(claims())), cache)).checks, 'signing_key')?.detail?.source).toBe('cache');
    keys = [{ ...servicePublicJwk, kid: 'service-key-2' }];
    now = NOW + 60_000;
    const rotated = await checksOf(await encrypt(await sign(claims(), 'service-key-2')), cache);
    expect(rotated.error).toBeUndefined();
    expect(byName(rotated.checks, 'signing_key')?.detail?.source).toBe('refetched');
    expect(fetches()).toBe(2);
  });
});

describe('validateIdTokenClaims', () => {
  it('still throws without a listener, and checks each claim the same way', () => {
    expect(() => validateIdTokenClaims(claims({ iss: 'https://impostor.invalid' }), { issuer: ISSUER, clientId: CLIENT_ID, nonce: NONCE, now: NOW })).toThrow(
      expect.objectContaining({ code: 'id_token_issuer_mismatch' }),
    );
  });
});
