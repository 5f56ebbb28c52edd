/**
 * Two emulator instances on one Redis, as behind a round-robin balancer: each step of a flow may
 * land on either, and one-time items (request_uri, client assertions, codes, the interaction)
 * are consumed once across both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import {
  TEST_BASE_URL,
  authorizationPageFields,
  clientAuthentication,
  createPkce,
  createTestClient,
  formPost,
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';
import { emulatorsOnRedis, type EmulatorsOnRedis } from '@/test/support/emulators-on-redis';

let instances: EmulatorsOnRedis;
let client: TestClient;
let a: Emulator;
let b: Emulator;

beforeAll(async () => {
  client = await createTestClient();
  instances = await emulatorsOnRedis(client);
  ({ a, b } = instances);
});

afterAll(() => instances.close());

async function push(on: Emulator): Promise<{ requestUri: string; codeVerifier: string }> {
  const { codeVerifier, codeChallenge } = await createPkce();
  const response = await on.handle(
    formPost(`${TEST_BASE_URL}/par`, {
      ...(await clientAuthentication(client)),
      request: await signAsClient(client, requestObjectClaims(client, { codeChallenge })),
    }),
  );
  expect(response.status).toBe(201);
  return { requestUri: (await response.json()).request_uri, codeVerifier };
}

const authorizationUrl = (requestUri: string) => `${TEST_BASE_URL}/auth?${new URLSearchParams({ client_id: client.clientId, request_uri: requestUri })}`;

describe('two emulator instances sharing one store', () => {
  it('complete a flow whose steps alternate between them', async () => {
    const { requestUri, codeVerifier } = await push(a);
    const page = await b.handle(new Request(authorizationUrl(requestUri)));
    expect(page.status).toBe(200);
    const { interaction, browser } = authorizationPageFields(await page.text());
    const decision = await a.handle(
      formPost(`${TEST_BASE_URL}/auth`, { interaction: interaction!, browser: browser!, persona: 'ingrid-haugen', outcome: 'approve' }),
    );
    expect(decision.status).toBe(303);
    const code = new URL(decision.headers.get('location')!).searchParams.get('code')!;
    const token = await b.handle(
      formPost(`${TEST_BASE_URL}/token`, {
        ...(await clientAuthentication(client)),
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier,
        redirect_uri: client.redirectUri,
      }),
    );
    expect(token.status).toBe(200);
    expect((await token.json()).id_token.split('.')).toHaveLength(5);
  });

  it('let a request_uri be used once, whichever instance sees it first', async () => {
    const { requestUri } = await push(a);
    const [one, two] = await Promise.all([a.handle(new Request(authorizationUrl(requestUri))), b.handle(new Request(authorizationUrl(requestUri)))]);
    expect([one.status, two.status].sort()).toEqual([200, 400]);
    const again = await a.handle(new Request(authorizationUrl(requestUri)));
    expect(await again.text()).toContain('request_uri has already been used');
  });

  it('refuse a client assertion replayed at the other instance', async () => {
    const authentication = await clientAuthentication(client);
    const { codeChallenge } = await createPkce();
    const request = await signAsClient(client, requestObjectClaims(client, { codeChallenge }));
    expect((await a.handle(formPost(`${TEST_BASE_URL}/par`, { ...authentication, request }))).status).toBe(201);
    const replay = await b.handle(formPost(`${TEST_BASE_URL}/par`, { ...authentication, request }));
    expect(replay.status).toBe(401);
    expect((await replay.json()).error_description).toContain('has already been used');
  });

  it('redeem a code once, whichever instance sees it first', async () => {
    const { requestUri, codeVerifier } = await push(b);
    const page = await a.handle(new Request(authorizationUrl(requestUri)));
    const { interaction, browser } = authorizationPageFields(await page.text());
    const decision = await b.handle(
      formPost(`${TEST_BASE_URL}/auth`, { interaction: interaction!, browser: browser!, persona: 'ingrid-haugen', outcome: 'approve' }),
    );
    const code = new URL(decision.headers.get('location')!).searchParams.get('code')!;
    const redeem = async (on: Emulator) =>
      on.handle(
        formPost(`${TEST_BASE_URL}/token`, {
          ...(await clientAuthentication(client)),
          grant_type: 'authorization_code',
          code,
          code_verifier: codeVerifier,
          redirect_uri: client.redirectUri,
        }),
      );
    const statuses = (await Promise.all([redeem(a), redeem(b)])).map((response) => response.status).sort();
    expect(statuses).toEqual([200, 400]);
  });

  it('give a persona the same pairwise subject on both instances', async () => {
    const subjectOn = async (first: Emulator, second: Emulator) => {
      const { requestUri, codeVerifier } = await push(first);
      const page = await second.handle(new Request(authorizationUrl(requestUri)));
      const { interaction, browser } = authorizationPageFields(await page.text());
      const decision = await second.handle(
        formPost(`${TEST_BASE_URL}/auth`, { interaction: interaction!, browser: browser!, persona: 'ingrid-haugen', outcome: 'approve' }),
      );
      const code = new URL(decision.headers.get('location')!).searchParams.get('code')!;
      const token = await second.handle(
        formPost(`${TEST_BASE_URL}/token`, {
          ...(await clientAuthentication(client)),
          grant_type: 'authorization_code',
          code,
          code_verifier: codeVerifier,
          redirect_uri: client.redirectUri,
        }),
      );
      const { compactDecrypt, decodeJwt } = await import('jose');
      const { plaintext } = await compactDecrypt((await token.json()).id_token, client.encryptionKey.privateKey);
      return decodeJwt(new TextDecoder().decode(plaintext)).sub;
    };
    expect(await subjectOn(a, a)).toBe(await subjectOn(b, b));
  });
});

describe('two emulator instances sharing one store: signing keys', () => {
  const jwks = async (on: Emulator) => (await (await on.handle(new Request(`${TEST_BASE_URL}/jwks`))).json()) as { keys: { kid: string }[] };

  /** The published kids, sorted: the JWKS lists them in a new order each time (spec 4.4). */
  const kids = async (on: Emulator) => (await jwks(on)).keys.map((key) => key.kid).sort();

  it('publish the same JWKS', async () => {
    expect(await kids(a)).toEqual(await kids(b));
  });

  it('see a key rotated on one instance on the other at once, which then signs with it', async () => {
    const ringOnB = await b.control.signingKeys();
    const before = ringOnB.find((key) => key.current)!.kid;
    const next = ringOnB.find((key) => key.next)!.kid;
    const [rotated, , published] = await a.control.rotateSigningKeys();
    // The key published ahead is current now, on both.
    expect(rotated!.kid).toBe(next);
    const onB = await b.control.signingKeys();
    expect(onB.map((key) => [key.kid, key.current, key.next === true])).toEqual([
      [next, true, false],
      [before, false, false],
      [published!.kid, false, true],
    ]);
    expect(await kids(b)).toEqual([next, before, published!.kid].sort());

    // A token minted by B carries the key rotated on A.
    const { requestUri, codeVerifier } = await push(b);
    const page = await b.handle(new Request(authorizationUrl(requestUri)));
    const { interaction, browser } = authorizationPageFields(await page.text());
    const decision = await b.handle(
      formPost(`${TEST_BASE_URL}/auth`, { interaction: interaction!, browser: browser!, persona: 'ingrid-haugen', outcome: 'approve' }),
    );
    const code = new URL(decision.headers.get('location')!).searchParams.get('code')!;
    const token = await b.handle(
      formPost(`${TEST_BASE_URL}/token`, {
        ...(await clientAuthentication(client)),
        grant_type: 'authorization_code',
        code,
        code_verifier: codeVerifier,
        redirect_uri: client.redirectUri,
      }),
    );
    const { compactDecrypt, decodeProtectedHeader } = await import('jose');
    const { plaintext } = await compactDecrypt((await token.json()).id_token, client.encryptionKey.privateKey);
    expect(decodeProtectedHeader(new TextDecoder().decode(plaintext)).kid).toBe(rotated!.kid);
  });

  it('lose no rotation when both rotate at once', async () => {
    const ring = await a.control.signingKeys();
    const current = ring.find((key) => key.current)!.kid;
    const next = ring.find((key) => key.next)!.kid;
    await Promise.all([a.control.rotateSigningKeys(), b.control.rotateSigningKeys()]);
    const after = await a.control.signingKeys();
    // Two rotations, one after the other: the first made `next` current, the second the key the
    // first published ahead; both old keys are retiring, and a new key is published ahead.
    expect(after).toHaveLength(4);
    expect(
      after
        .filter((key) => !key.current && !key.next)
        .map((key) => key.kid)
        .slice(0, 2),
    ).toEqual([next, current]);
    expect([current, next]).not.toContain(after[0]!.kid);
    expect(after[0]!.current).toBe(true);
    expect(after[3]!.next).toBe(true);
  });
});

