import { CompactSign, base64url, decodeJwt, generateKeyPair } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  clientAssertionClaims,
  createPkce,
  createTestClient,
  createTestEmulator,
  formPost,
  requestObjectClaims,
  signAsClient,
  unsignedJwt,
  type TestClient,
} from '@/test/support/emulator';
import type { Emulator } from '..';
import { CLIENT_ASSERTION_TYPE } from '../config';

let client: TestClient;
/** The same client id and kid as `client`, with different keys: its signatures must not verify. */
let impostor: TestClient;
/** `client`'s registration plus an EdDSA key, to test alg/key mismatches. */
let twoKeyClient: TestClient;
let eddsa: TestClient;

beforeAll(async () => {
  client = await createTestClient();
  impostor = await createTestClient();
  eddsa = await createTestClient({ clientId: 'two-keys', alg: 'EdDSA' });
  const es256 = await createTestClient({ clientId: 'two-keys' });
  twoKeyClient = {
    ...es256,
    registered: {
      ...es256.registered,
      jwks: { keys: [...es256.registered.jwks.keys, eddsa.registered.jwks.keys[0]!] },
    },
  };
});

function newEmulator(now?: () => number): Emulator {
  return createTestEmulator({ clients: [client, twoKeyClient], now });
}

/** The rest of a valid PAR or token request, around a given client authentication. */
async function endpointRequest(endpoint: 'par' | 'token', auth: Record<string, string>, as: TestClient = client) {
  const rest: Record<string, string> =
    endpoint === 'par'
      ? { request: await signAsClient(as, requestObjectClaims(as, { codeChallenge: (await createPkce()).codeChallenge })) }
      : {
          grant_type: 'authorization_code',
          code: 'no-such-code',
          code_verifier: (await createPkce()).codeVerifier,
          redirect_uri: as.redirectUri,
        };
  return formPost(`${TEST_BASE_URL}/${endpoint}`, { ...auth, ...rest });
}

