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

/** A JWKS endpoint; set `state.down` to make it fail the way it names. */
function server(initial: JWK[], cacheControl = 'public, max-age=86400') {
  const state: { keys: JWK[]; fetches: number; down?: keyof typeof OUTAGES } = { keys: initial, fetches: 0 };
  const fetch = async (_url: unknown, init?: RequestInit) => {
    state.fetches++;
    if (state.down) return OUTAGES[state.down](init);
    return Response.json({ keys: state.keys }, { headers: { 'cache-control': cacheControl } });
  };
  return { state, fetch };
}

/** The ways a refresh fails, and the code each maps to. */
const OUTAGES = {
  status: async () => new Response('oops', { status: 503 }),
  json: async () => new Response('<html>', { status: 200 }),
  network: async () => Promise.reject(new TypeError('fetch failed')),
  timeout: (init?: RequestInit) => new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
} satisfies Record<string, (init?: RequestInit) => Promise<Response>>;
const OUTAGE_CODES = { status: 'jwks_fetch_failed', json: 'jwks_fetch_failed', network: 'network_error', timeout: 'timeout' } as const;

const DAY_MS = 86_400_000;

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

  it('takes a lookup’s own HTTP options over its own: the relying party’s allowInsecureRequests is enough', async () => {
    const { fetch } = server([keyA]);
    const local = 'http://localhost:3000/emulator/jwks';
    await expect(new JwksCache({ fetch }).getKey(local, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code: 'insecure_url' });
    await expect(new JwksCache({ fetch }).getKey(local, { alg: 'ES256', kid: 'a' }, { allowInsecureRequests: true })).resolves.toMatchObject({
      jwk: { kid: 'a' },
    });
    await expect(new JwksCache().getKey(local, { alg: 'ES256', kid: 'a' }, { fetch, allowInsecureRequests: true })).resolves.toBeDefined();
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

describe('JwksCache when a refresh fails (stale-if-error and back-off)', () => {
  it.each(Object.keys(OUTAGES) as (keyof typeof OUTAGES)[])('keeps verifying with a known key when the expiry-driven refresh fails (%s)', async (outage) => {
    let now = 0;
    const { state, fetch } = server([keyA], 'max-age=600');
    const cache = new JwksCache({ fetch, now: () => now, timeoutMs: 20 });
    const first = await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.down = outage;
    now += 600_000;
    const stale = await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    expect(stale.key).toBe(first.key);
    expect(state.fetches).toBe(2);
  });

  it.each(Object.keys(OUTAGES) as (keyof typeof OUTAGES)[])(
    'without known keys, fails with the code of the outage (%s), and repeats it without a request while backing off',
    async (outage) => {
      let now = 0;
      const { state, fetch } = server([keyA]);
      state.down = outage;
      const cache = new JwksCache({ fetch, now: () => now, timeoutMs: 20 });
      const code = OUTAGE_CODES[outage];
      await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code, cause: { retryAfterMs: 1_000 } });
      now += 400;
      await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code, cause: { retryAfterMs: 600 } });
      expect(state.fetches).toBe(1);
    },
  );

  it('uses the known keys until a day past their freshness, and not from then on', async () => {
    let now = 0;
    const { state, fetch } = server([keyA]); // max-age=86400: fresh for a day
    const cache = new JwksCache({ fetch, now: () => now });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.down = 'status';
    now = 2 * DAY_MS - 1;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).resolves.toBeDefined();
    now = 2 * DAY_MS + 10 * 60_000; // past the window and past any back-off: a request, which fails
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
    expect(state.fetches).toBe(3);
  });

  it('uses no stale keys with staleIfErrorSeconds: 0, and refuses a window that is not a finite number of seconds', async () => {
    let now = 0;
    const { state, fetch } = server([keyA], 'max-age=600');
    const cache = new JwksCache({ fetch, now: () => now, staleIfErrorSeconds: 0 });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.down = 'status';
    now += 600_000;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
    for (const staleIfErrorSeconds of [Number.NaN, Number.POSITIVE_INFINITY, -1]) {
      expect(() => new JwksCache({ staleIfErrorSeconds })).toThrow(RangeError);
    }
  });

  it('does not ask again within a second of a failure, failing at once with its code and when it asks again, and asks again after', async () => {
    let now = 0;
    const { state, fetch } = server([keyA]);
    state.down = 'network';
    const cache = new JwksCache({ fetch, now: () => now });
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({
      code: 'network_error',
      message: expect.stringMatching(/\(tried again in 1 s\)$/),
    });
    now += 999;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({
      code: 'network_error',
      message: expect.stringMatching(/\(not tried again for 1 s\)$/),
    });
    expect(state.fetches).toBe(1);
    state.down = 'status';
    now += 1;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
    expect(state.fetches).toBe(2);
    // the second failure in a row: 2 s
    now += 1_999;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
    expect(state.fetches).toBe(2);
    state.down = undefined;
    now += 1;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).resolves.toBeDefined();
    expect(state.fetches).toBe(3);
  });

  it('doubles the back-off up to 30 s, and starts again at a second after a success', async () => {
    let now = 0;
    const { state, fetch } = server([keyA], 'max-age=60');
    state.down = 'status';
    const cache = new JwksCache({ fetch, now: () => now });
    const gaps: number[] = [];
    let last = 0;
    while (state.fetches < 9) {
      const before = state.fetches;
      await cache.getKey(URI, { alg: 'ES256', kid: 'a' }).catch(() => undefined);
      if (state.fetches > before) {
        gaps.push(now - last);
        last = now;
      }
      now += 250;
    }
    expect(gaps.slice(1)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);

    now += 30_000;
    state.down = undefined;
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.down = 'status';
    now += 60_000; // expired: refresh fails, stale keys answer
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).resolves.toBeDefined();
    now += 999;
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    expect(state.fetches).toBe(11);
    now += 1;
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    expect(state.fetches).toBe(12);
  });

  it('serves stale keys without a request while backed off', async () => {
    let now = 0;
    const { state, fetch } = server([keyA], 'max-age=600');
    const cache = new JwksCache({ fetch, now: () => now });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.down = 'network';
    now += 600_000;
    for (let i = 0; i < 5; i++) {
      await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).resolves.toBeDefined();
      now += 199;
    }
    expect(state.fetches).toBe(2);
  });

  it('fails with the refresh failure, not id_token_key_not_found, for a kid the stale key set lacks', async () => {
    let now = 0;
    const { state, fetch } = server([keyA], 'max-age=600');
    const cache = new JwksCache({ fetch, now: () => now });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.down = 'status';
    now += 600_000;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'b' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
  });

  it('keeps the known keys when the unknown-kid refetch fails, and backs that refetch off too', async () => {
    let now = 0;
    const { state, fetch } = server([keyA]);
    const cache = new JwksCache({ fetch, now: () => now, refetchCooldownMs: 30_000 });
    await cache.getKey(URI, { alg: 'ES256', kid: 'a' });
    state.down = 'status';
    now += 60_000;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'b' })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'a' })).resolves.toBeDefined();
    for (const kid of ['x', 'y', 'z']) {
      await expect(cache.getKey(URI, { alg: 'ES256', kid })).rejects.toMatchObject({ code: 'jwks_fetch_failed' });
    }
    expect(state.fetches).toBe(2);
    state.down = undefined;
    state.keys = [keyA, keyB];
    now += 5_000;
    await expect(cache.getKey(URI, { alg: 'ES256', kid: 'b' })).resolves.toBeDefined();
    expect(state.fetches).toBe(3);
  });

  it('lets concurrent callers share one request, whether it succeeds or fails', async () => {
    const { state, fetch } = server([keyA, keyB]);
    const ok = new JwksCache({ fetch });
    await Promise.all([ok.getKey(URI, { alg: 'ES256', kid: 'a' }), ok.getKey(URI, { alg: 'ES256', kid: 'b' }), ok.getKey(URI, { alg: 'ES256', kid: 'a' })]);
    expect(state.fetches).toBe(1);

    // Each caller is in before the one request fails: only sharing (not the back-off) keeps it at one.
    let fail = () => undefined as void;
    let fetches = 0;
    const failing = new JwksCache({
      fetch: () => {
        fetches++;
        return new Promise<Response>((resolve) => (fail = () => resolve(new Response('', { status: 503 }))));
      },
    });
    const callers = [1, 2, 3].map(() => failing.getKey(URI, { alg: 'ES256', kid: 'a' }));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetches).toBe(1);
    fail();
    const results = await Promise.allSettled(callers);
    expect(results).toMatchObject([1, 2, 3].map(() => ({ status: 'rejected', reason: { code: 'jwks_fetch_failed' } })));
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
