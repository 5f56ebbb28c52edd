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

  it('rejects a document without a PAR endpoint (PAR is mandatory)', async () => {
    const response = Response.json(metadata({ pushed_authorization_request_endpoint: undefined }));
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

  it('does not keep a failure, so the next call tries again', async () => {
    let fetches = 0;
    const cache = new DiscoveryCache({
      fetch: async () => (++fetches === 1 ? new Response('', { status: 503 }) : Response.json(metadata())),
    });
    await expect(cache.get(ISSUER)).rejects.toMatchObject({ code: 'discovery_failed' });
    await expect(cache.get(ISSUER)).resolves.toMatchObject({ issuer: ISSUER });
  });

  it('refuses an http issuer unless insecure requests are allowed', async () => {
    const cache = new DiscoveryCache({ fetch: async () => Response.json(metadata()) });
    await expect(cache.get('http://localhost:3000/emulator')).rejects.toMatchObject({ code: 'insecure_url' });
  });

  it('maps a hanging endpoint to timeout', async () => {
    const cache = new DiscoveryCache({
      timeoutMs: 50,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))),
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
