import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { JwksCache, selectVerificationKey } from './jwks.ts';

const URI = 'https://idv.example/jwks';
let keyA: JWK;
let keyB: JWK;

beforeAll(async () => {
  keyA = { ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid: 'a', use: 'sig' };
  keyB = { ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid: 'b', use: 'sig' };
});

function server(initial: JWK[], cacheControl = 'public, max-age=86400') {
  const state = { keys: initial, fetches: 0 };
  const fetch = async () => {
    state.fetches++;
    return Response.json({ keys: state.keys }, { headers: { 'cache-control': cacheControl } });
  };
  return { state, fetch };
}

describe('JwksCache', () => {
  it('fetches once and serves later lookups from the cache while max-age lasts', async () => {
    let now = 0;
    const { state, fetch } = server([keyA, keyB]);
    const cache = new JwksCache({ fetch, now: () => now });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    await cache.getKey(URI, { alg: 'ES256', kid: 'b' });
    now += 86_399_000;
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    expect(state.fetches).toBe(1);
    now += 2_000;
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    expect(state.fetches).toBe(2);
  });

  it('refetches once for an unknown kid (rotation) and finds the new key', async () => {
    let now = 0;
    const { state, fetch } = server([keyA]);
    const cache = new JwksCache({ fetch, now: () => now, refetchCooldownMs: 60_000 });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.keys = [keyA, keyB];
    now += 120_000;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'b' })).resolves.toBeDefined();
    expect(state.fetches).toBe(2);
  });

  it('does not refetch for unknown kids within the cool-down, so forged kids cannot flood the endpoint', async () => {
    let now = 0;
    const { state, fetch } = server([keyA]);
    const cache = new JwksCache({ fetch, now: () => now, refetchCooldownMs: 60_000 });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    now += 1_000;
    for (const kid of ['x', 'y', 'z']) {
      await expect(cache.getKey(URI, { alg: 'ES256', kid })).rejects.toMatchObject({ code: 'id_token_key_not_found' });
    }
    expect(state.fetches).toBe(1);
  });

  it('does not cache a response marked no-store', async () => {
    const { state, fetch } = server([keyA], 'no-store');
    const cache = new JwksCache({ fetch });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    expect(state.fetches).toBe(2);
  });

  it('maps a failing endpoint to jwks_fetch_failed', async () => {
    const cache = new JwksCache({ fetch: async () => new Response('oops', { status: 503 }) });
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
    const notJson = new JwksCache({ fetch: async () => new Response('<html>', { status: 200 }) });
    await expect(notJson.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
  });
});

describe('selectVerificationKey', () => {
  it('selects by kid, not by position', () => {
    expect(selectVerificationKey([keyA, keyB], { alg: 'ES256', kid: 'b' })).toBe(keyB);
  });

  it('refuses a key of the wrong type, use or algorithm under the right kid', () => {
    expect(selectVerificationKey([{ ...keyA, use: 'enc' }], { alg: 'ES256', kid: 'a' })).toBeUndefined();
    expect(selectVerificationKey([{ ...keyA, alg: 'ES384' }], { alg: 'ES256', kid: 'a' })).toBeUndefined();
    expect(selectVerificationKey([{ kty: 'RSA', kid: 'a', n: 'x', e: 'AQAB' }], { alg: 'ES256', kid: 'a' })).toBeUndefined();
  });

  it('refuses two keys under one kid rather than guess', () => {
    expect(selectVerificationKey([keyA, { ...keyB, kid: 'a' }], { alg: 'ES256', kid: 'a' })).toBeUndefined();
  });
});
