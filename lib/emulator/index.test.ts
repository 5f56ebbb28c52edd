import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, openAuthorizationPage, type TestClient } from '@/test/support/emulator';
import { ID_TOKEN_CONTENT_ENCRYPTIONS, ID_TOKEN_ENCRYPTION_ALGORITHMS, NO_CONTENT_POLICY, ROUTES, createEmulator } from '.';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

describe('createEmulator', () => {
  it('checks the clients passed in code with the same rules', () => {
    const broken = { ...client.registered, redirectUris: ['not a url'] };
    expect(() => createEmulator({ baseUrl: TEST_BASE_URL, clients: [broken] })).toThrow('clients[0].redirectUris[0]: must be an absolute http(s) URL');
  });

  it.each([
    ['a trailing slash', `${TEST_BASE_URL}/`, /must not end with a slash/],
    ['a relative URL', '/emulator', /must be an absolute http\(s\) URL/],
    ['a query', `${TEST_BASE_URL}?x=1`, /must not have a query or fragment/],
    ['a non-normal form', 'HTTP://LOCALHOST:3000/emulator', /must be in normal form/],
  ])('refuses a baseUrl with %s', (_name, baseUrl, message) => {
    expect(() => createEmulator({ baseUrl, clients: [client.registered] })).toThrow(message);
  });

  it('accepts an origin as baseUrl and serves endpoints at its root', async () => {
    const emulator = createEmulator({ baseUrl: 'https://idv.example', clients: [client.registered] });
    const response = await emulator.handle(new Request('https://idv.example/.well-known/openid-configuration'));
    expect((await response.json()).token_endpoint).toBe('https://idv.example/token');
  });
});

describe('every answer', () => {
  /** A path of each route of the table: a regular expression's groups filled in with a sample. */
  const paths = ROUTES.map((route) =>
    typeof route.path === 'string'
      ? route.path
      : route.path.source
          .replace(/^\^/, '')
          .replace(/\$$/, '')
          .replace(/\\/g, '')
          .replace(/\([^)]*\)/g, 'x-1'),
  );

  it('carries nosniff and a Content-Security-Policy, on every route, with every method, its errors included; JSON one that allows nothing', async () => {
    const emulator = createEmulator({ baseUrl: TEST_BASE_URL, clients: [client.registered] });
    const answers: [string, Response][] = [];
    for (const path of [...paths, '/nothing-here', '/qa/flow?state=%FF']) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const body = method === 'GET' || method === 'HEAD' ? undefined : 'x=%';
        answers.push([`${method} ${path}`, await emulator.handle(new Request(`${TEST_BASE_URL}${path}`, { method, body }))]);
      }
    }
    for (const [request, response] of answers) {
      expect(response.status, request).toBeLessThan(500);
      expect(response.headers.get('x-content-type-options'), request).toBe('nosniff');
      expect(response.headers.get('content-security-policy'), request).toBeTruthy();
      if (response.headers.get('content-type')?.includes('json')) expect(response.headers.get('content-security-policy'), request).toBe(NO_CONTENT_POLICY);
    }
    // The table's every route was asked: discovery and the JWKS among them, the QA API's JSON errors too.
    expect(answers.map(([request]) => request)).toEqual(expect.arrayContaining(['GET /.well-known/openid-configuration', 'GET /jwks', 'GET /qa/flow']));
  });
});

describe('createEmulator deviceBaseUrl', () => {
  it('defaults to the base URL', async () => {
    const emulator = createEmulator({ baseUrl: TEST_BASE_URL, clients: [client.registered] });
    const { interaction, browser } = await openAuthorizationPage(emulator, client);
    const shown = await (await emulator.handle(new Request(`${TEST_BASE_URL}/auth/page?interaction=${interaction}&browser=${browser}&link=shown`))).text();
    expect(shown).toContain(`<code data-testid="device-url">${TEST_BASE_URL}/app/${interaction}</code>`);
  });

  it.each([
    ['a different path', 'http://192.168.1.20:3000/other', /must have the same path as baseUrl \('\/emulator'\)/],
    ['a trailing slash', 'http://192.168.1.20:3000/emulator/', /deviceBaseUrl must not end with a slash/],
    ['no scheme', '192.168.1.20:3000/emulator', /deviceBaseUrl must be an/],
    ['a query', 'http://192.168.1.20:3000/emulator?x=1', /deviceBaseUrl must not have a query/],
  ])('refuses %s', (_name, deviceBaseUrl, message) => {
    expect(() => createEmulator({ baseUrl: TEST_BASE_URL, deviceBaseUrl, clients: [client.registered] })).toThrow(message);
  });
});

describe('the supported ID token encryption values (spec 2.5)', () => {
  it('are exported for hosts and relying parties to offer: two key management and six content encryption algorithms', () => {
    expect(ID_TOKEN_ENCRYPTION_ALGORITHMS).toEqual(['RSA-OAEP-256', 'RSA-OAEP']);
    expect(ID_TOKEN_CONTENT_ENCRYPTIONS).toEqual(['A128GCM', 'A192GCM', 'A256GCM', 'A128CBC-HS256', 'A192CBC-HS384', 'A256CBC-HS512']);
  });
});
