import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  authorize,
  clientAuthentication,
  createPkce,
  createTestClient,
  createTestEmulator,
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
  return createTestEmulator({ clients: [entitled, notEntitled] });
}

/** 2.3: a claims request with population-register evidence. */
const REGISTER_CLAIMS = {
  id_token: {
    verified_claims: {
      verification: {
        trust_framework: { value: 'standard' },
        evidence: [{ type: { value: 'electronic_record' }, record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' } } }],
      },
      claims: { given_name: { essential: true } },
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
        idTokenEncryption: { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
      },
      {
        clientId: 'plain-client',
        name: 'Test client plain-client',
        redirectUris: [notEntitled.redirectUri],
        populationRegister: false,
        signingKeys: [{ kid: notEntitled.signingKey.kid, alg: 'PS256' }],
        encryptionKey: { kid: notEntitled.encryptionKey.kid, alg: 'RSA-OAEP-256' },
        idTokenEncryption: { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
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

describe('ID token encryption per client at run time (spec 2.5)', () => {
  it('starts as registered, changes for one client only, and shows in clients()', async () => {
    const emulator = newEmulator();
    expect(await emulator.control.idTokenEncryption(entitled.clientId)).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
    await emulator.control.setIdTokenEncryption(entitled.clientId, { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
    expect(await emulator.control.idTokenEncryption(entitled.clientId)).toEqual({ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
    const [first, second] = await emulator.control.clients();
    expect(first!.idTokenEncryption).toEqual({ alg: 'RSA-OAEP', enc: 'A128CBC-HS256' });
    expect(second!.idTokenEncryption).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
  });

  it.each([
    ['an unknown client', 'nobody', { alg: 'RSA-OAEP-256', enc: 'A256GCM' }, /client 'nobody' is not registered/],
    ['RSA1_5', 'entitled-client', { alg: 'RSA1_5', enc: 'A256GCM' }, /unsupported ID token encryption/],
    ['dir', 'entitled-client', { alg: 'dir', enc: 'A256GCM' }, /unsupported ID token encryption/],
    ['an enc outside the six', 'entitled-client', { alg: 'RSA-OAEP', enc: 'A128CBC' }, /unsupported ID token encryption/],
    ['no enc', 'entitled-client', { alg: 'RSA-OAEP' }, /unsupported ID token encryption/],
  ])('refuses %s, and changes nothing', async (_name, clientId, encryption, message) => {
    const emulator = newEmulator();
    await expect(emulator.control.setIdTokenEncryption(clientId, encryption as never)).rejects.toThrow(message);
    expect(await emulator.control.idTokenEncryption(entitled.clientId)).toEqual({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
  });

  it('throws for an unknown client when asked', async () => {
    await expect(newEmulator().control.idTokenEncryption('nobody')).rejects.toThrow(/client 'nobody' is not registered/);
  });
});

describe('the strict level and iss on the redirect at run time', () => {
  it('start as the options say (default: not strict, iss on) and switch with setStrict and setRedirectIss', async () => {
    const defaults = newEmulator();
    expect(await defaults.control.strict()).toBe(false);
    expect(await defaults.control.redirectIss()).toBe(true);
    await defaults.control.setStrict(true);
    await defaults.control.setRedirectIss(false);
    expect(await defaults.control.strict()).toBe(true);
    expect(await defaults.control.redirectIss()).toBe(false);

    const configured = createEmulator({ baseUrl: TEST_BASE_URL, clients: [entitled.registered], strict: true, redirectIss: false });
    expect(await configured.control.strict()).toBe(true);
    expect(await configured.control.redirectIss()).toBe(false);
  });

  it('refuse a value that is not a boolean, in the options and in the control API', async () => {
    expect(() => createEmulator({ baseUrl: TEST_BASE_URL, clients: [entitled.registered], strict: 'yes' as never })).toThrow(/strict must be true or false/);
    expect(() => createEmulator({ baseUrl: TEST_BASE_URL, clients: [entitled.registered], redirectIss: 1 as never })).toThrow(
      /redirectIss must be true or false/,
    );
    const emulator = newEmulator();
    await expect(emulator.control.setStrict('true' as never)).rejects.toThrow(/strict must be true or false/);
    await expect(emulator.control.setRedirectIss(null as never)).rejects.toThrow(/redirectIss must be true or false/);
    expect(await emulator.control.strict()).toBe(false);
  });
});

describe('faults armed as a run’s own, and the run lock, through the control API', () => {
  it('armFaultAs arms for a registered client as the run’s, refuses an unknown client, and disarmFault with the owner disarms it', async () => {
    const emulator = newEmulator();
    expect(await emulator.control.armFaultAs('wrong_nonce', entitled.clientId, 'run-1')).toEqual({ armed: true });
    expect(await emulator.control.faultArming('wrong_nonce')).toEqual({ clientId: entitled.clientId, armedBy: 'run-1' });
    expect(await emulator.control.armFaultAs('wrong_nonce', undefined, 'run-2')).toEqual({
      armed: false,
      existing: { clientId: entitled.clientId, armedBy: 'run-1' },
    });
    await expect(emulator.control.armFaultAs('expired', 'nobody', 'run-1')).rejects.toThrow("unknown client 'nobody'");
    await emulator.control.disarmFault('wrong_nonce', 'run-2');
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
    await emulator.control.disarmFault('wrong_nonce', 'run-1');
    expect(await emulator.control.armedFaults()).toEqual([]);
    expect(await emulator.control.faultArming('wrong_nonce')).toBeUndefined();
  });

  it('takeRunLock, runLock and releaseRunLock hold one lock per store', async () => {
    const emulator = newEmulator();
    const taken = await emulator.control.takeRunLock('run-1', 60);
    expect(taken).toEqual({ taken: true, lock: { owner: 'run-1', expiresAt: expect.any(Number) } });
    expect(await emulator.control.takeRunLock('run-2', 60)).toEqual({ taken: false, lock: await emulator.control.runLock() });
    await emulator.control.releaseRunLock('run-2');
    expect((await emulator.control.runLock())?.owner).toBe('run-1');
    await emulator.control.releaseRunLock('run-1');
    expect(await emulator.control.runLock()).toBeUndefined();
  });
});

describe('answerFlowAgain: a new flow answered as another was, for a relying party that asks for the same request again', () => {
  // The state of every flow requestObjectClaims makes.
  const STATE = 'state-0123456789abcdef0123456789ab';

  it('arms the faults for that flow alone, recorded as applied again', async () => {
    const emulator = newEmulator();
    await emulator.control.answerFlowAgain(STATE, entitled.clientId, { faults: ['wrong_state'] });
    expect(await emulator.control.armedFaults()).toEqual([]);
    // Another client's flow under the same state is not spoiled.
    expect((await authorize(emulator, notEntitled)).redirect.searchParams.get('state')).toBe(STATE);
    const { redirect } = await authorize(emulator, entitled);
    expect(redirect.searchParams.get('state')).not.toBe(STATE);
    expect((await emulator.control.flowAnswers(STATE)).faults).toEqual([
      expect.objectContaining({ id: 'wrong_state', chosen: 'again', clientId: entitled.clientId }),
    ]);
    // the panel's recently injected list says so
    expect(await (await emulator.handle(new Request(TEST_BASE_URL))).text()).toContain('applied again: its request was asked for again');
  });

  it('keeps the error for the flow until its interaction opens, which then answers with it whatever the person decides', async () => {
    const emulator = newEmulator();
    const error = { error: 'access_denied', description: 'the face check failed: the face did not match the portrait on the document' };
    await emulator.control.answerFlowAgain(STATE, entitled.clientId, { faults: [], error });
    expect((await authorize(emulator, notEntitled)).redirect.searchParams.has('code')).toBe(true);
    const { redirect } = await authorize(emulator, entitled, { persona: 'ingrid-haugen', outcome: 'approve' });
    expect(Object.fromEntries(redirect.searchParams)).toMatchObject({ error: error.error, error_description: error.description, state: STATE });
    expect((await emulator.control.flowAnswers(STATE)).error).toEqual(error);
    // Taken: the next flow under that state is answered normally.
    expect((await authorize(emulator, entitled)).redirect.searchParams.has('code')).toBe(true);
  });

  it('refuses a PAR fault (armed for the client before the push), an unknown fault or client, and an error the chooser does not offer', async () => {
    const emulator = newEmulator();
    await expect(emulator.control.answerFlowAgain(STATE, entitled.clientId, { faults: ['par_server_error'] })).rejects.toThrow(/arm it for the client/);
    await expect(emulator.control.answerFlowAgain(STATE, entitled.clientId, { faults: ['no_such_fault' as never] })).rejects.toThrow(/unknown fault/);
    await expect(emulator.control.answerFlowAgain(STATE, 'nobody', { faults: ['wrong_nonce'] })).rejects.toThrow(/unknown client/);
    await expect(
      emulator.control.answerFlowAgain(STATE, entitled.clientId, { faults: [], error: { error: 'access_denied', description: 'made up' } }),
    ).rejects.toThrow(/not one the flow chooser offers/);
    expect((await authorize(emulator, entitled)).redirect.searchParams.has('code')).toBe(true);
  });
});
