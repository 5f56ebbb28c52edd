import { compactDecrypt, decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_BASE_URL,
  authorizationPageFields,
  clientAuthentication,
  createPkce,
  createTestClient,
  createTestEmulator,
  formPost,
  redeemCode,
  requestObjectClaims,
  signAsClient,
  type TestClient,
  type TestEmulatorOptions,
} from '@/test/support/emulator';
import { MemoryStore } from '../../store/memory-store';
import { namespaced } from '../../store/store';
import type { Emulator } from '..';
import { FAULTS } from '../qa/faults';
import { MAX_FLOW_EVENTS, MAX_TRACE_STRING, type FlowEvent as StoredFlowEvent } from '../qa/flow-trace';

/** An event as the QA API answers it: the stored facts, worded. */
type FlowEvent = StoredFlowEvent & { summary: string };

const ORIGIN = new URL(TEST_BASE_URL).origin;
const PASSWORD = 'a panel password of some length';

let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  client = await createTestClient();
  other = await createTestClient({ clientId: 'other-client' });
});

function newEmulator(options: Partial<TestEmulatorOptions> = {}): Emulator {
  return createTestEmulator({ clients: [client, other], ...options });
}

/** A QA API request as a program sends it: JSON, no Origin, no Sec-Fetch-Site. */
function qa(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${TEST_BASE_URL}/qa/${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

async function json(response: Response): Promise<Record<string, unknown>> {
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return (await response.json()) as Record<string, unknown>;
}

/** PAR with a chosen state; returns the request_uri. */
async function par(
  emulator: Emulator,
  state = `state-${crypto.randomUUID()}`,
  who = client,
  now?: number,
): Promise<{ requestUri: string; state: string; codeVerifier: string }> {
  const { codeVerifier, codeChallenge } = await createPkce();
  const response = await emulator.handle(
    formPost(`${TEST_BASE_URL}/par`, {
      ...(await clientAuthentication(who, now)),
      request: await signAsClient(who, requestObjectClaims(who, { now, codeChallenge, claims: { state } })),
    }),
  );
  expect(response.status).toBe(201);
  return { requestUri: ((await response.json()) as { request_uri: string }).request_uri, state, codeVerifier };
}

/** GET /auth with the request_uri, as the browser does; the quick test's fields. */
async function openPage(emulator: Emulator, requestUri: string, who = client): Promise<{ interaction: string; browser: string }> {
  const page = await emulator.handle(new Request(`${TEST_BASE_URL}/auth?${new URLSearchParams({ client_id: who.clientId, request_uri: requestUri })}`));
  expect(page.status).toBe(200);
  const { interaction, browser } = authorizationPageFields(await page.text());
  return { interaction: interaction!, browser: browser! };
}

/** A whole flow with the quick test, then the token request; the token response. */
async function runFlow(emulator: Emulator, options: { before?: (requestUri: string) => Promise<void> } = {}) {
  const { requestUri, state, codeVerifier } = await par(emulator);
  const { interaction, browser } = await openPage(emulator, requestUri);
  await options.before?.(requestUri);
  const decision = await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }));
  const redirect = new URL(decision.headers.get('location')!);
  const token = await redeemCode(emulator, client, { redirect, codeVerifier });
  return { state, requestUri, redirect, token };
}

/** The payload of the signed token inside a decrypted JWE. */
function payloadOf(plaintext: Uint8Array): { aud?: unknown; verified_claims: { claims: Record<string, unknown> } } {
  return decodeJwt(new TextDecoder().decode(plaintext)) as ReturnType<typeof payloadOf>;
}

async function signIn(emulator: Emulator): Promise<string> {
  const response = await emulator.handle(
    new Request(`${TEST_BASE_URL}/panel`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'sign_in', password: PASSWORD }),
    }),
  );
  expect(response.status).toBe(303);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('who may use the QA API: the QA panel’s rule', () => {
  it('a read-only panel: 403 access_denied naming where to sign in, for reads and writes', async () => {
    const emulator = newEmulator({ panel: { mode: 'read-only', reason: 'production' } });
    for (const request of [
      qa('GET', `clients/${client.clientId}`),
      qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId }),
      qa('GET', 'jwks-fetches'),
    ]) {
      const response = await emulator.handle(request);
      expect(response.status).toBe(403);
      const body = await json(response);
      expect(body.error).toBe('access_denied');
      expect(body.error_description).toContain(`sign in to the QA panel at ${TEST_BASE_URL}`);
    }
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('a panel with a password: 403 before signing in, 200 with the cookie of a sign-in; a forged cookie is no sign-in', async () => {
    const emulator = newEmulator({ panel: { mode: 'password', password: PASSWORD } });
    expect((await emulator.handle(qa('GET', `clients/${client.clientId}`))).status).toBe(403);
    expect((await emulator.handle(qa('GET', `clients/${client.clientId}`, undefined, { Cookie: `idv_emulator_panel=${'A'.repeat(43)}` }))).status).toBe(403);
    const refused = await emulator.handle(qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId }));
    expect(refused.status).toBe(403);
    expect(await emulator.control.armedFaults()).toEqual([]);

    const cookie = await signIn(emulator);
    expect((await emulator.handle(qa('GET', `clients/${client.clientId}`, undefined, { Cookie: cookie }))).status).toBe(200);
    expect((await emulator.handle(qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId }, { Cookie: cookie }))).status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
  });

  it('an open panel: anyone', async () => {
    expect((await newEmulator().handle(qa('GET', `clients/${client.clientId}`))).status).toBe(200);
  });
});

