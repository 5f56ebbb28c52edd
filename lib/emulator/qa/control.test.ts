import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  clientAuthentication,
  createPkce,
  createTestClient,
  formPost,
  requestObjectClaims,
  signAsClient,
  type TestClient,
} from '@/test/support/emulator';
import { createEmulator, type Emulator } from '..';

let entitled: TestClient;
let notEntitled: TestClient;

beforeAll(async () => {
  entitled = await createTestClient({ clientId: 'entitled-client', populationRegister: true });
  notEntitled = await createTestClient({ clientId: 'plain-client', alg: 'PS256' });
});

function newEmulator(): Emulator {
  return createEmulator({ baseUrl: TEST_BASE_URL, clients: [entitled.registered, notEntitled.registered] });
}

/** 2.3: a claims request with population-register evidence. */
const REGISTER_CLAIMS = {
  id_token: {
    verified_claims: {
      verification: {
        trust_framework: { value: 'standard' },
        evidence: [
          { type: { value: 'electronic_record' }, record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' } } },
        ],
      },
      claims: { given_name: null },
    },
  },
};

/** POST /par with population-register evidence; returns status and body. */
async function pushRegisterRequest(emulator: Emulator, client: TestClient) {
  const { codeChallenge } = await createPkce();
  const response = await emulator.handle(
    formPost(`${TEST_BASE_URL}/par`, {
      ...(await clientAuthentication(client)),
      request: await signAsClient(client, requestObjectClaims(client, { codeChallenge, claims: { claims: REGISTER_CLAIMS } })),
    }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('population-register entitlement at run time (spec 2.3 "enabled per client")', () => {
  it('takes electronic_record requests of a client from 201 to 403 unauthorized_client and back', async () => {
    const emulator = newEmulator();
    expect((await pushRegisterRequest(emulator, entitled)).status).toBe(201);

    await emulator.control.setPopulationRegister(entitled.clientId, false);
    const refused = await pushRegisterRequest(emulator, entitled);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('unauthorized_client');

    await emulator.control.setPopulationRegister(entitled.clientId, true);
    expect((await pushRegisterRequest(emulator, entitled)).status).toBe(201);
  });

  it('grants it to a client registered without it', async () => {
    const emulator = newEmulator();
    expect((await pushRegisterRequest(emulator, notEntitled)).body.error).toBe('unauthorized_client');
    await emulator.control.setPopulationRegister(notEntitled.clientId, true);
    expect((await pushRegisterRequest(emulator, notEntitled)).status).toBe(201);
  });

  it('changes this emulator’s store only, and leaves the registration object as it was', async () => {
    const changed = newEmulator();
    const untouched = newEmulator();
    await changed.control.setPopulationRegister(entitled.clientId, false);

    expect(entitled.registered.populationRegister).toBe(true);
    expect((await pushRegisterRequest(untouched, entitled)).status).toBe(201);
    expect((await untouched.control.clients()).find((client) => client.clientId === entitled.clientId)?.populationRegister).toBe(true);
    expect((await changed.control.clients()).find((client) => client.clientId === entitled.clientId)?.populationRegister).toBe(false);
  });

  it('refuses a client that is not registered', async () => {
    await expect(newEmulator().control.setPopulationRegister('nobody', true)).rejects.toThrow(/client 'nobody' is not registered/);
  });
});

describe('emulator.control.clients()', () => {
  it('lists each client with its redirect URIs, key ids and algorithms, and entitlement', async () => {
    expect(await newEmulator().control.clients()).toEqual([
      {
        clientId: 'entitled-client',
        name: 'Test client entitled-client',
        redirectUris: [entitled.redirectUri],
        populationRegister: true,
        signingKeys: [{ kid: entitled.signingKey.kid, alg: 'ES256' }],
        encryptionKey: { kid: entitled.encryptionKey.kid, alg: 'RSA-OAEP-256' },
      },
      {
        clientId: 'plain-client',
        name: 'Test client plain-client',
        redirectUris: [notEntitled.redirectUri],
        populationRegister: false,
        signingKeys: [{ kid: notEntitled.signingKey.kid, alg: 'PS256' }],
        encryptionKey: { kid: notEntitled.encryptionKey.kid, alg: 'RSA-OAEP-256' },
      },
    ]);
  });

  it('hands out copies: changing them changes nothing in the emulator', async () => {
    const emulator = newEmulator();
    const [first] = await emulator.control.clients();
    (first!.redirectUris as string[]).push('https://evil.example/callback');
    expect((await emulator.control.clients())[0]!.redirectUris).toEqual([entitled.redirectUri]);
    expect(entitled.registered.redirectUris).toEqual([entitled.redirectUri]);
  });
});
