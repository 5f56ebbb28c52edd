import { describe, expect, it } from 'vitest';
import { DiscoveryCache, processDiscoveryResponse } from './discovery.ts';

const ISSUER = 'https://idv.example';

function metadata(overrides: Record<string, unknown> = {}) {
  return {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/auth`,
    token_endpoint: `${ISSUER}/token`,
    jwks_uri: `${ISSUER}/jwks`,
    pushed_authorization_request_endpoint: `${ISSUER}/par`,
    ...overrides,
  };
}

describe('processDiscoveryResponse', () => {
  it('accepts a document whose issuer equals the configured issuer', async () => {
    await expect(processDiscoveryResponse(ISSUER, Response.json(metadata()))).resolves.toMatchObject({ issuer: ISSUER });
  });

  it('rejects a document naming another issuer, even one differing only by a trailing slash', async () => {
    await expect(processDiscoveryResponse(ISSUER, Response.json(metadata({ issuer: `${ISSUER}/` })))).rejects.toMatchObject({
      code: 'discovery_issuer_mismatch',
      cause: { expected: ISSUER, actual: `${ISSUER}/` },
    });
  });

  it('takes PAR, token and JWKS endpoints a sparse document leaves out from part 4’s paths, and says so', async () => {
    const sparse = { issuer: ISSUER, authorization_endpoint: 'https://flow.idv.example/auth' };
    const processed = await processDiscoveryResponse(ISSUER, Response.json(sparse));
    expect(processed).toMatchObject({
      authorization_endpoint: 'https://flow.idv.example/auth',
      pushed_authorization_request_endpoint: `${ISSUER}/par`,
      token_endpoint: `${ISSUER}/token`,
      jwks_uri: `${ISSUER}/jwks`,
      endpoint_sources: {
        authorization_endpoint: 'discovery',
        pushed_authorization_request_endpoint: 'part_4_path',
        token_endpoint: 'part_4_path',
        jwks_uri: 'part_4_path',
      },
    });
    // A complete document needs no note.
    expect(await processDiscoveryResponse(ISSUER, Response.json(metadata()))).not.toHaveProperty('endpoint_sources');
  });

  it('takes the authorization endpoint from the flow URL when the document has none, and fails without one', async () => {
    const withoutAuthorization = () => Response.json(metadata({ authorization_endpoint: undefined }));
    await expect(processDiscoveryResponse(ISSUER, withoutAuthorization(), { flowUrl: 'https://flow.idv.example' })).resolves.toMatchObject({
      authorization_endpoint: 'https://flow.idv.example/auth',
      endpoint_sources: { authorization_endpoint: 'flow_url' },
    });
    await expect(processDiscoveryResponse(ISSUER, withoutAuthorization())).rejects.toMatchObject({
      code: 'discovery_failed',
      message: expect.stringContaining('no authorization_endpoint, and no flow URL'),
    });
    // The fallback is held to the same rules: https unless insecure requests are allowed.
    await expect(processDiscoveryResponse(ISSUER, withoutAuthorization(), { flowUrl: 'http://flow.idv.example' })).rejects.toMatchObject({
      code: 'insecure_url',
    });
  });

  it('rejects an endpoint that is present but not a string', async () => {
    const response = Response.json(metadata({ pushed_authorization_request_endpoint: null }));
    await expect(processDiscoveryResponse(ISSUER, response)).rejects.toMatchObject({ code: 'discovery_failed' });
  });

  it('rejects plain-http endpoints unless insecure requests are allowed', async () => {
    const doc = metadata({ token_endpoint: 'http://idv.example/token' });
    await expect(processDiscoveryResponse(ISSUER, Response.json(doc))).rejects.toMatchObject({ code: 'insecure_url' });
    await expect(processDiscoveryResponse(ISSUER, Response.json(doc), { allowInsecureRequests: true })).resolves.toBeDefined();
  });

  it('maps a non-200 status and a non-JSON body to discovery_failed', async () => {
    await expect(processDiscoveryResponse(ISSUER, new Response('', { status: 404 }))).rejects.toMatchObject({ code: 'discovery_failed' });
    await expect(processDiscoveryResponse(ISSUER, new Response('<html>'))).rejects.toMatchObject({ code: 'discovery_failed' });
  });
});

describe('DiscoveryCache', () => {
  it('fetches once for concurrent and later callers within the cache lifetime', async () => {
    let fetches = 0;
    const cache = new DiscoveryCache({
      fetch: async (url) => {
        fetches++;
        expect(String(url)).toBe(`${ISSUER}/.well-known/openid-configuration`);
        return Response.json(metadata(), { headers: { 'cache-control': 'max-age=3600' } });
      },
    });
    await Promise.all([cache.get(ISSUER), cache.get(ISSUER)]);
    await cache.get(ISSUER);
    expect(fetches).toBe(1);
  });

  it('keeps a failure for a second: every call meanwhile fails at once with its code, without a request', async () => {
    let now = 0;
    let fetches = 0;
    const cache = new DiscoveryCache({
      now: () => now,
      fetch: async () => (++fetches === 1 ? new Response('', { status: 503 }) : Response.json(metadata())),
    });
    for (let i = 0; i < 10; i++) {
      await expect(cache.get(ISSUER)).rejects.toMatchObject({ name: 'IdvError', code: 'discovery_failed', cause: { status: 503 } });
      now += 99;
    }
    expect(fetches).toBe(1);
    now = 1_000;
    await expect(cache.get(ISSUER)).resolves.toMatchObject({ issuer: ISSUER });
    expect(fetches).toBe(2);
  });

  it('keeps the code of the failure it holds back (network_error, discovery_issuer_mismatch)', async () => {
    const unreachable = new DiscoveryCache({ fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    await expect(unreachable.get(ISSUER)).rejects.toMatchObject({ code: 'network_error' });
    await expect(unreachable.get(ISSUER)).rejects.toMatchObject({ code: 'network_error' });
    let fetches = 0;
    const impostor = new DiscoveryCache({ fetch: async () => (fetches++, Response.json(metadata({ issuer: 'https://evil.example' }))) });
    await expect(impostor.get(ISSUER)).rejects.toMatchObject({ code: 'discovery_issuer_mismatch' });
    await expect(impostor.get(ISSUER)).rejects.toMatchObject({ code: 'discovery_issuer_mismatch' });
    expect(fetches).toBe(1);
  });

  it('doubles the back-off with each failure in a row, up to 30 s, and starts again at a second after a success', async () => {
    let now = 0;
    let down = true;
    let fetches = 0;
    const cache = new DiscoveryCache({
      now: () => now,
      fetch: async () => {
        fetches++;
        return down ? new Response('', { status: 500 }) : Response.json(metadata(), { headers: { 'cache-control': 'max-age=60' } });
      },
    });
    const fetchedAt: number[] = [];
    while (fetches < 9) {
      const before = fetches;
      await cache.get(ISSUER).catch(() => undefined);
      if (fetches > before) fetchedAt.push(now);
      now += 250;
    }
    expect(fetchedAt.slice(1).map((at, i) => at - fetchedAt[i]!)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);

    now += 30_000;
    down = false;
    await cache.get(ISSUER);
    down = true;
    now += 60_000; // expired: the refresh fails, the stale document answers
    await expect(cache.get(ISSUER)).resolves.toMatchObject({ issuer: ISSUER });
    now += 999;
    await cache.get(ISSUER);
    expect(fetches).toBe(11);
    now += 1;
    await cache.get(ISSUER);
    expect(fetches).toBe(12);
  });

  it('returns the last good document when a refresh fails, until a day past its freshness', async () => {
    let now = 0;
    let down = false;
    let fetches = 0;
    const cache = new DiscoveryCache({
      now: () => now,
      fetch: async () => {
        fetches++;
        if (down) throw new TypeError('fetch failed');
        return Response.json(metadata(), { headers: { 'cache-control': 'max-age=3600' } });
      },
    });
    const good = await cache.get(ISSUER);
    down = true;
    now = 3_600_000;
    await expect(cache.get(ISSUER)).resolves.toBe(good);
    await expect(cache.get(ISSUER)).resolves.toBe(good); // backed off: no request
    expect(fetches).toBe(2);
    now = 3_600_000 + 86_400_000 - 1;
    await expect(cache.get(ISSUER)).resolves.toBe(good);
    now = 3_600_000 + 86_400_000;
    await expect(cache.get(ISSUER)).rejects.toMatchObject({ code: 'network_error' });
  });

  it('uses no stale document with staleIfErrorSeconds: 0, and refuses a window that is not a finite number of seconds', async () => {
    let now = 0;
    let fetches = 0;
    const cache = new DiscoveryCache({
      now: () => now,
      staleIfErrorSeconds: 0,
      fetch: async () => (++fetches === 1 ? Response.json(metadata(), { headers: { 'cache-control': 'max-age=60' } }) : new Response('', { status: 503 })),
    });
    await cache.get(ISSUER);
    now = 60_000;
    await expect(cache.get(ISSUER)).rejects.toMatchObject({ code: 'discovery_failed' });
    for (const staleIfErrorSeconds of [Number.NaN, Number.POSITIVE_INFINITY, -1]) {
      expect(() => new DiscoveryCache({ staleIfErrorSeconds })).toThrow(RangeError);
    }
  });

  it('lets concurrent callers share one failing request', async () => {
    let fail = () => undefined as void;
    let fetches = 0;
    const cache = new DiscoveryCache({
      fetch: () => {
        fetches++;
        return new Promise<Response>((resolve) => (fail = () => resolve(new Response('', { status: 503 }))));
      },
    });
    const callers = [1, 2, 3].map(() => cache.get(ISSUER));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetches).toBe(1);
    fail();
    const results = await Promise.allSettled(callers);
    expect(results).toMatchObject([1, 2, 3].map(() => ({ status: 'rejected', reason: { code: 'discovery_failed' } })));
  });

  it('refuses an http issuer unless insecure requests are allowed', async () => {
    const cache = new DiscoveryCache({ fetch: async () => Response.json(metadata()) });
    await expect(cache.get('http://localhost:3000/emulator')).rejects.toMatchObject({ code: 'insecure_url' });
  });

  it('takes a call’s own HTTP options over its own: the relying party’s allowInsecureRequests is enough', async () => {
    const issuer = 'http://localhost:3000/emulator';
    const local = metadata({ issuer, pushed_authorization_request_endpoint: `${issuer}/par`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
    await expect(new DiscoveryCache().get(issuer, { fetch: async () => Response.json(local) })).rejects.toMatchObject({ code: 'insecure_url' });
    await expect(new DiscoveryCache().get(issuer, { fetch: async () => Response.json(local), allowInsecureRequests: true })).resolves.toMatchObject({
      issuer,
    });
    // A call that does not say keeps the cache's own setting.
    const allowing = new DiscoveryCache({ allowInsecureRequests: true, fetch: async () => Response.json(local) });
    await expect(allowing.get(issuer, { allowInsecureRequests: undefined })).resolves.toMatchObject({ issuer });
  });

  it('maps a hanging endpoint to timeout', async () => {
    const cache = new DiscoveryCache({
      timeoutMs: 50,
      fetch: (_url, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
    });
    await expect(cache.get(ISSUER)).rejects.toMatchObject({ code: 'timeout' });
  });

  it('maps a connection failure to network_error', async () => {
    const cache = new DiscoveryCache({ fetch: async () => Promise.reject(new TypeError('fetch failed')) });
    await expect(cache.get(ISSUER)).rejects.toMatchObject({ code: 'network_error' });
  });
});

describe('bounded responses', () => {
  it('refuses a discovery document larger than the limit instead of buffering it', async () => {
    const huge = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024 * 1024).fill(32));
      },
    });
    await expect(processDiscoveryResponse(ISSUER, new Response(huge, { status: 200 }))).rejects.toMatchObject({ code: 'discovery_failed' });
  });
});
