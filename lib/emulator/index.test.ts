import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, openAuthorizationPage, type TestClient } from '@/test/support/emulator';
import { ID_TOKEN_CONTENT_ENCRYPTIONS, ID_TOKEN_ENCRYPTION_ALGORITHMS, createEmulator } from '.';

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
