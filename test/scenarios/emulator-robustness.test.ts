import { base64url } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import { MemoryStore } from '@/lib/store/memory-store';
import { StoreError } from '@/lib/store/store';
import {
  TEST_BASE_URL,
  clientAuthentication,
  createPkce,
  createTestClient,
  createTestEmulator,
  formPost,
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';

let client: TestClient;
let emulator: Emulator;

beforeAll(async () => {
  client = await createTestClient();
  emulator = createTestEmulator({ clients: [client] });
});

/** RFC 6749 §5.2: the error body, with error_description limited to %x20-21 / %x23-5B / %x5D-7E. */
async function expectOAuthError(response: Response, status?: number) {
  if (status === undefined) {
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  } else {
    expect(response.status).toBe(status);
  }
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = await response.json();
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  expect(body.error).toMatch(/^[a-z_]+$/);
  expect(body.error_description).toMatch(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/);
  return body as { error: string; error_description: string };
}

const segment = (value: unknown) => base64url.encode(typeof value === 'string' ? value : JSON.stringify(value));
const validPayload = () => ({ iss: 'demo-client', sub: 'demo-client', aud: TEST_BASE_URL, exp: Math.floor(Date.now() / 1000) + 60 });

/** Values no parameter should choke on. */
const GARBAGE: Array<[string, string]> = [
  ['a space', ' '],
  ['three dots', '...'],
  ['three empty-JSON segments', 'e30.e30.e30'],
  ['a header only', segment({ alg: 'ES256' })],
  ['a header that is a JSON array', `${segment([])}.${segment(validPayload())}.c2ln`],
  ['a header that is JSON null', `${segment('null')}.${segment(validPayload())}.c2ln`],
  ['a header that is not JSON', `${segment('{alg:')}.${segment(validPayload())}.c2ln`],
  ['a header that is not UTF-8', `${base64url.encode(new Uint8Array([0xff, 0xfe, 0x7b]))}.${segment(validPayload())}.c2ln`],
  ['alg as a number', `${segment({ alg: 256, kid: 'k', typ: 'JWT' })}.${segment(validPayload())}.c2ln`],
  ['kid as an object', `${segment({ alg: 'ES256', kid: { a: 1 }, typ: 'JWT' })}.${segment(validPayload())}.c2ln`],
  ['kid __proto__', `${segment({ alg: 'ES256', kid: '__proto__', typ: 'JWT' })}.${segment(validPayload())}.c2ln`],
  ['a __proto__ header member', `${segment('{"alg":"ES256","kid":"k","typ":"JWT","__proto__":{"x":1}}')}.${segment(validPayload())}.c2ln`],
  ['a payload that is not JSON', `${segment({ alg: 'ES256', kid: 'k', typ: 'JWT' })}.${segment('not json')}.c2ln`],
  ['non-base64url characters', 'a+b/c.d=e.f*g'],
  ['a NUL byte and emoji', 'x\u0000y😀'],
  ['the name constructor', 'constructor'],
  ['a 60 000-character string', 'A'.repeat(60_000)],
];

describe('malformed input never causes a 500 (DECISIONS.md "Errors": no input can cause one)', () => {
  async function validForm(endpoint: 'par' | 'token'): Promise<Record<string, string>> {
    const { codeChallenge, codeVerifier } = await createPkce();
    const auth = await clientAuthentication(client);
    return endpoint === 'par'
      ? { ...auth, request: await signAsClient(client, requestObjectClaims(client, { codeChallenge })) }
      : { ...auth, grant_type: 'authorization_code', code: 'c'.repeat(43), code_verifier: codeVerifier, redirect_uri: client.redirectUri };
  }

  describe.each(['par', 'token'] as const)('POST /%s', (endpoint) => {
    const parameters =
      endpoint === 'par'
        ? ['client_id', 'client_assertion_type', 'client_assertion', 'request']
        : ['client_id', 'client_assertion_type', 'client_assertion', 'grant_type', 'code', 'code_verifier', 'redirect_uri'];

    it.each(parameters)('answers every garbage value of %s with a 4xx RFC 6749 error', async (parameter) => {
      for (const [, value] of GARBAGE) {
        const form = { ...(await validForm(endpoint)), [parameter]: value };
        await expectOAuthError(await emulator.handle(formPost(`${TEST_BASE_URL}/${endpoint}`, form)));
      }
    });

    it.each([
      ['no Content-Type', undefined],
      ['text/plain', 'text/plain'],
      ['application/json', 'application/json'],
      ['multipart/form-data', 'multipart/form-data; boundary=x'],
      ['a latin1 charset', 'application/x-www-form-urlencoded; charset=latin1'],
    ])('refuses a body with %s (400 invalid_request)', async (_name, contentType) => {
      const response = await emulator.handle(
        new Request(`${TEST_BASE_URL}/${endpoint}`, {
          method: 'POST',
          headers: contentType ? { 'Content-Type': contentType } : {},
          body: new URLSearchParams(await validForm(endpoint)).toString(),
        }),
      );
      const body = await expectOAuthError(response, 400);
      expect(body.error).toBe('invalid_request');
    });

    it('accepts an explicit UTF-8 charset on the form', async () => {
      const response = await emulator.handle(
        new Request(`${TEST_BASE_URL}/${endpoint}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8' },
          body: new URLSearchParams(await validForm(endpoint)).toString(),
        }),
      );
      expect(response.status).toBe(endpoint === 'par' ? 201 : 400);
      // The token form's code is unknown to this emulator: the form itself was read, so the
      // refusal is about the grant, not about the charset.
      if (endpoint !== 'par') expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
    });

    it('refuses a body over 64 KiB with 413 invalid_request, with or without Content-Length', async () => {
      const huge = `client_id=${'x'.repeat(70 * 1024)}`;
      const declared = await emulator.handle(
        new Request(`${TEST_BASE_URL}/${endpoint}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: huge,
        }),
      );
      expect((await expectOAuthError(declared, 413)).error).toBe('invalid_request');

      const chunk = new TextEncoder().encode('x'.repeat(8 * 1024));
      let sent = 0;
      const streamed = await emulator.handle(
        new Request(`${TEST_BASE_URL}/${endpoint}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new ReadableStream({
            pull(controller) {
              sent += 1;
              if (sent > 100) controller.close();
              else controller.enqueue(chunk);
            },
          }),
          duplex: 'half',
        } as RequestInit),
      );
      expect((await expectOAuthError(streamed, 413)).error).toBe('invalid_request');
      expect(sent).toBeLessThan(20);
    });

    it('refuses a body that is not UTF-8', async () => {
      const response = await emulator.handle(
        new Request(`${TEST_BASE_URL}/${endpoint}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new Uint8Array([0x63, 0x3d, 0xff, 0xfe]),
        }),
      );
      expect((await expectOAuthError(response, 400)).error_description).toMatch(/not valid UTF-8/);
    });
  });
});

