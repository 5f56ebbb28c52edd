import { beforeAll, describe, expect, it, vi } from 'vitest';
import { authorize, createTestClient, createTestEmulator, openAuthorizationPage, redeemCode, type TestClient } from '@/test/support/emulator';
import type { Emulator } from '.';
import type { JwksFault } from './answer-faults';
import { EmulatorEvents, type EmulatorEventName } from './events';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

describe('EmulatorEvents', () => {
  it('awaits each listener in the order they were added, so a later one sees what an earlier one chose', async () => {
    const events = new EmulatorEvents();
    const heard: string[] = [];
    events.on('jwks.answering', async ({ faults }) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      faults.add('jwks_keys_shuffled');
      heard.push('first');
    });
    events.on('jwks.answering', ({ faults }) => {
      heard.push(`second saw ${[...faults].join(', ')}`);
    });
    const payload = { faults: new Set<JwksFault>() };
    await events.emit('jwks.answering', payload);
    expect(heard).toEqual(['first', 'second saw jwks_keys_shuffled']);
    expect([...payload.faults]).toEqual(['jwks_keys_shuffled']);
  });

  it('calls only the listeners of the event emitted, and none at all when it has none', async () => {
    const events = new EmulatorEvents();
    const heard: string[] = [];
    events.on('jwks.answered', ({ kids }) => {
      heard.push(kids.join(','));
    });
    await events.emit('jwks.answering', { faults: new Set<JwksFault>() });
    expect(heard).toEqual([]);
    await events.emit('jwks.answered', { kids: ['a', 'b'], faults: [] });
    expect(heard).toEqual(['a,b']);
  });

  it('fails the emit when a listener throws, and calls none after it', async () => {
    const events = new EmulatorEvents();
    const heard: string[] = [];
    events.on('jwks.answered', () => {
      throw new Error('store out');
    });
    events.on('jwks.answered', () => {
      heard.push('after');
    });
    await expect(events.emit('jwks.answered', { kids: [], faults: [] })).rejects.toThrow('store out');
    expect(heard).toEqual([]);
  });
});

/** Every event, so that a test listening to all of them misses none (tsc checks the list). */
const EVERY_EVENT = Object.keys({
  'pushed_authorization_request.answering': true,
  'pushed_authorization_request.answered': true,
  'interaction.starting': true,
  'interaction.started': true,
  'flow_answer.chosen': true,
  'authorization.answering': true,
  'authorization.answered': true,
  'token.answering': true,
  'id_token.answering': true,
  'token.answered': true,
  'jwks.answering': true,
  'jwks.answered': true,
} satisfies Record<EmulatorEventName, true>) as EmulatorEventName[];

/** Listens to every event of `emulator`: each one's name, and the flow's state when it names one. */
function listenToAll(emulator: Emulator): { name: EmulatorEventName; state?: string }[] {
  const heard: { name: EmulatorEventName; state?: string }[] = [];
  for (const name of EVERY_EVENT) {
    emulator.on(name, (payload) => {
      const state =
        'state' in payload
          ? payload.state
          : 'interaction' in payload
            ? payload.interaction.request.state
            : 'grant' in payload
              ? payload.grant.state
              : undefined;
      heard.push({ name, ...(state === undefined ? {} : { state }) });
    });
  }
  return heard;
}

describe("the emulator's events", () => {
  it('are heard in the order of the flow, each naming its flow, from PAR to the ID token, then the JWKS', async () => {
    const emulator = createTestEmulator({ clients: [client.registered] });
    const heard = listenToAll(emulator);
    const authorized = await authorize(emulator, client);
    expect((await redeemCode(emulator, client, authorized)).status).toBe(200);
    expect((await emulator.handle(new Request(`${emulator.baseUrl}/jwks`))).status).toBe(200);

    const state = authorized.requestClaims.state as string;
    expect(heard).toEqual([
      { name: 'pushed_authorization_request.answering', state },
      { name: 'pushed_authorization_request.answered', state },
      { name: 'interaction.starting', state },
      { name: 'interaction.started', state },
      { name: 'authorization.answering', state },
      { name: 'authorization.answered', state },
      { name: 'token.answering', state },
      { name: 'id_token.answering', state },
      { name: 'token.answered', state },
      { name: 'jwks.answering' },
      { name: 'jwks.answered' },
    ]);
  });

  it("tell of a flow's answer chosen on its pages, and of a refused request object under the state it claims", async () => {
    const emulator = createTestEmulator({ clients: [client.registered] });
    const heard = listenToAll(emulator);
    const flow = await openAuthorizationPage(emulator, client);
    const chosen = await emulator.handle(
      new Request(`${emulator.baseUrl}/app/${flow.interaction}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ browser: flow.browser, from: 'page', action: 'choose-answer', answer: 'fault:wrong_nonce' }).toString(),
      }),
    );
    expect(chosen.status).toBe(303);
    expect(heard.map(({ name }) => name)).toEqual([
      'pushed_authorization_request.answering',
      'pushed_authorization_request.answered',
      'interaction.starting',
      'interaction.started',
      'flow_answer.chosen',
    ]);
    expect(heard.at(-1)!.state).toBe(flow.requestClaims.state);
  });

  it("let the emulator's own listeners choose first: a later listener sees the fault QA armed, and the answer is made with it", async () => {
    const emulator = createTestEmulator({ clients: [client.registered] });
    await emulator.control.armFault('token_invalid_grant', client.clientId);
    const seen: string[][] = [];
    emulator.on('token.answering', ({ faults }) => {
      seen.push([...faults]);
    });
    const response = await redeemCode(emulator, client, await authorize(emulator, client));
    expect(seen).toEqual([['token_invalid_grant']]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('fail the request, as a handler would, when a listener throws', async () => {
    const emulator = createTestEmulator({ clients: [client.registered] });
    emulator.on('jwks.answering', () => {
      throw new Error('a listener failed');
    });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect((await emulator.handle(new Request(`${emulator.baseUrl}/jwks`))).status).toBe(500);
      expect(logged).toHaveBeenCalledOnce();
    } finally {
      logged.mockRestore();
    }
  });
});
