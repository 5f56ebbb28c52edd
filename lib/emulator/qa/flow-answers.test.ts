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
} from '@/test/support/emulator';
import { describeFault, type Emulator } from '..';
import { PANEL_MESSAGES } from '../views/panel-messages';
import { FAULTS } from './faults';
import { FLOW_ERRORS, FLOW_FAULTS, decodeFlowAnswer, encodeFlowAnswer } from './flow-answers';

const PASSWORD = 'a panel password of some length';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

/** PAR with this `state`, then the authorization page: the ids its forms carry. */
async function openFlow(emulator: Emulator, state: string, headers: Record<string, string> = {}) {
  const { codeVerifier, codeChallenge } = await createPkce();
  const claims = { ...requestObjectClaims(client, { codeChallenge }), state };
  const par = await emulator.handle(
    formPost(`${emulator.baseUrl}/par`, { ...(await clientAuthentication(client)), request: await signAsClient(client, claims) }),
  );
  expect(par.status).toBe(201);
  const { request_uri: requestUri } = (await par.json()) as { request_uri: string };
  const page = await emulator.handle(
    new Request(`${emulator.baseUrl}/auth?${new URLSearchParams({ client_id: client.clientId, request_uri: requestUri })}`, { headers }),
  );
  const html = await page.text();
  const { interaction, browser } = authorizationPageFields(html);
  return { html, interaction: interaction!, browser: browser!, codeVerifier, requestUri };
}