describe('QA API writes refuse cross-site requests as the panel’s posts do', () => {
  it.each([
    ['another Origin', { Origin: 'https://evil.example' }],
    ['Origin null', { Origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site same-site', { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-site' }],
  ])('refuses %s with 403 access_denied and changes nothing', async (_name, headers) => {
    const emulator = newEmulator();
    for (const request of [qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId }, headers), qa('POST', 'flows', { request_uri: 'x' }, headers)]) {
      const response = await emulator.handle(request);
      expect(response.status).toBe(403);
      expect((await json(response)).error).toBe('access_denied');
    }
    await emulator.control.armFault('expired', client.clientId);
    expect((await emulator.handle(qa('DELETE', 'faults/expired', undefined, headers))).status).toBe(403);
    expect(await emulator.control.armedFaults()).toEqual(['expired']);
  });

  it('accepts a write from the panel’s own origin, and from a program (no Origin, no Sec-Fetch-Site)', async () => {
    const emulator = newEmulator();
    expect(
      (await emulator.handle(qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId }, { Origin: ORIGIN, 'Sec-Fetch-Site': 'same-origin' }))).status,
    ).toBe(204);
    expect((await emulator.handle(qa('PUT', 'faults/expired', { client_id: client.clientId }))).status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce', 'expired']);
  });

  it('a read from another site is answered (reads change nothing, and a browser keeps the answer from that site)', async () => {
    const response = await newEmulator().handle(
      qa('GET', `clients/${client.clientId}`, undefined, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('QA API bodies: JSON, at most 4 KiB', () => {
  it('refuses another media type with 415, a larger body with 413, and malformed JSON or unknown members with 400', async () => {
    const emulator = newEmulator();
    const form = new Request(`${TEST_BASE_URL}/qa/faults/wrong_nonce`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `client_id=${client.clientId}`,
    });
    const cases: [Request, number][] = [
      [form, 415],
      [qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId, padding: 'x'.repeat(5000) }), 413],
      [qa('PUT', 'faults/wrong_nonce', '{"client_id":'), 400],
      [qa('PUT', 'faults/wrong_nonce', '["demo-client"]'), 400],
      [qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId, scope: 'all' }), 400],
      [qa('PUT', 'faults/wrong_nonce', {}), 400],
      [qa('POST', 'flows', { request_uri: 'x', given_name: 'A'.repeat(65) }), 400],
    ];
    for (const [request, status] of cases) {
      const response = await emulator.handle(request);
      expect(response.status).toBe(status);
      const body = await json(response);
      expect(body.error).toBe('invalid_request');
      expect(typeof body.error_description).toBe('string');
    }
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('an unknown path under /qa/ is 404 not_found, a wrong method 405, both JSON', async () => {
    const emulator = newEmulator();
    const missing = await emulator.handle(qa('GET', 'nothing'));
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toBe('not_found');
    const wrong = await emulator.handle(qa('POST', 'flow', {}));
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  it('counts against its own rate limit (qa), and answers JSON over it', async () => {
    const emulator = newEmulator({ rateLimits: { qa: 2 } });
    expect((await emulator.handle(qa('GET', 'jwks-fetches'))).status).toBe(200);
    expect((await emulator.handle(qa('GET', 'jwks-fetches'))).status).toBe(200);
    const limited = await emulator.handle(qa('GET', 'jwks-fetches'));
    expect(limited.status).toBe(429);
    expect((await json(limited)).error_description).toMatch(/too many QA API requests/);
    // The protocol's endpoints have budgets of their own.
    await par(emulator);
  });
});

describe('GET {base}/qa/clients/{client_id}', () => {
  it('answers the control API’s ClientInfo, or 404 unknown_client', async () => {
    const emulator = newEmulator();
    const response = await emulator.handle(qa('GET', `clients/${client.clientId}`));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual((await emulator.control.clients())[0]);
    const unknown = await emulator.handle(qa('GET', 'clients/nobody%20here'));
    expect(unknown.status).toBe(404);
    expect(await json(unknown)).toEqual({ error: 'unknown_client', error_description: "client_id 'nobody here' is not registered" });
  });
});

describe('PUT and DELETE {base}/qa/faults/{fault_id}', () => {
  it('arms a fault for the client (204), disarms it (204)', async () => {
    const emulator = newEmulator();
    const armed = await emulator.handle(qa('PUT', 'faults/par_server_error', { client_id: other.clientId }));
    expect(armed.status).toBe(204);
    expect(armed.headers.get('cache-control')).toBe('no-store');
    expect(await emulator.control.faultScope('par_server_error')).toBe(other.clientId);
    expect((await emulator.handle(qa('DELETE', 'faults/par_server_error'))).status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('an unknown fault is 404 unknown_fault listing the known ones; an unknown client 400 unknown_client', async () => {
    const emulator = newEmulator();
    for (const request of [qa('PUT', 'faults/__proto__', { client_id: client.clientId }), qa('DELETE', 'faults/no_such_fault')]) {
      const response = await emulator.handle(request);
      expect(response.status).toBe(404);
      const body = await json(response);
      expect(body.error).toBe('unknown_fault');
      for (const fault of FAULTS) expect(body.error_description).toContain(fault.id);
    }
    const unknownClient = await emulator.handle(qa('PUT', 'faults/wrong_nonce', { client_id: 'nobody' }));
    expect(unknownClient.status).toBe(400);
    expect((await json(unknownClient)).error).toBe('unknown_client');
    expect(await emulator.control.armedFaults()).toEqual([]);
  });
});

describe('PUT and DELETE {base}/qa/faults/{fault_id} with armed_by: a run disarms only what it armed', () => {
  const arm = (fault: string, clientId: string, armedBy?: string) =>
    qa('PUT', `faults/${fault}`, { client_id: clientId, ...(armedBy === undefined ? {} : { armed_by: armedBy }) });
  const disarm = (fault: string, armedBy: string) => qa('DELETE', `faults/${fault}?${new URLSearchParams({ armed_by: armedBy })}`);

  it('arms a fault as the run’s own (204) and disarms it with the same armed_by (204)', async () => {
    const emulator = newEmulator();
    expect((await emulator.handle(arm('wrong_nonce', client.clientId, 'run-1'))).status).toBe(204);
    expect(await emulator.control.faultArming('wrong_nonce')).toEqual({ clientId: client.clientId, armedBy: 'run-1' });
    expect((await emulator.handle(disarm('wrong_nonce', 'run-1'))).status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('a hand-armed fault survives DELETE ?armed_by=run-1 (204), still armed for its client', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('expired', other.clientId);
    const response = await emulator.handle(disarm('expired', 'run-1'));
    expect(response.status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual(['expired']);
    expect(await emulator.control.faultScope('expired')).toBe(other.clientId);
  });

  it('another run’s fault survives DELETE ?armed_by=run-1; DELETE without armed_by disarms it as before', async () => {
    const emulator = newEmulator();
    expect((await emulator.handle(arm('token_error', client.clientId, 'run-2'))).status).toBe(204);
    expect((await emulator.handle(disarm('token_error', 'run-1'))).status).toBe(204);
    expect(await emulator.control.faultArming('token_error')).toEqual({ clientId: client.clientId, armedBy: 'run-2' });
    expect((await emulator.handle(qa('DELETE', 'faults/token_error'))).status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('DELETE with an armed_by of a fault not armed at all is 204 (idempotent)', async () => {
    const emulator = newEmulator();
    expect((await emulator.handle(disarm('token_error', 'run-1'))).status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('a PUT with armed_by over a hand-armed fault is 409 fault_armed naming its client, and leaves it armed for that client', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_nonce', other.clientId);
    const response = await emulator.handle(arm('wrong_nonce', client.clientId, 'run-1'));
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({
      error: 'fault_armed',
      error_description:
        "fault 'wrong_nonce' is armed already for client 'other-client' (armed by hand: on the QA panel, or without armed_by); it was left as it is",
    });
    expect(await emulator.control.faultArming('wrong_nonce')).toEqual({ clientId: other.clientId });
  });

  it('a PUT with armed_by over a fault armed for any client, or through the API without armed_by, is 409 as well', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('token_error');
    const anyClient = await emulator.handle(arm('token_error', client.clientId, 'run-1'));
    expect(anyClient.status).toBe(409);
    expect((await json(anyClient)).error_description).toBe(
      "fault 'token_error' is armed already for any client (armed by hand: on the QA panel, or without armed_by); it was left as it is",
    );
    expect(await emulator.control.faultArming('token_error')).toEqual({});

    expect((await emulator.handle(arm('expired', other.clientId))).status).toBe(204);
    const overApi = await emulator.handle(arm('expired', client.clientId, 'run-1'));
    expect(overApi.status).toBe(409);
    expect((await json(overApi)).error).toBe('fault_armed');
    expect(await emulator.control.faultArming('expired')).toEqual({ clientId: other.clientId });
  });

  it('a PUT with armed_by over another run’s fault is 409 naming that run; the same run arms it again (204), for a new client', async () => {
    const emulator = newEmulator();
    expect((await emulator.handle(arm('wrong_issuer', client.clientId, 'run-2'))).status).toBe(204);
    const refused = await emulator.handle(arm('wrong_issuer', other.clientId, 'run-1'));
    expect(refused.status).toBe(409);
    expect((await json(refused)).error_description).toBe(
      "fault 'wrong_issuer' is armed already for client 'demo-client' (armed by 'run-2'); it was left as it is",
    );
    expect((await emulator.handle(arm('wrong_issuer', other.clientId, 'run-2'))).status).toBe(204);
    expect(await emulator.control.faultArming('wrong_issuer')).toEqual({ clientId: other.clientId, armedBy: 'run-2' });
  });

  it('a PUT without armed_by replaces a run’s fault, as before: it is then armed by hand', async () => {
    const emulator = newEmulator();
    await emulator.handle(arm('wrong_issuer', client.clientId, 'run-2'));
    expect((await emulator.handle(arm('wrong_issuer', other.clientId))).status).toBe(204);
    expect(await emulator.control.faultArming('wrong_issuer')).toEqual({ clientId: other.clientId });
  });

  it('of two PUTs with different armed_by racing for one fault, exactly one is 204 and the other 409', async () => {
    const emulator = newEmulator();
    const responses = await Promise.all([
      emulator.handle(arm('unknown_kid', client.clientId, 'run-1')),
      emulator.handle(arm('unknown_kid', other.clientId, 'run-2')),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([204, 409]);
    const winner = responses[0]!.status === 204 ? { clientId: client.clientId, armedBy: 'run-1' } : { clientId: other.clientId, armedBy: 'run-2' };
    expect(await emulator.control.faultArming('unknown_kid')).toEqual(winner);
  });

  it('refuses a malformed armed_by in the body or the query with 400 invalid_request, changing nothing', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_nonce', client.clientId);
    for (const armedBy of ['', 'r'.repeat(65), 'run 1', 'run/1', '<b>x</b>', 'rün', 42, null, ['run-1'], { run: 1 }]) {
      const response = await emulator.handle(qa('PUT', 'faults/expired', { client_id: client.clientId, armed_by: armedBy }));
      expect(response.status, JSON.stringify(armedBy)).toBe(400);
      expect(await json(response), JSON.stringify(armedBy)).toEqual({
        error: 'invalid_request',
        error_description: "body member 'armed_by' must be 1 to 64 letters, digits, '_' and '-'",
      });
    }
    for (const query of ['armed_by=', `armed_by=${'r'.repeat(65)}`, 'armed_by=run%201', 'armed_by=%3Cb%3E']) {
      const response = await emulator.handle(qa('DELETE', `faults/wrong_nonce?${query}`));
      expect(response.status, query).toBe(400);
      expect(await json(response), query).toEqual({
        error: 'invalid_request',
        error_description: "query parameter 'armed_by' must be 1 to 64 letters, digits, '_' and '-'",
      });
    }
    const twice = await emulator.handle(qa('DELETE', 'faults/wrong_nonce?armed_by=run-1&armed_by=run-2'));
    expect(twice.status).toBe(400);
    expect(await json(twice)).toEqual({ error: 'invalid_request', error_description: "query parameter 'armed_by' must be given once" });
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
    expect(await emulator.control.faultArming('wrong_nonce')).toEqual({ clientId: client.clientId });
    // 64 characters of the alphabet is a name.
    const longest = `${'A'.repeat(30)}z_-${'9'.repeat(31)}`;
    expect((await emulator.handle(arm('expired', client.clientId, longest))).status).toBe(204);
    expect((await emulator.handle(disarm('expired', longest))).status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual(['wrong_nonce']);
  });

  it('answers 409, arming nothing, when others arm and apply the fault on every try', async () => {
    const store = new MemoryStore();
    const emulator = newEmulator({ store });
    const { setIfAbsent, get } = store;
    store.setIfAbsent = async (key, value, ttl) => (key.startsWith('fault:') ? false : setIfAbsent.call(store, key, value, ttl));
    store.get = async <T>(key: string) => (key.startsWith('fault:') ? undefined : get.call(store, key)) as T | undefined;
    const response = await emulator.handle(arm('expired', client.clientId, 'run-1'));
    expect(response.status).toBe(409);
    expect(await json(response)).toEqual({
      error: 'fault_armed',
      error_description: "fault 'expired' was armed and applied by others while this request tried; it was not armed for you: try again",
    });
  });
});

describe('{base}/qa/lock: one conformance run at a time per deployment', () => {
  const start = Date.UTC(2026, 0, 31, 12, 0, 0);
  const take = (owner: unknown, seconds: unknown) => qa('PUT', 'lock', { owner, seconds });
  const release = (owner: string) => qa('DELETE', `lock?${new URLSearchParams({ owner })}`);

  /** An emulator whose clock, and its store's, is `clock.now`. */
  function emulatorAt(clock: { now: number }, store?: MemoryStore): Emulator {
    return newEmulator({ now: () => clock.now, ...(store ? { store } : {}) });
  }

  async function lockState(emulator: Emulator) {
    const response = await emulator.handle(qa('GET', 'lock'));
    expect(response.status).toBe(200);
    return json(response);
  }

  it('PUT takes a free lock for the seconds asked: 200 {owner, expires_at}; GET shows it', async () => {
    const clock = { now: start };
    const emulator = emulatorAt(clock);
    expect(await lockState(emulator)).toEqual({ locked: false });
    const response = await emulator.handle(take('run-1', 60));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ owner: 'run-1', expires_at: start + 60_000 });
    expect(await lockState(emulator)).toEqual({ locked: true, owner: 'run-1', expires_at: start + 60_000 });
  });

  it('PUT by the owner renews it from now', async () => {
    const clock = { now: start };
    const emulator = emulatorAt(clock);
    await emulator.handle(take('run-1', 60));
    clock.now += 45_000;
    const renewed = await emulator.handle(take('run-1', 60));
    expect(renewed.status).toBe(200);
    expect(await json(renewed)).toEqual({ owner: 'run-1', expires_at: start + 105_000 });
    // Past the first expiry, the renewal holds.
    clock.now = start + 100_000;
    expect(await lockState(emulator)).toEqual({ locked: true, owner: 'run-1', expires_at: start + 105_000 });
  });

  it('PUT by another owner is 409 locked, naming when it ends, with Retry-After in seconds (at least 1)', async () => {
    const clock = { now: start };
    const emulator = emulatorAt(clock);
    await emulator.handle(take('run-1', 60));
    clock.now += 10_500;
    const refused = await emulator.handle(take('run-2', 60));
    expect(refused.status).toBe(409);
    expect(refused.headers.get('retry-after')).toBe('50');
    expect(await json(refused)).toEqual({
      error: 'locked',
      error_description: "the emulator is held by conformance run 'run-1' for 50 s more (until 2026-01-31T12:01:00.000Z); try again then",
    });
    clock.now = start + 59_800;
    const almost = await emulator.handle(take('run-2', 60));
    expect(almost.status).toBe(409);
    expect(almost.headers.get('retry-after')).toBe('1');
    expect(await lockState(emulator)).toEqual({ locked: true, owner: 'run-1', expires_at: start + 60_000 });
  });

  it('asks for at least 1 s when the store still holds a lock this instance’s clock says has ended (clocks apart)', async () => {
    const storeClock = { now: start };
    const clock = { now: start };
    const emulator = emulatorAt(clock, new MemoryStore({ now: () => storeClock.now }));
    await emulator.handle(take('run-1', 60));
    clock.now += 61_000;
    const refused = await emulator.handle(take('run-2', 60));
    expect(refused.status).toBe(409);
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('DELETE by another owner leaves the lock (204); DELETE by its owner releases it (204), and again (204)', async () => {
    const clock = { now: start };
    const emulator = emulatorAt(clock);
    await emulator.handle(take('run-1', 60));
    const wrong = await emulator.handle(release('run-2'));
    expect(wrong.status).toBe(204);
    expect(wrong.headers.get('cache-control')).toBe('no-store');
    expect(await lockState(emulator)).toEqual({ locked: true, owner: 'run-1', expires_at: start + 60_000 });
    expect((await emulator.handle(release('run-1'))).status).toBe(204);
    expect(await lockState(emulator)).toEqual({ locked: false });
    expect((await emulator.handle(release('run-1'))).status).toBe(204);
    expect((await emulator.handle(take('run-2', 5))).status).toBe(200);
  });

  it('ends by itself: once its seconds are up, another owner takes it', async () => {
    const clock = { now: start };
    const emulator = emulatorAt(clock);
    await emulator.handle(take('run-1', 5));
    clock.now += 4_999;
    expect((await emulator.handle(take('run-2', 30))).status).toBe(409);
    clock.now += 1;
    expect(await lockState(emulator)).toEqual({ locked: false });
    const taken = await emulator.handle(take('run-2', 30));
    expect(taken.status).toBe(200);
    expect(await json(taken)).toEqual({ owner: 'run-2', expires_at: start + 35_000 });
  });

  it('is one lock for two emulators on one store: taken on one, refused and shown on the other, released on one, taken on the other', async () => {
    const clock = { now: start };
    const store = new MemoryStore({ now: () => clock.now });
    const [a, b] = [emulatorAt(clock, store), emulatorAt(clock, store)];
    expect((await a.handle(take('run-a', 60))).status).toBe(200);
    const refused = await b.handle(take('run-b', 60));
    expect(refused.status).toBe(409);
    expect((await json(refused)).error).toBe('locked');
    expect(await lockState(b)).toEqual({ locked: true, owner: 'run-a', expires_at: start + 60_000 });
    expect((await b.handle(release('run-b'))).status).toBe(204);
    expect((await lockState(a)).locked).toBe(true);
    expect((await b.handle(release('run-a'))).status).toBe(204);
    expect(await lockState(a)).toEqual({ locked: false });
    expect((await a.handle(take('run-b', 60))).status).toBe(200);
    expect((await b.handle(take('run-c', 60))).status).toBe(409);
  });

  it('of owners racing for it on two emulators sharing a store, exactly one gets 200', async () => {
    const clock = { now: start };
    const store = new MemoryStore({ now: () => clock.now });
    const [a, b] = [emulatorAt(clock, store), emulatorAt(clock, store)];
    const responses = await Promise.all([a.handle(take('run-1', 60)), b.handle(take('run-2', 60)), a.handle(take('run-3', 60))]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409, 409]);
  });

  it('keeps its key inside the emulator’s store namespace', async () => {
    const store = new MemoryStore();
    const emulator = newEmulator({ store: namespaced(store, 'emulator:') });
    await emulator.handle(take('run-1', 60));
    expect(await store.get('emulator:fault-run-lock')).toEqual({ owner: 'run-1', expiresAt: expect.any(Number) });
  });

  it('refuses a malformed owner or seconds with 400 invalid_request, taking nothing, never a 500', async () => {
    const emulator = newEmulator();
    const ownerError = "body member 'owner' must be 1 to 64 letters, digits, '_' and '-'";
    const secondsError = "body member 'seconds' must be a whole number of seconds from 5 to 600";
    const cases: [unknown, string][] = [
      [{ seconds: 60 }, ownerError],
      [{ owner: '', seconds: 60 }, ownerError],
      [{ owner: 'r'.repeat(65), seconds: 60 }, ownerError],
      [{ owner: 'run 1', seconds: 60 }, ownerError],
      [{ owner: 7, seconds: 60 }, ownerError],
      [{ owner: null, seconds: 60 }, ownerError],
      [{ owner: 'run-1' }, secondsError],
      [{ owner: 'run-1', seconds: 4 }, secondsError],
      [{ owner: 'run-1', seconds: 601 }, secondsError],
      [{ owner: 'run-1', seconds: 5.5 }, secondsError],
      [{ owner: 'run-1', seconds: '60' }, secondsError],
      [{ owner: 'run-1', seconds: null }, secondsError],
      [{ owner: 'run-1', seconds: 1e308 }, secondsError],
      [{ owner: 'run-1', seconds: 60, until: 1 }, "the body has an unknown member 'until'; its members are owner, seconds"],
    ];
    for (const [body, description] of cases) {
      const response = await emulator.handle(qa('PUT', 'lock', body));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await json(response), JSON.stringify(body)).toEqual({ error: 'invalid_request', error_description: description });
    }
    const queries: [string, string][] = [
      ['lock', "query parameter 'owner' is required: the owner that holds the lock"],
      ['lock?owner=', "query parameter 'owner' must be 1 to 64 letters, digits, '_' and '-'"],
      ['lock?owner=run%0A1', "query parameter 'owner' must be 1 to 64 letters, digits, '_' and '-'"],
      ['lock?owner=run-1&owner=run-2', "query parameter 'owner' must be given once"],
    ];
    for (const [path, description] of queries) {
      const response = await emulator.handle(qa('DELETE', path));
      expect(response.status, path).toBe(400);
      expect(await json(response), path).toEqual({ error: 'invalid_request', error_description: description });
    }
    expect(await lockState(emulator)).toEqual({ locked: false });
    expect((await emulator.handle(take('run-1', 5))).status).toBe(200);
    expect((await emulator.handle(take('run-1', 600))).status).toBe(200);
  });

  it('answers 409 with Retry-After 1 when the lock changes hands on every try', async () => {
    const store = new MemoryStore();
    const emulator = newEmulator({ store });
    const { setIfAbsent, get } = store;
    store.setIfAbsent = async (key, value, ttl) => (key === 'fault-run-lock' ? false : setIfAbsent.call(store, key, value, ttl));
    store.get = async <T>(key: string) => (key === 'fault-run-lock' ? undefined : get.call(store, key)) as T | undefined;
    const response = await emulator.handle(take('run-1', 60));
    expect(response.status).toBe(409);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await json(response)).toEqual({ error: 'locked', error_description: 'the run lock changed hands while this request tried to take it; try again' });
  });

  it('follows the rest of the QA API: the panel’s access rule, the cross-site rule, its rate limit, HEAD and 405', async () => {
    const readOnly = newEmulator({ panel: { mode: 'read-only', reason: 'production' } });
    for (const request of [qa('GET', 'lock'), take('run-1', 60), release('run-1')]) {
      const response = await readOnly.handle(request);
      expect(response.status, request.method).toBe(403);
      expect((await json(response)).error).toBe('access_denied');
    }
    expect(await readOnly.control.runLock()).toBeUndefined();

    const emulator = newEmulator();
    for (const request of [
      qa('PUT', 'lock', { owner: 'run-1', seconds: 60 }, { Origin: 'https://evil.example' }),
      qa('DELETE', 'lock?owner=run-1', undefined, { 'Sec-Fetch-Site': 'cross-site' }),
    ]) {
      const response = await emulator.handle(request);
      expect(response.status, request.method).toBe(403);
      expect((await json(response)).error).toBe('access_denied');
    }
    expect(await emulator.control.runLock()).toBeUndefined();
    const head = await emulator.handle(qa('HEAD', 'lock'));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await emulator.handle(qa('POST', 'lock', { owner: 'run-1', seconds: 60 }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, PUT, DELETE, HEAD');

    // One budget with the rest of the QA API.
    const limited = newEmulator({ rateLimits: { qa: 2 } });
    expect((await limited.handle(take('run-1', 60))).status).toBe(200);
    expect((await limited.handle(qa('GET', 'jwks-fetches'))).status).toBe(200);
    const over = await limited.handle(qa('GET', 'lock'));
    expect(over.status).toBe(429);
    expect((await json(over)).error_description).toMatch(/too many QA API requests/);
  });
});

describe('POST {base}/qa/flows: faults and a given name for one flow', () => {
  it('finds the flow by the request_uri GET /auth used up, arms its faults, and the given name reaches the decrypted ID token', async () => {
    const emulator = newEmulator();
    let chosen: Record<string, unknown> = {};
    const { state, token } = await runFlow(emulator, {
      before: async (requestUri) => {
        const response = await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, faults: ['aud_array'], given_name: 'Canary Qxvt' }));
        expect(response.status).toBe(200);
        chosen = await json(response);
      },
    });
    expect(chosen).toEqual({ state, client_id: client.clientId });
    expect(token.status).toBe(200);
    const { id_token: idToken } = (await token.json()) as { id_token: string };
    const { plaintext } = await compactDecrypt(idToken, client.encryptionKey.privateKey);
    const payload = payloadOf(plaintext);
    expect(payload.verified_claims.claims.given_name).toBe('Canary Qxvt');
    // Nothing else changes: the family name is the persona's; the fault chosen was applied.
    expect(payload.verified_claims.claims.family_name).toBe('Haugen');
    expect(payload.aud).toEqual([client.clientId]);

    const flow = await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)));
    expect(flow.given_name).toBe('Canary Qxvt');
    expect((flow.faults as { id: string; chosen: string }[]).map(({ id, chosen }) => [id, chosen])).toEqual([['aud_array', 'flow']]);
    const idTokenEvent = (flow.events as FlowEvent[]).find((event) => event.step === 'id_token')!;
    expect(idTokenEvent.details.given_name).toBe('Canary Qxvt');
    // The trace says what QA chose, and how.
    const answer = (flow.events as FlowEvent[]).find((event) => event.step === 'flow_answer')!;
    expect(answer.summary).toBe('QA chose aud_array and a given name for this flow through the QA API.');
    expect(answer.details).toEqual({ chosen_with: 'qa_api', faults: ['aud_array'], given_name: 'Canary Qxvt' });
  });

  it('a JWKS outage chosen for the flow is listed with reached: false until a JWKS request meets it, then without; the JWKS log names it', async () => {
    const emulator = newEmulator();
    const { state, token } = await runFlow(emulator, {
      before: async (requestUri) => {
        expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, faults: ['jwks_error'] }))).status).toBe(200);
      },
    });
    expect(token.status).toBe(200);
    const faultsOf = async () => (await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)))).faults;
    expect(await faultsOf()).toEqual([expect.objectContaining({ id: 'jwks_error', chosen: 'flow', reached: false })]);
    expect((await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).status).toBe(500);
    expect(await faultsOf()).toEqual([expect.not.objectContaining({ reached: false })]);
    const [fetch] = (await json(await emulator.handle(qa('GET', 'jwks-fetches')))).fetches as { kids: string[]; variants: string[] }[];
    expect(fetch).toMatchObject({ kids: [], variants: ['jwks_error'] });
  });

  it('a choice of no fault and the persona’s name is traced as such', async () => {
    const emulator = newEmulator();
    const { state } = await runFlow(emulator, {
      before: async (requestUri) => {
        expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri }))).status).toBe(200);
      },
    });
    const flow = await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)));
    const answer = (flow.events as FlowEvent[]).find((event) => event.step === 'flow_answer')!;
    expect(answer.summary).toBe("QA chose no fault and the persona's given name for this flow through the QA API.");
    expect(answer.details).toEqual({ chosen_with: 'qa_api', faults: [], given_name: 'persona' });
    expect(flow).not.toHaveProperty('given_name');
  });

  it('minimal_token chosen with a given name keeps given_name as its single claim', async () => {
    const emulator = newEmulator();
    const { token } = await runFlow(emulator, {
      before: async (requestUri) => {
        expect(
          (await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, faults: ['minimal_token'], given_name: "Åse-Marie O'Neil" }))).status,
        ).toBe(200);
      },
    });
    const { plaintext } = await compactDecrypt(((await token.json()) as { id_token: string }).id_token, client.encryptionKey.privateKey);
    const payload = payloadOf(plaintext);
    expect(payload.verified_claims.claims).toEqual({ given_name: "Åse-Marie O'Neil" });
  });

  it('calling it again replaces the earlier choice: faults and given name', async () => {
    const emulator = newEmulator();
    const { token, state } = await runFlow(emulator, {
      before: async (requestUri) => {
        expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, faults: ['wrong_nonce'], given_name: 'First' }))).status).toBe(200);
        expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri }))).status).toBe(200);
      },
    });
    expect(token.status).toBe(200);
    const flow = await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)));
    expect(flow.faults).toEqual([]);
    expect(flow).not.toHaveProperty('given_name');
    expect((flow.events as FlowEvent[]).find((event) => event.step === 'id_token')!.details.given_name).toBe('Ingrid Solberg');
  });

  it('refuses a PAR fault (armed with PUT /qa/faults), an unknown fault, a bad given name, and an unknown request_uri', async () => {
    const emulator = newEmulator();
    const { requestUri } = await par(emulator);
    // Before GET /auth used it up, a request_uri opened no flow yet.
    const early = await emulator.handle(qa('POST', 'flows', { request_uri: requestUri }));
    expect(early.status).toBe(404);
    expect((await json(early)).error).toBe('not_found');
    await openPage(emulator, requestUri);

    const parFault = await json(await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, faults: ['par_server_error'] })));
    expect(parFault).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('PUT {base}/qa/faults/par_server_error') });
    const unknown = await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, faults: ['nope'] }));
    expect(unknown.status).toBe(400);
    expect((await json(unknown)).error).toBe('unknown_fault');
    for (const givenName of ['', ' ', 'R2-D2', 'Robert<script>', '<b>Ann', '1Ann', 'x'.repeat(65), 42, 'Ann\u0000']) {
      const response = await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, given_name: givenName }));
      expect(response.status, String(givenName)).toBe(400);
      expect(await json(response)).toEqual({
        error: 'invalid_request',
        error_description: expect.stringContaining('letters, marks, spaces, hyphens and apostrophes'),
      });
    }
    for (const givenName of ['Zoë', 'Jean-Luc', 'D’Arcy', 'Łukasz Ñandú', 'نور', 'x'.repeat(64)]) {
      expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, given_name: givenName }))).status, givenName).toBe(200);
    }
    const missing = await emulator.handle(qa('POST', 'flows', { request_uri: 'urn:ietf:params:oauth:request_uri:nothing' }));
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toBe('not_found');
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('remembers a used request_uri for an hour, no longer', async () => {
    let clock = Date.now();
    const emulator = newEmulator({ now: () => clock, store: new MemoryStore({ now: () => clock }) });
    const { requestUri } = await par(emulator);
    await openPage(emulator, requestUri);
    clock += 3599_000;
    expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri }))).status).toBe(200);
    clock += 2000;
    expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri }))).status).toBe(404);
  });
});

