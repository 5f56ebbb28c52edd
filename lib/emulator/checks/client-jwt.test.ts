/**
 * The checks of a client-signed JWT (checks/client-jwt.ts) that the endpoint tests do not reach on
 * their own: whose key signed it, its `typ`, and its `alg` against the registered key's. Each is
 * proven on a request object pushed to PAR with a valid client assertion, so only the request
 * object is wrong.
 */
import { CompactSign, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
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
import type { Emulator } from '..';

let client: TestClient;
let other: TestClient;
let codeChallenge: string;

beforeAll(async () => {
  client = await createTestClient();
  other = await createTestClient({ clientId: 'other-client' });
  codeChallenge = (await createPkce()).codeChallenge;
});

const newEmulator = (): Emulator => createTestEmulator({ clients: [client, other] });

/** POST /par as `client` (a valid assertion of its own) with `request` as the request object. */
async function pushAsClient(emulator: Emulator, request: string): Promise<{ status: number; error: string; description: string }> {
  const response = await emulator.handle(formPost(`${TEST_BASE_URL}/par`, { ...(await clientAuthentication(client)), request }));
  const body = (await response.json()) as { error?: string; error_description?: string };
  return { status: response.status, error: body.error ?? '', description: body.error_description ?? '' };
}

/** Signs `payload` with a private key of one's choosing under a header of one's choosing. */
function signWith(privateKey: CryptoKey, header: { alg: string; kid: string; typ?: string }, payload: Record<string, unknown>): Promise<string> {
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload))).setProtectedHeader(header).sign(privateKey);
}

describe('verifyClientJwt: whose key signed the request object (spec 5.5)', () => {
  it('refuses a request object signed by another registered client’s key under that client’s kid', async () => {
    const request = await signAsClient(other, requestObjectClaims(client, { codeChallenge }));
    const refused = await pushAsClient(newEmulator(), request);
    expect(refused).toEqual({
      status: 400,
      error: 'invalid_request',
      description: `request object: request header kid '${other.signingKey.kid}' is not a registered signing key of client '${client.clientId}'`,
    });
  });

  it('refuses a request object signed by another registered client’s key under this client’s kid', async () => {
    const request = await signWith(
      other.signingKey.privateKey,
      { alg: 'ES256', kid: client.signingKey.kid, typ: 'JWT' },
      requestObjectClaims(client, { codeChallenge }),
    );
    const refused = await pushAsClient(newEmulator(), request);
    expect(refused.status).toBe(400);
    expect(refused.description).toBe(`request object: request signature is invalid for kid '${client.signingKey.kid}'`);
  });

  it('accepts the same request object signed with the client’s own key (the control case)', async () => {
    const request = await signAsClient(client, requestObjectClaims(client, { codeChallenge }));
    expect((await pushAsClient(newEmulator(), request)).status).toBe(201);
  });
});

describe('verifyClientJwt: the header (spec 2.1, 2.2)', () => {
  it.each(['oauth-authz-req+jwt', 'jwt', 'JWS', ''])('refuses typ %j: spec 2.2 says typ = JWT', async (typ) => {
    const request = await signAsClient(client, requestObjectClaims(client, { codeChallenge }), { typ });
    const refused = await pushAsClient(newEmulator(), request);
    expect(refused.status).toBe(400);
    expect(refused.description).toBe(`request object: request header typ must be 'JWT', not '${typ}'`);
  });

  it('refuses an alg other than the one registered for the kid, even with a valid signature of that alg', async () => {
    // The client registered an ES256 key under its kid; it signs PS256 with an RSA key it holds,
    // under the same kid. Only the comparison with the registered alg says what is wrong.
    const rsa = await generateKeyPair('PS256');
    const request = await signWith(rsa.privateKey, { alg: 'PS256', kid: client.signingKey.kid, typ: 'JWT' }, requestObjectClaims(client, { codeChallenge }));
    const refused = await pushAsClient(newEmulator(), request);
    expect(refused.status).toBe(400);
    expect(refused.description).toBe(`request object: request header alg 'PS256' does not match the alg 'ES256' registered for kid '${client.signingKey.kid}'`);
  });

  it.each([
    ['no kid', { kid: undefined }],
    ['an empty kid', { kid: '' }],
    ['a kid that is a number', { kid: 42 }],
  ])('refuses a header with %s, saying so', async (_name, header: Record<string, unknown>) => {
    // (exactly alg, kid and typ: an absent kid is named by the members' check first)
    const request = await signAsClient(client, requestObjectClaims(client, { codeChallenge }), header);
    const refused = await pushAsClient(newEmulator(), request);
    expect(refused.status).toBe(400);
    expect(refused.description).toMatch(
      'kid' in header && header.kid !== undefined
        ? /request header kid must be a non-empty string$/
        : /header must have exactly alg, kid and typ: missing 'kid'/,
    );
  });
});

describe('verifyClientJwt: the compact serialisation (RFC 7515 §7.1)', () => {
  it.each([
    ['base64 padding', (part: string) => `${part}=`],
    ['a standard-alphabet character', (part: string) => `${part.slice(0, -1)}+`],
    ['a space', (part: string) => ` ${part}`],
  ])('refuses a part with %s, which base64url does not have', async (_name, spoil) => {
    const [header, payload, signature] = (await signAsClient(client, requestObjectClaims(client, { codeChallenge }))).split('.') as [string, string, string];
    for (const request of [`${spoil(header)}.${payload}.${signature}`, `${header}.${payload}.${spoil(signature)}`]) {
      const refused = await pushAsClient(newEmulator(), request);
      expect(refused.status).toBe(400);
      expect(refused.description).toBe('request object: request is not a compact JWS (three base64url parts separated by dots)');
    }
  });
});

describe('verifyClientJwt: a header that is not a JSON object of UTF-8 text (RFC 7515 §4)', () => {
  const part = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
  it.each([
    ['JSON null', part('null')],
    ['a JSON number', part('5')],
    ['a JSON array', part('["ES256"]')],
    ['bytes that are not UTF-8', part(Buffer.concat([Buffer.from('{"alg":"ES256","typ":"JWT","kid":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]))],
  ])('refuses %s as the header with 400 invalid_request, naming the header', async (_name, header) => {
    const [, payload, signature] = (await signAsClient(client, requestObjectClaims(client, { codeChallenge }))).split('.') as [string, string, string];
    const refused = await pushAsClient(newEmulator(), `${header}.${payload}.${signature}`);
    expect(refused).toMatchObject({ status: 400, error: 'invalid_request' });
    expect(refused.description).toMatch(/header/);
  });
});