describe('routing', () => {
  it.each([
    ['an unknown endpoint', `${TEST_BASE_URL}/userinfo`],
    ['a path below the QA panel (the base path itself is the panel)', `${TEST_BASE_URL}/panel/x`],
    ['a trailing slash', `${TEST_BASE_URL}/par/`],
    ['a path outside the base path', 'http://localhost:3000/par'],
    ['a path that only starts like the base path', 'http://localhost:3000/emulatorx/par'],
    ['an Object.prototype member name', `${TEST_BASE_URL}/__proto__`],
    ['another Object.prototype member name', `${TEST_BASE_URL}/constructor`],
  ])('answers 404 not_found for %s', async (_name, url) => {
    const response = await emulator.handle(new Request(url));
    expect((await expectOAuthError(response, 404)).error).toBe('not_found');
  });

  it.each([
    ['GET', '/par', 'POST'],
    ['GET', '/token', 'POST'],
    ['POST', '/jwks', 'GET, HEAD'],
    ['DELETE', '/.well-known/openid-configuration', 'GET, HEAD'],
    ['PUT', '/auth', 'GET, POST, HEAD'],
    ['OPTIONS', '/token', 'POST'],
    ['CONSTRUCTOR', '/token', 'POST'],
  ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
    const response = await emulator.handle(new Request(`${TEST_BASE_URL}${path}`, { method }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    await expectOAuthError(response, 405);
  });

  it('answers HEAD on a GET endpoint with the headers and no body', async () => {
    const response = await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`, { method: 'HEAD' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await response.text()).toBe('');
  });
});

describe('QA settings while the state store is out: the options hold', () => {
  /** A store whose reads of the settings fail, as a Redis that stops answering would; the rest works. */
  function storeWithSettingsOut(): MemoryStore {
    const store = new MemoryStore();
    const get = store.get.bind(store);
    store.get = <T>(key: string) =>
      /^(strict|redirect-iss|id-token-encryption:)/.test(key) ? Promise.reject(new StoreError('store_unavailable', 'Redis did not answer', 5)) : get<T>(key);
    return store;
  }

  it('take the strict level from the strict option: a request the strict level refuses is refused', async () => {
    const store = storeWithSettingsOut();
    const strict = createTestEmulator({ clients: [client], store, strict: true });
    expect(await strict.control.strict()).toBe(true);
    const { codeChallenge } = await createPkce();
    const response = await strict.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(client)),
        request: await signAsClient(client, requestObjectClaims(client, { codeChallenge })),
        prompt: 'login',
      }),
    );
    expect((await expectOAuthError(response, 400)).error_description).toMatch(/unexpected parameter\(s\) 'prompt'/);
  });

  it('take iss on the redirect from the redirectIss option, and the encryption variant from the registration', async () => {
    const store = storeWithSettingsOut();
    const running = createTestEmulator({ clients: [client], store, redirectIss: false });
    expect(await running.control.redirectIss()).toBe(false);
    expect(await running.control.idTokenEncryption(client.clientId)).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
    expect(await (await running.handle(new Request(`${TEST_BASE_URL}/.well-known/openid-configuration`))).json()).not.toHaveProperty(
      'authorization_response_iss_parameter_supported',
    );
  });
});