function authWith(assertion: string, overrides: Record<string, string> = {}) {
  return { client_id: client.clientId, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion, ...overrides };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Past client authentication, PAR succeeds and the token endpoint fails on the (unknown) code. */
async function expectAuthenticated(response: Response, endpoint: 'par' | 'token') {
  if (endpoint === 'par') {
    expect(response.status).toBe(201);
  } else {
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_grant');
  }
}

interface Case {
  name: string;
  auth: () => Promise<Record<string, string>>;
  description: RegExp;
}

const invalidAssertions: Case[] = [
  {
    name: 'an unregistered client_id',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client)), { client_id: 'nobody' }),
    description: /client_id 'nobody' is not registered/,
  },
  {
    name: 'a client_assertion_type other than jwt-bearer',
    auth: async () =>
      authWith(await signAsClient(client, clientAssertionClaims(client)), {
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
      }),
    description: /client_assertion_type must be/,
  },
  {
    name: 'a garbage assertion',
    auth: async () => authWith('not a jwt'),
    description: /not a compact JWS/,
  },
  {
    name: 'an encrypted assertion (five parts)',
    auth: async () => authWith('a.b.c.d.e'),
    description: /must be a signed JWT/,
  },
  {
    name: 'alg none',
    auth: async () => authWith(unsignedJwt({ alg: 'none', typ: 'JWT' }, clientAssertionClaims(client))),
    description: /alg 'none' is not allowed/,
  },
  {
    name: 'alg RS256, signed with an RSA key',
    auth: async () => {
      const { privateKey } = await generateKeyPair('RS256');
      const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(clientAssertionClaims(client))))
        .setProtectedHeader({ alg: 'RS256', kid: client.signingKey.kid, typ: 'JWT' })
        .sign(privateKey);
      return authWith(jws);
    },
    description: /alg 'RS256' is not supported; use one of ES256, PS256, EdDSA/,
  },
  {
    name: 'alg HS256, MACed with a shared secret',
    auth: async () => {
      const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(clientAssertionClaims(client))))
        .setProtectedHeader({ alg: 'HS256', kid: client.signingKey.kid, typ: 'JWT' })
        .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
      return authWith(jws);
    },
    description: /alg 'HS256' is not supported/,
  },
  {
    name: 'a header without typ',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client), { typ: undefined })),
    description: /header must have exactly alg, kid and typ: missing 'typ'/,
  },
  {
    name: 'typ other than JWT',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client), { typ: 'client-authentication+jwt' })),
    description: /typ must be 'JWT'/,
  },
  {
    name: 'a fourth header member (jku)',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client), { jku: 'https://attacker.example/jwks' })),
    description: /header must have exactly alg, kid and typ: unexpected 'jku'/,
  },
  {
    name: 'a header without kid',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client), { kid: undefined })),
    description: /missing 'kid'/,
  },
  {
    name: 'an unregistered kid',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client), { kid: 'other-key' })),
    description: /kid 'other-key' is not a registered signing key/,
  },
  {
    name: "the kid of the client's encryption key",
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client), { kid: client.encryptionKey.kid })),
    description: /is not a registered signing key/,
  },
  {
    name: 'a signature by a key other than the registered one',
    auth: async () => authWith(await signAsClient(impostor, clientAssertionClaims(client))),
    description: /signature is invalid/,
  },
  {
    name: 'a fifth payload claim (jti)',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { jti: 'abc' } }))),
    description: /exactly the claims iss, sub, aud and exp: unexpected 'jti'/,
  },
  {
    name: 'a payload without exp',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { exp: undefined } }))),
    description: /missing 'exp'/,
  },
  {
    name: 'iss other than the client_id',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { iss: 'someone-else' } }))),
    description: /iss must be the client_id 'demo-client'/,
  },
  {
    name: 'sub other than the client_id',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { sub: 'someone-else' } }))),
    description: /sub must be the client_id/,
  },
  {
    name: 'aud as an array holding the issuer',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { aud: [TEST_BASE_URL] } }))),
    description: /aud must be a single string/,
  },
  {
    name: 'aud = the token endpoint URL',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { audience: `${TEST_BASE_URL}/token` }))),
    description: /aud must be the issuer 'http:\/\/localhost:3000\/emulator', not an endpoint URL/,
  },
  {
    name: 'aud = the PAR endpoint URL',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { audience: `${TEST_BASE_URL}/par` }))),
    description: /not an endpoint URL/,
  },
  {
    name: 'aud = the issuer with a trailing slash',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { audience: `${TEST_BASE_URL}/` }))),
    description: /aud must be the issuer/,
  },
  {
    name: 'exp as a string',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { exp: String(nowSeconds() + 60) } }))),
    description: /exp must be a number/,
  },
  {
    name: 'an expired assertion (beyond the 30 s clock skew)',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { exp: nowSeconds() - 31 } }))),
    description: /has expired/,
  },
  {
    name: 'exp more than 300 s (+ skew) ahead',
    auth: async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { exp: nowSeconds() + 3600 } }))),
    description: /at most 300 seconds/,
  },
  {
    name: "an ES256 header on the client's EdDSA key",
    auth: async () => ({
      client_id: 'two-keys',
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: await signAsClient(twoKeyClient, clientAssertionClaims(twoKeyClient), { kid: eddsa.signingKey.kid }),
    }),
    description: /alg 'ES256' does not match the alg 'EdDSA' registered for kid/,
  },
];