describe('two emulator instances sharing one store: QA state', () => {
  it('serve a fault armed on one instance from the other, once', async () => {
    await a.control.armFault('par_server_error', client.clientId);
    expect(await b.control.armedFaults()).toContain('par_server_error');
    const { codeChallenge } = await createPkce();
    const pushTo = async (on: Emulator) =>
      on.handle(
        formPost(`${TEST_BASE_URL}/par`, {
          ...(await clientAuthentication(client)),
          request: await signAsClient(client, requestObjectClaims(client, { codeChallenge })),
        }),
      );
    expect((await pushTo(b)).status).toBe(500);
    expect((await pushTo(a)).status).toBe(201);
    expect(await a.control.armedFaults()).toEqual([]);
    expect((await a.control.injectedFaults())[0]).toMatchObject({ id: 'par_server_error', clientId: client.clientId });
  });

  it('apply an entitlement changed on one instance on the other', async () => {
    await b.control.setPopulationRegister(client.clientId, false);
    expect((await a.control.clients())[0]!.populationRegister).toBe(false);
    await a.control.setPopulationRegister(client.clientId, true);
    expect((await b.control.clients())[0]!.populationRegister).toBe(true);
  });

  it('apply the strict level switched on one instance on the other', async () => {
    const { codeChallenge } = await createPkce();
    const pushWithJti = async (on: Emulator) =>
      on.handle(
        formPost(`${TEST_BASE_URL}/par`, {
          ...(await clientAuthentication(client)),
          request: await signAsClient(client, { ...requestObjectClaims(client, { codeChallenge }), jti: 'not-in-2.2' }),
        }),
      );
    try {
      await a.control.setStrict(true);
      expect(await b.control.strict()).toBe(true);
      const refused = await pushWithJti(b);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error_description).toMatch(/'jti' that spec 2.2 does not list/);
    } finally {
      await b.control.setStrict(false);
    }
    expect((await pushWithJti(a)).status).toBe(201);
  });

  it('apply iss on the redirect switched on one instance to the other’s discovery document', async () => {
    const discovery = async (on: Emulator) =>
      (await (await on.handle(new Request(`${TEST_BASE_URL}/.well-known/openid-configuration`))).json()) as Record<string, unknown>;
    try {
      await b.control.setRedirectIss(false);
      expect(await discovery(a)).not.toHaveProperty('authorization_response_iss_parameter_supported');
    } finally {
      await a.control.setRedirectIss(true);
    }
    expect(await discovery(b)).toHaveProperty('authorization_response_iss_parameter_supported', true);
  });

  it('encrypt ID tokens with the variant set on the other instance', async () => {
    try {
      await a.control.setIdTokenEncryption(client.clientId, { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
      expect((await b.control.clients())[0]!.idTokenEncryption).toEqual({ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
      const { requestUri, codeVerifier } = await push(b);
      const page = await b.handle(new Request(authorizationUrl(requestUri)));
      const { interaction, browser } = authorizationPageFields(await page.text());
      const decision = await b.handle(
        formPost(`${TEST_BASE_URL}/auth`, { interaction: interaction!, browser: browser!, persona: 'ingrid-haugen', outcome: 'approve' }),
      );
      const code = new URL(decision.headers.get('location')!).searchParams.get('code')!;
      const token = await b.handle(
        formPost(`${TEST_BASE_URL}/token`, {
          ...(await clientAuthentication(client)),
          grant_type: 'authorization_code',
          code,
          code_verifier: codeVerifier,
          redirect_uri: client.redirectUri,
        }),
      );
      const { decodeProtectedHeader } = await import('jose');
      expect(decodeProtectedHeader((await token.json()).id_token)).toMatchObject({ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
    } finally {
      await b.control.setIdTokenEncryption(client.clientId, { alg: 'RSA-OAEP-256', enc: 'A256GCM' });
    }
  });
});