/** The chooser's post, as the authorization page's form sends it. */
function choose(emulator: Emulator, flow: { interaction: string; browser: string }, answer: string, headers: Record<string, string> = {}) {
  return emulator.handle(
    new Request(`${emulator.baseUrl}/app/${flow.interaction}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ browser: flow.browser, from: 'page', action: 'choose-answer', answer }).toString(),
    }),
  );
}

/** The quick test's approval: the redirect back. */
async function approve(emulator: Emulator, flow: { interaction: string; browser: string }): Promise<URL> {
  const response = await emulator.handle(
    formPost(`${emulator.baseUrl}/auth`, { interaction: flow.interaction, browser: flow.browser, persona: 'ingrid-haugen', outcome: 'approve' }),
  );
  expect(response.status).toBe(303);
  return new URL(response.headers.get('location')!);
}

async function nonceOf(response: Response): Promise<unknown> {
  const { id_token: idToken } = (await response.json()) as { id_token: string };
  return decodeJwt(new TextDecoder().decode((await compactDecrypt(idToken, client.encryptionKey.privateKey)).plaintext)).nonce;
}

describe('the chooser of one flow’s answer', () => {
  it('offers every fault but PAR’s, and the errors of an authorization response; values round-trip and nothing else decodes', () => {
    expect(FLOW_FAULTS).toEqual(FAULTS.filter((fault) => fault.target !== 'par_endpoint').map((fault) => fault.id));
    for (const id of FLOW_FAULTS) expect(decodeFlowAnswer(encodeFlowAnswer({ kind: 'fault', fault: id }))).toEqual({ kind: 'fault', fault: id });
    for (const { id } of FLOW_ERRORS) expect(decodeFlowAnswer(`error:${id}`)).toEqual({ kind: 'error', error: id });
    expect(FLOW_ERRORS.map((error) => error.error)).not.toContain('invalid_client');
    for (const value of [undefined, '', 'fault:par_server_error', 'fault:__proto__', 'error:invalid_client', 'fault:wrong_nonce:x', 'normal ']) {
      expect(decodeFlowAnswer(value)).toBeUndefined();
    }
  });

  it('is on the authorization page of an open panel, collapsed and labelled as QA', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const { html } = await openFlow(emulator, 'state-page');
    expect(html).toContain('<details class="qa-answer" data-testid="qa-answer" data-answer="normal">');
    expect(html).toContain('QA: answer this verification with…');
    expect(html).toMatch(/<label for="qa-answer-select">How the service answers this verification<\/label>/);
  });

  it('spoils only the flow it was chosen for, exactly as a panel-armed fault, and records it for that flow', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const spoiled = await openFlow(emulator, 'state-spoiled');
    const other = await openFlow(emulator, 'state-other');
    const chosen = await choose(emulator, spoiled, 'fault:wrong_nonce');
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get('location')).toContain(`${TEST_BASE_URL}/auth/page?interaction=${spoiled.interaction}`);
    expect(await emulator.control.armedFaults()).toEqual([]);

    const page = await (await emulator.handle(new Request(chosen.headers.get('location')!))).text();
    expect(page).toContain('data-answer="fault:wrong_nonce"');
    expect(page).toContain('This verification will be answered with: Wrong nonce (the relying party answers id_token_nonce_mismatch).');

    // The other flow first: the fault waits for its own.
    const otherRedirect = await approve(emulator, other);
    expect(await nonceOf(await redeemCode(emulator, client, { redirect: otherRedirect, codeVerifier: other.codeVerifier }))).toBe(
      'nonce-0123456789abcdef0123456789ab',
    );
    const redirect = await approve(emulator, spoiled);
    expect(await nonceOf(await redeemCode(emulator, client, { redirect, codeVerifier: spoiled.codeVerifier }))).not.toBe('nonce-0123456789abcdef0123456789ab');

    const answers = await emulator.control.flowAnswers('state-spoiled');
    expect(answers).toEqual({ faults: [{ id: 'wrong_nonce', clientId: client.clientId, at: expect.any(Number), state: 'state-spoiled', chosen: 'flow' }] });
    expect(await emulator.control.flowAnswers('state-other')).toEqual({ faults: [] });
    expect((await emulator.control.injectedFaults())[0]).toMatchObject({ id: 'wrong_nonce', chosen: 'flow', state: 'state-spoiled' });
  });

  it('records a panel-armed fault against the flow it spoiled, as chosen on the panel', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    await emulator.control.armFault('wrong_state');
    const flow = await openFlow(emulator, 'state-panel');
    const redirect = await approve(emulator, flow);
    expect(redirect.searchParams.get('state')).not.toBe('state-panel');
    expect(await emulator.control.flowAnswers('state-panel')).toEqual({
      faults: [{ id: 'wrong_state', clientId: client.clientId, at: expect.any(Number), state: 'state-panel', chosen: 'panel' }],
    });
  });

  it('answers the flow with a chosen error on the redirect back (error, error_description, state, iss), and records it', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const flow = await openFlow(emulator, 'state-error');
    expect((await choose(emulator, flow, 'error:temporarily_unavailable')).status).toBe(303);
    const redirect = await approve(emulator, flow);
    expect(Object.fromEntries(redirect.searchParams)).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'Service temporarily unavailable',
      state: 'state-error',
      iss: TEST_BASE_URL,
    });
    expect(await emulator.control.flowAnswers('state-error')).toEqual({
      faults: [],
      error: { error: 'temporarily_unavailable', description: 'Service temporarily unavailable' },
    });
  });

  it('goes back to the normal answer, disarming a fault chosen before', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const flow = await openFlow(emulator, 'state-normal');
    await choose(emulator, flow, 'fault:wrong_state');
    await choose(emulator, flow, 'normal');
    const redirect = await approve(emulator, flow);
    expect(redirect.searchParams.get('state')).toBe('state-normal');
    expect(redirect.searchParams.has('code')).toBe(true);
    expect(await emulator.control.flowAnswers('state-normal')).toEqual({ faults: [] });
  });

  it('refuses a cross-site post, another browser, and an answer it does not offer', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const flow = await openFlow(emulator, 'state-refused');
    expect((await choose(emulator, flow, 'fault:wrong_nonce', { Origin: 'https://attacker.example' })).status).toBe(403);
    expect((await choose(emulator, flow, 'fault:wrong_nonce', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await choose(emulator, { ...flow, browser: 'not-the-secret' }, 'fault:wrong_nonce')).status).toBe(403);
    expect((await choose(emulator, flow, 'fault:par_server_error')).status).toBe(400);
    expect((await choose(emulator, flow, 'error:invalid_client')).status).toBe(400);
    const redirect = await approve(emulator, flow);
    expect(redirect.searchParams.get('state')).toBe('state-refused');
  });

  it('follows the panel’s access: hidden and refused until this browser signs in to a panel with a password', async () => {
    const emulator = createTestEmulator({ clients: [client], panel: { mode: 'password', password: PASSWORD } });
    const flow = await openFlow(emulator, 'state-password');
    expect(flow.html).not.toContain('data-testid="qa-answer"');
    const refused = await choose(emulator, flow, 'error:server_error');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('sign in to it first');

    const signIn = await emulator.handle(formPost(`${emulator.baseUrl}/panel`, { action: 'sign_in', password: PASSWORD }));
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const page = await emulator.handle(
      new Request(`${emulator.baseUrl}/auth/page?interaction=${flow.interaction}&browser=${flow.browser}`, { headers: { cookie } }),
    );
    expect(await page.text()).toContain('data-testid="qa-answer"');
    expect((await choose(emulator, flow, 'error:server_error', { cookie })).status).toBe(303);
    expect((await approve(emulator, flow)).searchParams.get('error')).toBe('server_error');
  });

  it('is not offered on a read-only panel', async () => {
    const emulator = createTestEmulator({ clients: [client], panel: { mode: 'read-only', reason: 'production' } });
    const flow = await openFlow(emulator, 'state-read-only');
    expect(flow.html).not.toContain('data-testid="qa-answer"');
    expect((await choose(emulator, flow, 'error:server_error')).status).toBe(403);
  });
});

describe('emulator.control.flowAnswers', () => {
  it('has nothing for a flow answered normally', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const flow = await openFlow(emulator, 'state-plain');
    await approve(emulator, flow);
    expect(await emulator.control.flowAnswers('state-plain')).toEqual({ faults: [] });
  });

  it.each([
    ['empty', ''],
    ['very long', 'x'.repeat(100_000)],
    ['lone surrogates and control characters', '\ud800\u0000\n\u202e'],
    ['an object member name', '__proto__'],
    ['a key-like string', 'fault:wrong_nonce'],
  ])('answers a state that is %s without an error', async (_name, state) => {
    const emulator = createTestEmulator({ clients: [client] });
    await expect(emulator.control.flowAnswers(state)).resolves.toEqual({ faults: [] });
  });

  it('answers a value that is not a string (plain JavaScript) without an error', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    await expect(emulator.control.flowAnswers(42 as unknown as string)).resolves.toEqual({ faults: [] });
  });
});

describe('describeFault', () => {
  it('gives the panel’s label and effect of every fault, in English and Norwegian', () => {
    for (const fault of FAULTS) {
      expect(describeFault(fault.id, 'en')).toEqual({ label: fault.label, effect: fault.effect });
      expect(describeFault(fault.id, 'nb')).toEqual(PANEL_MESSAGES.nb.faultTexts[fault.id]);
    }
    expect(describeFault('wrong_nonce', 'nb').label).not.toBe(describeFault('wrong_nonce', 'en').label);
  });

  it('refuses an unknown fault or language', () => {
    expect(() => describeFault('nope' as never, 'en')).toThrow(/unknown fault/);
    expect(() => describeFault('wrong_nonce', 'sv' as never)).toThrow(/unknown locale/);
  });
});