describe('client authentication (spec 2.1, part 5), at PAR and at the token endpoint', () => {
  describe.each(['par', 'token'] as const)('POST /%s', (endpoint) => {
    it.each(invalidAssertions)('refuses $name with 401 invalid_client', async ({ auth, description }) => {
      const response = await newEmulator().handle(await endpointRequest(endpoint, await auth()));
      expect(response.status).toBe(401);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = await response.json();
      expect(body.error).toBe('invalid_client');
      expect(body.error_description).toMatch(description);
    });

    it.each([['client_id'], ['client_assertion_type'], ['client_assertion']])('refuses a request without %s with 400 invalid_request', async (parameter) => {
      const auth: Record<string, string> = authWith(await signAsClient(client, clientAssertionClaims(client)));
      delete auth[parameter];
      const response = await newEmulator().handle(await endpointRequest(endpoint, auth));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringContaining(parameter) });
    });

    it('at the strict level, refuses an exp that is not a whole number of seconds (spec 2.1: Unix timestamp); the default level accepts it', async () => {
      const exp = nowSeconds() + 60.5;
      const fractional = async () => authWith(await signAsClient(client, clientAssertionClaims(client, { claims: { exp } })));
      const strict = createTestEmulator({ clients: [client], strict: true });
      const response = await strict.handle(await endpointRequest(endpoint, await fractional()));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({
        error: 'invalid_client',
        error_description: `client_assertion exp must be a whole number of seconds (spec 2.1: Unix timestamp), not ${exp} (strict level)`,
      });
      await expectAuthenticated(await newEmulator().handle(await endpointRequest(endpoint, await fractional())), endpoint);
    });

    it('accepts an assertion expiring exactly 300 s ahead, and refuses the same assertion a second time', async () => {
      const emulator = newEmulator();
      const assertion = await signAsClient(client, clientAssertionClaims(client, { claims: { exp: nowSeconds() + 300 } }));
      await expectAuthenticated(await emulator.handle(await endpointRequest(endpoint, authWith(assertion))), endpoint);
      const second = await emulator.handle(await endpointRequest(endpoint, authWith(assertion)));
      expect(second.status).toBe(401);
      expect(await second.json()).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/already been used/) });
    });

    it('accepts an assertion that expired within the 30 s clock skew', async () => {
      const assertion = await signAsClient(client, clientAssertionClaims(client, { claims: { exp: nowSeconds() - 10 } }));
      await expectAuthenticated(await newEmulator().handle(await endpointRequest(endpoint, authWith(assertion))), endpoint);
    });
  });

  it('refuses an assertion used at PAR when it is presented again at the token endpoint', async () => {
    const emulator = newEmulator();
    const assertion = await signAsClient(client, clientAssertionClaims(client));
    expect((await emulator.handle(await endpointRequest('par', authWith(assertion)))).status).toBe(201);
    const response = await emulator.handle(await endpointRequest('token', authWith(assertion)));
    expect(response.status).toBe(401);
  });

  it('refuses a replayed ES256 assertion whose signature was re-encoded as (r, n - s)', async () => {
    const emulator = newEmulator();
    const assertion = await signAsClient(client, clientAssertionClaims(client));
    const [header, payload, signature] = assertion.split('.') as [string, string, string];
    const bytes = base64url.decode(signature);
    const n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
    const s = BigInt(`0x${Buffer.from(bytes.subarray(32)).toString('hex')}`);
    bytes.set(Buffer.from((n - s).toString(16).padStart(64, '0'), 'hex'), 32);
    const malleated = `${header}.${payload}.${base64url.encode(bytes)}`;
    expect(malleated).not.toBe(assertion);

    expect((await emulator.handle(await endpointRequest('par', authWith(assertion)))).status).toBe(201);
    const replay = await emulator.handle(await endpointRequest('par', authWith(malleated)));
    expect(replay.status).toBe(401);
    expect((await replay.json()).error_description).toMatch(/already been used/);
  });

  it('forgets a used assertion only once it has expired, clock skew included', async () => {
    let clock = Date.now();
    const emulator = newEmulator(() => clock);
    const assertion = await signAsClient(client, clientAssertionClaims(client, { now: clock }));
    const { exp } = decodeJwt(assertion) as { exp: number };
    expect((await emulator.handle(await endpointRequest('par', authWith(assertion)))).status).toBe(201);
    clock += 20_000;
    expect((await emulator.handle(await endpointRequest('par', authWith(assertion)))).status).toBe(401);
    // The last second the assertion is still accepted (exp plus the 30 s of skew): still remembered.
    clock = (exp + 29) * 1000;
    const lastSecond = await emulator.handle(await endpointRequest('par', authWith(assertion)));
    expect(lastSecond.status).toBe(401);
    expect((await lastSecond.json()).error_description).toMatch(/already been used/);
    clock += 120_000;
    const late = await emulator.handle(await endpointRequest('par', authWith(assertion)));
    expect(late.status).toBe(401);
    expect((await late.json()).error_description).toMatch(/has expired/);
  });
});