describe('GET {base}/qa/flows: a client’s flows', () => {
  it('lists the flows whose PAR was accepted or answered by a fault, newest first, since a time, per client', async () => {
    let clock = Date.now();
    const emulator = newEmulator({ now: () => clock, store: new MemoryStore({ now: () => clock }) });
    const first = await par(emulator, 'state-first', client, clock);
    clock += 1000;
    await emulator.control.armFault('par_invalid_request', client.clientId);
    const faulted = await emulator.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(client, clock)),
        request: await signAsClient(
          client,
          requestObjectClaims(client, { now: clock, codeChallenge: (await createPkce()).codeChallenge, claims: { state: 'state-faulted' } }),
        ),
      }),
    );
    expect(faulted.status).toBe(400);
    clock += 61_000;
    await par(emulator, 'state-other', other, clock);
    await par(emulator, 'state-third', client, clock);

    const all = await json(await emulator.handle(qa('GET', `flows?client_id=${client.clientId}&since=0`)));
    expect(all.flows).toEqual([
      { state: 'state-third', client_id: client.clientId, started_at: clock },
      { state: 'state-faulted', client_id: client.clientId, started_at: clock - 61_000 },
      { state: first.state, client_id: client.clientId, started_at: clock - 62_000 },
    ]);
    const since = await json(await emulator.handle(qa('GET', `flows?client_id=${client.clientId}&since=${clock - 61_000}`)));
    expect((since.flows as { state: string }[]).map((flow) => flow.state)).toEqual(['state-third', 'state-faulted']);
    expect((await json(await emulator.handle(qa('GET', `flows?client_id=${other.clientId}`)))).flows).toEqual([
      { state: 'state-other', client_id: other.clientId, started_at: clock },
    ]);
    // An hour on, they are gone.
    clock += 3600_000 + 60_000;
    expect((await json(await emulator.handle(qa('GET', `flows?client_id=${client.clientId}`)))).flows).toEqual([]);
  });

  it('keeps at most 50, and two flows listed at once both stay listed', async () => {
    const emulator = newEmulator();
    const states = Array.from({ length: 55 }, (_, index) => `state-many-${index}`);
    await Promise.all(states.map((state) => par(emulator, state)));
    const { flows } = await json(await emulator.handle(qa('GET', `flows?client_id=${client.clientId}`)));
    expect(flows).toHaveLength(50);
    expect(new Set((flows as { state: string }[]).map((flow) => flow.state)).size).toBe(50);
  });

  it('refuses a missing or unknown client_id and a malformed since', async () => {
    const emulator = newEmulator();
    const cases: [string, number, string][] = [
      ['flows', 400, 'invalid_request'],
      ['flows?client_id=nobody', 400, 'unknown_client'],
      [`flows?client_id=${client.clientId}&since=yesterday`, 400, 'invalid_request'],
      [`flows?client_id=${client.clientId}&since=-5`, 400, 'invalid_request'],
      [`flows?client_id=${client.clientId}&client_id=${other.clientId}`, 400, 'invalid_request'],
    ];
    for (const [path, status, error] of cases) {
      const response = await emulator.handle(qa('GET', path));
      expect(response.status, path).toBe(status);
      expect((await json(response)).error, path).toBe(error);
    }
  });
});

