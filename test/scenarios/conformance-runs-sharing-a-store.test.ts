/**
 * Two conformance runs against one emulator deployment of two instances on one Redis (two CI jobs
 * against a shared staging emulator): the run lock and the faults a run arms as its own hold
 * across the instances, through the QA API, with the store's atomic `SET … NX` deciding races.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import { TEST_BASE_URL, createTestClient, type TestClient } from '@/test/support/emulator';
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

/** A QA API request as the kit sends it: JSON, no Origin. */
function qa(method: string, path: string, body?: unknown): Request {
  return new Request(`${TEST_BASE_URL}/qa/${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

describe('two conformance runs against two emulator instances on one Redis', () => {
  it('take the run lock one at a time: of two racing, one gets 200 and the other 409 with Retry-After; the lock is the winner’s on both', async () => {
    const [first, second] = await Promise.all([
      a.handle(qa('PUT', 'lock', { owner: 'run-a', seconds: 60 })),
      b.handle(qa('PUT', 'lock', { owner: 'run-b', seconds: 60 })),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const [winner, loser] = first.status === 200 ? ['run-a', second] : ['run-b', first];
    expect(Number(loser.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(((await loser.json()) as { error: string }).error).toBe('locked');
    for (const instance of [a, b]) expect(await (await instance.handle(qa('GET', 'lock'))).json()).toMatchObject({ locked: true, owner: winner });

    // The winner renews through the other instance, then releases; the loser takes it.
    const renewed = await (first.status === 200 ? b : a).handle(qa('PUT', 'lock', { owner: winner, seconds: 120 }));
    expect(renewed.status).toBe(200);
    const { expires_at } = (await renewed.json()) as { expires_at: number };
    expect(await (await a.handle(qa('GET', 'lock'))).json()).toEqual({ locked: true, owner: winner, expires_at });
    const other = winner === 'run-a' ? 'run-b' : 'run-a';
    expect((await a.handle(qa('DELETE', `lock?owner=${other}`))).status).toBe(204);
    expect(await (await b.handle(qa('GET', 'lock'))).json()).toMatchObject({ locked: true, owner: winner });
    expect((await b.handle(qa('DELETE', `lock?owner=${winner}`))).status).toBe(204);
    expect((await a.handle(qa('PUT', 'lock', { owner: other, seconds: 60 }))).status).toBe(200);
    expect((await a.handle(qa('DELETE', `lock?owner=${other}`))).status).toBe(204);
  });

  it('arm a fault as their own one at a time, and each disarms only its own', async () => {
    const arm = (on: Emulator, armedBy: string) => on.handle(qa('PUT', 'faults/wrong_nonce', { client_id: client.clientId, armed_by: armedBy }));
    const [first, second] = await Promise.all([arm(a, 'run-a'), arm(b, 'run-b')]);
    expect([first.status, second.status].sort()).toEqual([204, 409]);
    const [winner, loser] = first.status === 204 ? ['run-a', 'run-b'] : ['run-b', 'run-a'];
    expect(await b.control.faultArming('wrong_nonce')).toEqual({ clientId: client.clientId, armedBy: winner });

    expect((await a.handle(qa('DELETE', `faults/wrong_nonce?armed_by=${loser}`))).status).toBe(204);
    expect(await b.control.armedFaults()).toEqual(['wrong_nonce']);
    expect((await b.handle(qa('DELETE', `faults/wrong_nonce?armed_by=${winner}`))).status).toBe(204);
    expect(await a.control.armedFaults()).toEqual([]);
  });
});
