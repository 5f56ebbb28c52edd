import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, createTestEmulator, formPost, openAuthorizationPage, type TestClient } from '@/test/support/emulator';
import { MemoryStore } from '../../store/memory-store';
import type { Emulator, RateLimits } from '..';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

/** An emulator whose requests name their client address in a test header. */
function limitedEmulator(rateLimits: Partial<RateLimits> | false, store = new MemoryStore()): Emulator {
  return createTestEmulator({
    clients: [client],
    store,
    rateLimits,
    clientAddress: (request) => request.headers.get('x-test-address') ?? 'none',
  });
}

function from(address: string, request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set('x-test-address', address);
  return new Request(request, { headers });
}

/** A PAR without credentials: refused by its checks (400), but counted first. */
const emptyPar = () => formPost(`${TEST_BASE_URL}/par`, {});

describe('the emulator’s rate limits', () => {
  it('answers PAR over its limit with 429, Retry-After and an RFC 6749 error body, per client address', async () => {
    const emulator = limitedEmulator({ par: 2 });
    const statuses = [];
    for (let attempt = 0; attempt < 3; attempt += 1) statuses.push((await emulator.handle(from('10.0.0.1', emptyPar()))).status);
    expect(statuses).toEqual([400, 400, 429]);
    const refused = await emulator.handle(from('10.0.0.1', emptyPar()));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const body = (await refused.json()) as { error: string; error_description: string };
    expect(body.error).toBe('temporarily_unavailable');
    expect(body.error_description).toMatch(/too many pushed authorization requests from this address \(at most 2 a minute\)/);
    // Another address has its own budget; the token endpoint has its own too.
    expect((await emulator.handle(from('10.0.0.2', emptyPar()))).status).toBe(400);
    expect((await emulator.handle(from('10.0.0.1', formPost(`${TEST_BASE_URL}/token`, {})))).status).toBe(400);
  });

  it('shows a person’s browser over the limit a page, and a status poll JSON', async () => {
    const emulator = limitedEmulator({ interaction: 1 });
    const page = await emulator.handle(from('10.0.0.3', new Request(`${TEST_BASE_URL}/auth?client_id=x&request_uri=y`)));
    expect(page.status).toBe(400);
    const refused = await emulator.handle(from('10.0.0.3', new Request(`${TEST_BASE_URL}/auth?client_id=x&request_uri=y`)));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const html = await refused.text();
    expect(html).toContain('data-testid="error-code">temporarily_unavailable<');
    expect(html).toContain('too many requests to the authorization pages');
    const poll = await emulator.handle(from('10.0.0.3', new Request(`${TEST_BASE_URL}/auth/status?interaction=i`)));
    expect(poll.status).toBe(429);
    expect(((await poll.json()) as { error: string }).error).toBe('temporarily_unavailable');
  });

  it('limits the panel’s actions, and never the read-only documents', async () => {
    const emulator = limitedEmulator({ panel: 1, par: 1, token: 1, interaction: 1 });
    const post = () =>
      from(
        '10.0.0.4',
        new Request(`${TEST_BASE_URL}/panel`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: 'action=rotate_keys',
        }),
      );
    expect((await emulator.handle(post())).status).toBe(303);
    const refused = await emulator.handle(post());
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('too many panel actions');
    for (const path of ['/.well-known/openid-configuration', '/jwks', '/portraits/ingrid-haugen.jpg', '', '/assets/auth-page.js']) {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect((await emulator.handle(from('10.0.0.4', new Request(`${TEST_BASE_URL}${path}`)))).status, path).toBe(200);
      }
    }
  });

  it('counts in the store, so emulators sharing one store share the budget', async () => {
    const store = new MemoryStore();
    const [one, two] = [limitedEmulator({ par: 2 }, store), limitedEmulator({ par: 2 }, store)];
    expect((await one.handle(from('10.0.0.5', emptyPar()))).status).toBe(400);
    expect((await two.handle(from('10.0.0.5', emptyPar()))).status).toBe(400);
    expect((await one.handle(from('10.0.0.5', emptyPar()))).status).toBe(429);
  });

  it('lets a whole flow through under the default limits, and with the limits off sends no 429', async () => {
    const defaults = createTestEmulator({ clients: [client] });
    await expect(openAuthorizationPage(defaults, client)).resolves.toMatchObject({ interaction: expect.any(String) });
    const unlimited = limitedEmulator(false);
    const statuses = new Set<number>();
    for (let attempt = 0; attempt < 400; attempt += 1) statuses.add((await unlimited.handle(from('10.0.0.6', emptyPar()))).status);
    expect([...statuses]).toEqual([400]);
  });

  it('refuses limits that are not whole numbers of requests per minute, or of an unknown group', () => {
    expect(() => limitedEmulator({ par: 0 })).toThrow('rateLimits.par must be a whole number of requests per minute, at least 1, not 0');
    expect(() => limitedEmulator({ token: 1.5 })).toThrow(/rateLimits\.token/);
    expect(() => limitedEmulator({ pra: 5 } as Partial<RateLimits>)).toThrow("rateLimits: unknown group 'pra'");
  });
});