describe('GET {base}/qa/flow: one flow’s protocol trace', () => {
  it('records each step as the emulator saw it, with codes and nonces masked', async () => {
    const emulator = newEmulator();
    const { state, redirect } = await runFlow(emulator);
    const response = await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`));
    expect(response.status).toBe(200);
    const flow = await json(response);
    expect(flow).toMatchObject({ state, client_id: client.clientId, faults: [] });
    const events = flow.events as FlowEvent[];
    expect(events.map((event) => [event.step, event.outcome])).toEqual([
      ['par', 'ok'],
      ['authorization_page', 'ok'],
      ['decision', 'ok'],
      ['redirect', 'ok'],
      ['token', 'ok'],
      ['id_token', 'ok'],
      ['token_response', 'ok'],
    ]);
    const [parEvent, , decision, redirectEvent, tokenEvent, idToken, tokenResponse] = events as [
      FlowEvent,
      FlowEvent,
      FlowEvent,
      FlowEvent,
      FlowEvent,
      FlowEvent,
      FlowEvent,
    ];
    expect(parEvent.details).toMatchObject({
      request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:[0-9a-f-]{8}…$/),
      expires_in: 600,
      verified_claims: ['given_name', 'family_name', 'birthdate'],
      trust_framework: 'standard',
      assertion_alg: 'ES256',
      assertion_kid: client.signingKey.kid,
    });
    expect(decision.details).toMatchObject({ persona: 'ingrid-haugen' });
    const code = redirect.searchParams.get('code')!;
    expect(redirectEvent.details).toMatchObject({ code: `${code.slice(0, 4)}…`, state, iss: TEST_BASE_URL, parameters: ['code', 'state', 'iss'] });
    expect(JSON.stringify(flow)).not.toContain(code);
    expect(tokenEvent.details).toMatchObject({ assertion_alg: 'ES256', assertion_kid: client.signingKey.kid, status: 200, faults: [] });
    expect(idToken.details).toMatchObject({
      alg: 'ES256',
      typ: 'JWT',
      iss: TEST_BASE_URL,
      aud: client.clientId,
      nonce: 'nonc…',
      verified_claims: ['given_name', 'family_name', 'birthdate'],
      given_name: 'Ingrid Solberg',
      jwe_alg: 'RSA-OAEP-256',
      jwe_enc: 'A256GCM',
      jwe_kid: client.encryptionKey.kid,
    });
    expect(idToken.details.claims).toEqual(expect.arrayContaining(['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'verified_claims']));
    expect(tokenResponse.details).toMatchObject({ status: 200, members: ['id_token', 'expires_in'] });
    for (const event of events) expect(event.summary).toMatch(/^[A-Z].*\.$/);
  });

  it('records the faults applied at each step, and says when a fault changed the state sent back', async () => {
    const emulator = newEmulator();
    await emulator.control.armFault('wrong_state', client.clientId);
    await emulator.control.armFault('no_expires_in', client.clientId);
    await emulator.control.armFault('unencrypted', client.clientId);
    const { state } = await runFlow(emulator);
    const events = (await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)))).events as FlowEvent[];
    const byStep = Object.fromEntries(events.map((event) => [event.step, event]));
    expect(byStep.redirect).toMatchObject({ outcome: 'fault', details: { state_changed_by: 'wrong_state', faults: ['wrong_state'] } });
    expect(byStep.redirect!.details.state).not.toBe(state);
    expect(byStep.token).toMatchObject({ outcome: 'fault', details: { faults: ['no_expires_in'] } });
    expect(byStep.id_token).toMatchObject({ outcome: 'fault', details: { encryption: 'not encrypted', faults: ['unencrypted'] } });
    expect(byStep.token_response!.details.members).toEqual(['id_token']);
  });

  it('records a PAR refused after client authentication, and a token request refused', async () => {
    const emulator = newEmulator();
    const refused = await emulator.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(client)),
        request: await signAsClient(
          client,
          requestObjectClaims(client, { codeChallenge: (await createPkce()).codeChallenge, claims: { state: 'state-refused', scope: 'email' } }),
        ),
      }),
    );
    expect(refused.status).toBe(400);
    const flow = await json(await emulator.handle(qa('GET', 'flow?state=state-refused')));
    expect(flow.events).toEqual([
      expect.objectContaining({ step: 'par', outcome: 'refused', details: expect.objectContaining({ status: 400, error: 'invalid_scope' }) }),
    ]);
    // Refused, not a flow: the client's list does not show it.
    expect((await json(await emulator.handle(qa('GET', `flows?client_id=${client.clientId}`)))).flows).toEqual([]);

    // A token request with the wrong code_verifier: refused after client authentication.
    const { requestUri, state } = await par(emulator);
    const { interaction, browser } = await openPage(emulator, requestUri);
    const decision = await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }));
    const token = await redeemCode(emulator, client, { redirect: new URL(decision.headers.get('location')!), codeVerifier: (await createPkce()).codeVerifier });
    expect(token.status).toBe(400);
    const events = (await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)))).events as FlowEvent[];
    expect(events.slice(-2)).toEqual([
      expect.objectContaining({
        step: 'token',
        outcome: 'refused',
        details: expect.objectContaining({ status: 400, error: 'invalid_grant', error_description: expect.stringContaining('code_verifier') }),
      }),
      expect.objectContaining({
        step: 'token_response',
        outcome: 'refused',
        details: expect.objectContaining({ status: 400, members: ['error', 'error_description'] }),
      }),
    ]);
  });

  it('an anonymous PAR (a bad client assertion) records nothing, not even under the state it sent', async () => {
    const store = new MemoryStore();
    const emulator = newEmulator({ store });
    const forged = await emulator.handle(
      formPost(`${TEST_BASE_URL}/par`, {
        ...(await clientAuthentication(other)),
        client_id: client.clientId,
        request: await signAsClient(
          client,
          requestObjectClaims(client, { codeChallenge: (await createPkce()).codeChallenge, claims: { state: 'state-anonymous' } }),
        ),
      }),
    );
    expect(forged.status).toBe(401);
    const response = await emulator.handle(qa('GET', 'flow?state=state-anonymous'));
    expect(response.status).toBe(404);
    expect(await json(response)).toEqual({ error: 'not_found', error_description: expect.stringContaining('authenticated client') });
    expect((await json(await emulator.handle(qa('GET', `flows?client_id=${client.clientId}`)))).flows).toEqual([]);
  });

  it('records a flow answer chosen on the flow’s own pages, and a denied decision with the error QA chose', async () => {
    const emulator = newEmulator();
    const { requestUri, state } = await par(emulator);
    const { interaction, browser } = await openPage(emulator, requestUri);
    const chosen = await emulator.handle(
      new Request(`${TEST_BASE_URL}/app/${interaction}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ browser, from: 'page', action: 'choose-answer', answer: 'error:server_error' }).toString(),
      }),
    );
    expect(chosen.status).toBe(303);
    await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'tobias-hansen', outcome: 'approve' }));
    const flow = await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)));
    expect(flow.error).toEqual({ error: 'server_error', description: 'Internal server error' });
    const events = flow.events as FlowEvent[];
    expect(events.map((event) => [event.step, event.outcome])).toEqual([
      ['par', 'ok'],
      ['authorization_page', 'ok'],
      ['flow_answer', 'ok'],
      ['decision', 'refused'],
      ['redirect', 'fault'],
    ]);
    expect(events[2]!.details).toEqual({ chosen_with: 'chooser', faults: [], error: 'server_error' });
    expect(events[3]!.details).toMatchObject({ error: 'access_denied', replaced_by_flow_answer: 'server_error' });
    expect(events[4]!.details).toMatchObject({ error: 'server_error', state, parameters: ['error', 'error_description', 'state', 'iss'] });
  });

  it('with flowAnswerChooser off (a demo in front of a customer), no page offers the choice and a choice posted anyway is refused, the panel open or not', async () => {
    const withChooser = newEmulator();
    const shown = await openPage(withChooser, (await par(withChooser)).requestUri);
    const page = async (emulator: Emulator, { interaction, browser }: { interaction: string; browser: string }) =>
      (await emulator.handle(new Request(`${TEST_BASE_URL}/auth/page?${new URLSearchParams({ interaction, browser })}`))).text();
    expect(await page(withChooser, shown)).toContain('data-testid="qa-answer"');

    const emulator = newEmulator({ flowAnswerChooser: false });
    const flow = await openPage(emulator, (await par(emulator)).requestUri);
    expect(await page(emulator, flow)).not.toContain('data-testid="qa-answer"');
    const chosen = await emulator.handle(
      new Request(`${TEST_BASE_URL}/app/${flow.interaction}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ browser: flow.browser, from: 'page', action: 'choose-answer', answer: 'error:server_error' }).toString(),
      }),
    );
    expect(chosen.status).toBe(403);
  });

  it('a trace is one client’s: another client’s flow with the same state neither writes into it nor reads its given name', async () => {
    const emulator = newEmulator();
    const { requestUri, state } = await par(emulator, 'state-shared');
    await openPage(emulator, requestUri);
    expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, given_name: 'Canary Qxvt' }))).status).toBe(200);
    // The other client uses the same state for a flow of its own, to the end.
    const theirs = await par(emulator, state, other);
    const { interaction, browser } = await openPage(emulator, theirs.requestUri, other);
    const decision = await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }));
    const token = await redeemCode(emulator, other, { redirect: new URL(decision.headers.get('location')!), codeVerifier: theirs.codeVerifier });
    const { plaintext } = await compactDecrypt(((await token.json()) as { id_token: string }).id_token, other.encryptionKey.privateKey);
    const payload = payloadOf(plaintext);
    expect(payload.verified_claims.claims.given_name).toBe('Ingrid Solberg');

    const flow = await json(await emulator.handle(qa('GET', `flow?state=${state}`)));
    expect(flow.client_id).toBe(client.clientId);
    expect((flow.events as FlowEvent[]).map((event) => event.step)).toEqual(['par', 'authorization_page', 'flow_answer']);
  });

  it('refuses a missing or over-long state; a state never seen is 404 not_found', async () => {
    const emulator = newEmulator();
    expect((await emulator.handle(qa('GET', 'flow'))).status).toBe(400);
    expect((await emulator.handle(qa('GET', `flow?state=${'s'.repeat(513)}`))).status).toBe(400);
    const never = await emulator.handle(qa('GET', 'flow?state=never'));
    expect(never.status).toBe(404);
    expect((await json(never)).error).toBe('not_found');
  });
});

describe('the trace is bounded', () => {
  it('keeps the last 40 events of a flow and cuts every string to 300 characters', async () => {
    const emulator = newEmulator();
    const { requestUri, state } = await par(emulator, `state-${'q'.repeat(500)}`);
    const { interaction, browser } = await openPage(emulator, requestUri);
    await emulator.handle(formPost(`${TEST_BASE_URL}/auth`, { interaction, browser, persona: 'ingrid-haugen', outcome: 'approve' }));
    const read = async () => (await json(await emulator.handle(qa('GET', `flow?state=${encodeURIComponent(state)}`)))).events as FlowEvent[];
    const redirect = (await read()).find((event) => event.step === 'redirect')!;
    expect(redirect.details.state).toHaveLength(MAX_TRACE_STRING);
    expect(redirect.details.state).toMatch(/^state-q+…$/);
    expect(redirect.details.redirect_uri).toBe(client.redirectUri);

    for (let index = 0; index < 45; index += 1) {
      expect((await emulator.handle(qa('POST', 'flows', { request_uri: requestUri, given_name: 'Ann' }))).status).toBe(200);
    }
    const events = await read();
    expect(events).toHaveLength(MAX_FLOW_EVENTS);
    expect(events.every((event) => event.step === 'flow_answer')).toBe(true);
  });
});

describe('GET {base}/qa/jwks-fetches', () => {
  it('logs each JWKS response: the kids in the order served and the variants in effect, newest first', async () => {
    const emulator = newEmulator();
    const first = (await (await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).json()) as { keys: { kid: string }[] };
    await emulator.control.armFault('jwks_keys_shuffled', client.clientId);
    await runFlow(emulator);
    const second = (await (await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).json()) as { keys: { kid: string }[] };
    const response = await emulator.handle(qa('GET', 'jwks-fetches'));
    expect(response.status).toBe(200);
    const { fetches } = (await json(response)) as { fetches: { at: number; kids: string[]; variants: string[] }[] };
    expect(fetches.map(({ kids, variants }) => ({ kids, variants }))).toEqual([
      { kids: second.keys.map((key) => key.kid), variants: ['jwks_keys_shuffled'] },
      { kids: first.keys.map((key) => key.kid), variants: [] },
    ]);
  });
});

describe('every refusal of the QA API says what was wrong, in its error_description', () => {
  /** Sends a request and returns its status, error and description. */
  async function refusal(emulator: Emulator, request: Request) {
    const response = await emulator.handle(request);
    const body = await json(response);
    return { status: response.status, error: body.error, description: body.error_description as string };
  }

  function raw(method: string, path: string, body: BodyInit, contentType?: string): Request {
    return new Request(`${TEST_BASE_URL}/qa/${path}`, { method, ...(contentType ? { headers: { 'Content-Type': contentType } } : {}), body });
  }

  it('a body: its media type, its size, its encoding, its JSON, its shape and its members', async () => {
    const emulator = newEmulator();
    const path = 'faults/wrong_nonce';
    const cases: [Request, number, string][] = [
      [
        raw('PUT', path, `client_id=${client.clientId}`, 'application/x-www-form-urlencoded'),
        415,
        "Content-Type must be application/json, not 'application/x-www-form-urlencoded'",
      ],
      [raw('PUT', path, new TextEncoder().encode('{}')), 415, 'Content-Type must be application/json, not absent'],
      [qa('PUT', path, { client_id: client.clientId, padding: 'x'.repeat(5000) }), 413, 'the body must be at most 4096 bytes'],
      [raw('PUT', path, new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]), 'application/json'), 400, 'the body could not be read as UTF-8'],
      [qa('PUT', path, '{"client_id":'), 400, 'the body is not JSON'],
      [qa('PUT', path, '["demo-client"]'), 400, 'the body must be a JSON object'],
      [qa('PUT', path, 'null'), 400, 'the body must be a JSON object'],
      [qa('PUT', path, '"demo-client"'), 400, 'the body must be a JSON object'],
      [qa('PUT', path, { client_id: client.clientId, scope: 'all' }), 400, "the body has an unknown member 'scope'; its members are client_id"],
      [qa('PUT', path, {}), 400, "body member 'client_id' is required"],
      [qa('PUT', path, { client_id: 'nobody' }), 400, "client_id 'nobody' is not registered"],
      [qa('PUT', 'faults/%E0%A4%A', { client_id: client.clientId }), 400, 'the fault id in the path is not valid percent-encoding'],
      [qa('PUT', 'faults/nope', { client_id: client.clientId }), 404, "unknown fault 'nope'; known faults: "],
    ];
    for (const [request, status, description] of cases) {
      const answer = await refusal(emulator, request);
      expect(answer.status, description).toBe(status);
      expect(answer.error, description).toBe(
        description.startsWith('unknown fault') ? 'unknown_fault' : description.startsWith('client_id') ? 'unknown_client' : 'invalid_request',
      );
      expect(answer.description, description).toContain(description);
    }
    expect(await emulator.control.armedFaults()).toEqual([]);
  });

  it('accepts application/json with parameters and in any case', async () => {
    const emulator = newEmulator();
    const response = await emulator.handle(raw('PUT', 'faults/expired', JSON.stringify({ client_id: client.clientId }), ' Application/JSON ; charset=UTF-8'));
    expect(response.status).toBe(204);
    expect(await emulator.control.armedFaults()).toEqual(['expired']);
  });

  it('POST flows: the request_uri, the faults and the given name', async () => {
    const emulator = newEmulator();
    const required = "body member 'request_uri' is required";
    const cases: [unknown, string, string][] = [
      [{}, 'invalid_request', required],
      [{ request_uri: '' }, 'invalid_request', required],
      [{ request_uri: 42 }, 'invalid_request', required],
      [{ request_uri: 'u'.repeat(1025) }, 'invalid_request', required],
      [{ request_uri: 'urn:x', faults: 'wrong_nonce' }, 'invalid_request', "body member 'faults' must be an array of fault ids"],
      [{ request_uri: 'urn:x', faults: ['wrong_nonce', 7] }, 'invalid_request', "body member 'faults' must be an array of fault ids"],
      [{ request_uri: 'urn:x', faults: ['nope'] }, 'unknown_fault', "unknown fault 'nope'; a flow may be answered with: "],
    ];
    for (const [body, error, description] of cases) {
      const answer = await refusal(emulator, qa('POST', 'flows', body));
      expect(answer, JSON.stringify(body).slice(0, 40)).toEqual({ status: 400, error, description: expect.stringContaining(description) });
    }
    // 1024 characters is a request_uri that may have been seen: looked for, and not found.
    const longest = await refusal(emulator, qa('POST', 'flows', { request_uri: 'u'.repeat(1024) }));
    expect(longest).toEqual({
      status: 404,
      error: 'not_found',
      description: expect.stringContaining('no flow was opened with this request_uri in the last hour'),
    });
  });

  it('GET flows and flow: the query', async () => {
    const emulator = newEmulator();
    const cases: [string, string][] = [
      ['flows', "query parameter 'client_id' is required"],
      ['flows?client_id=nobody', "client_id 'nobody' is not registered"],
      [`flows?client_id=${client.clientId}&since=1e3`, "query parameter 'since' must be a time in ms since the epoch, not '1e3'"],
      [`flows?client_id=${client.clientId}&since=x5`, "query parameter 'since' must be a time in ms since the epoch"],
      [`flows?client_id=${client.clientId}&since=99999999999999999`, "query parameter 'since' must be a time in ms since the epoch"],
      [`flows?client_id=${client.clientId}&client_id=${other.clientId}`, "query parameter 'client_id' must be given once"],
      ['flow', "query parameter 'state' is required: 1 to 512 characters"],
      ['flow?state=', "query parameter 'state' is required: 1 to 512 characters"],
      [`flow?state=${'s'.repeat(513)}`, "query parameter 'state' is required: 1 to 512 characters"],
    ];
    for (const [path, description] of cases) {
      const answer = await refusal(emulator, qa('GET', path));
      expect(answer.status, path).toBe(400);
      expect(answer.error, path).toBe(description.startsWith('client_id') ? 'unknown_client' : 'invalid_request');
      expect(answer.description, path).toContain(description);
    }
    expect((await emulator.handle(qa('GET', `flow?state=${'s'.repeat(512)}`))).status).toBe(404);
    expect((await emulator.handle(qa('GET', `flows?client_id=${client.clientId}&since=999999999999999`))).status).toBe(200);
  });

  it('a cross-site write names what made it cross-site; a cross-site read of a flow is answered', async () => {
    const emulator = newEmulator();
    const fromOrigin = await refusal(emulator, qa('PUT', 'faults/expired', { client_id: client.clientId }, { Origin: 'https://evil.example' }));
    expect(fromOrigin.description).toBe(`a write from Origin 'https://evil.example' is refused: it is not the QA panel's own origin ${ORIGIN}`);
    const fromSite = await refusal(emulator, qa('PUT', 'faults/expired', { client_id: client.clientId }, { 'Sec-Fetch-Site': 'cross-site' }));
    expect(fromSite.description).toBe(`a write with Sec-Fetch-Site 'cross-site' is refused: only the QA panel's own origin may write`);
    for (const method of ['GET', 'HEAD', 'get']) {
      const read = await emulator.handle(
        qa(method, `flows?client_id=${client.clientId}`, undefined, { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }),
      );
      expect(read.status, method).toBe(200);
    }
  });
});

describe('the QA API while the state store is out', () => {
  it('answers as every endpoint does when the store fails (503, Retry-After), never a refusal of its own or a 200', async () => {
    const { StoreError } = await import('../../store/store');
    const store = new MemoryStore();
    const emulator = newEmulator({ store });
    store.get = () => Promise.reject(new StoreError('store_unavailable', 'Redis did not answer', 5));
    const response = await emulator.handle(qa('GET', `flows?client_id=${client.clientId}`));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
  });
});
