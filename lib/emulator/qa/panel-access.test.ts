import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@/test/support/redis-server';
import { MemoryStore } from '../../store/memory-store';
import { RedisStore } from '../../store/redis-store';
import type { Store } from '../../store/store';
import { createPanelGate, FREE_WRONG_PASSWORDS, SIGN_IN_ATTEMPTS, SIGN_IN_IDLE_SECONDS, SIGN_IN_MAX_SECONDS, type PanelGate } from './panel-access';

const PASSWORD = 'correct horse battery';
const ISSUER = 'http://127.0.0.1:3000/emulator';
const GUESSER = '127.0.0.2';
const QA = '127.0.0.1';

let redis: RedisServer;
const opened: RedisStore[] = [];
let prefixes = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis.close();
});

/**
 * Two instances of one emulator: two gates on one store. In memory they share the store object;
 * on Redis each has a connection of its own to one redis-server, as two app instances do.
 */
const STORES: Record<string, () => Promise<[Store, Store]>> = {
  memory: async () => {
    const store = new MemoryStore();
    return [store, store];
  },
  redis: async () => {
    const prefix = `panel-access-${++prefixes}:`;
    const stores = [await RedisStore.connect({ url: redis.url, prefix }), await RedisStore.connect({ url: redis.url, prefix })] as const;
    opened.push(...stores);
    return [...stores];
  },
};

/** Two gates (instances) on one store, with one clock the test moves. */
async function twoInstances(kind: string): Promise<{ one: PanelGate; two: PanelGate; clock: { now: number } }> {
  const [first, second] = await STORES[kind]!();
  const clock = { now: Date.UTC(2026, 11, 1, 9) };
  const gate = (store: Store) => createPanelGate({ mode: 'password', password: PASSWORD }, store, ISSUER, () => clock.now);
  return { one: gate(first), two: gate(second), clock };
}

describe.each(Object.keys(STORES))('the panel’s sign-in back-off, per client address, in the %s store', (kind) => {
  it('makes the address that guessed wait, on every instance, and lets another address sign in at once', async () => {
    const { one, two } = await twoInstances(kind);
    for (let wrong = 0; wrong <= FREE_WRONG_PASSWORDS; wrong++) expect(await one.signIn('a wrong guess!', GUESSER)).toEqual({ reason: 'wrong_password' });
    // The fourth wrong password made the guesser wait 2 s, on the other instance too, right password or not.
    expect(await two.signIn(PASSWORD, GUESSER)).toEqual({ reason: 'too_many_attempts', retryAfterSeconds: 2 });
    expect(await one.signIn(PASSWORD, GUESSER)).toEqual({ reason: 'too_many_attempts', retryAfterSeconds: 2 });
    // QA, from another address, is not held back by it, on either instance.
    expect(await two.signIn(PASSWORD, QA)).toHaveProperty('setCookie');
    expect(await one.signIn(PASSWORD, QA)).toHaveProperty('setCookie');
  });

  it('keeps nobody else waiting while two addresses guess once a minute each, for half an hour', async () => {
    const { one, two, clock } = await twoInstances(kind);
    const signedIn: number[] = [];
    for (let minute = 0; minute < 30; minute++) {
      for (const [gate, address] of [
        [one, '192.0.2.10'],
        [two, '192.0.2.11'],
      ] as const) {
        // Guessing: refused as a wrong password, or told to wait; never signed in.
        expect(await gate.signIn(`guess ${minute} guess`, address)).not.toHaveProperty('setCookie');
      }
      // Every five minutes QA signs in from its own address, within its own limit, at once.
      if (minute % 5 === 4) {
        const outcome = await (minute % 10 === 4 ? one : two).signIn(PASSWORD, QA);
        expect(outcome, `minute ${minute}`).toHaveProperty('setCookie');
        signedIn.push(minute);
      }
      clock.now += 60_000;
    }
    expect(signedIn).toHaveLength(6);
  });

  it('lets an address that guessed sign in once its own wait is over, and its right password ends its back-off', async () => {
    const { one, two, clock } = await twoInstances(kind);
    for (let wrong = 0; wrong <= FREE_WRONG_PASSWORDS; wrong++) await one.signIn('a wrong guess!', QA);
    expect(await two.signIn(PASSWORD, QA)).toEqual({ reason: 'too_many_attempts', retryAfterSeconds: 2 });
    clock.now += 2_000;
    expect(await two.signIn(PASSWORD, QA)).toHaveProperty('setCookie');
    // Back to three free wrong passwords before a wait.
    for (let wrong = 0; wrong <= FREE_WRONG_PASSWORDS; wrong++) expect(await one.signIn('a wrong guess!', QA)).toEqual({ reason: 'wrong_password' });
    expect(await one.signIn(PASSWORD, QA)).toMatchObject({ reason: 'too_many_attempts' });
  });

  it('counts each address’s attempts on its own: one over its limit leaves another’s untouched', async () => {
    const { one, two, clock } = await twoInstances(kind);
    for (let attempt = 0; attempt < SIGN_IN_ATTEMPTS; attempt++) {
      expect(await (attempt % 2 ? one : two).signIn(`guess ${attempt} guess`, GUESSER)).toEqual({ reason: 'wrong_password' });
      clock.now += 61_000; // past any back-off
    }
    expect(await one.signIn(PASSWORD, GUESSER)).toMatchObject({ reason: 'too_many_attempts' });
    expect(await two.signIn(PASSWORD, QA)).toHaveProperty('setCookie');
  });
});

describe.each(Object.keys(STORES))('a panel sign-in, in the %s store', (kind) => {
  /** The panel's cookie from a sign-in, as a browser sends it back; and a request that carries it. */
  async function signedIn(gate: PanelGate): Promise<Request> {
    const outcome = await gate.signIn(PASSWORD, QA);
    if (!('setCookie' in outcome)) throw new Error(`not signed in: ${JSON.stringify(outcome)}`);
    return new Request(ISSUER, { headers: { cookie: outcome.setCookie.split(';')[0]! } });
  }

  it('ends after an hour without use, on every instance; each use on either instance renews it', async () => {
    const { one, two, clock } = await twoInstances(kind);
    const browser = await signedIn(one);
    // Used at 59 minutes on the other instance, then 59 minutes after that on the first: still on.
    clock.now += 59 * 60_000;
    expect(await two.state(browser)).toBe('signed-in');
    clock.now += 59 * 60_000;
    expect(await one.state(browser)).toBe('signed-in');
    // An hour without use: ended, on both.
    clock.now += SIGN_IN_IDLE_SECONDS * 1000;
    expect(await two.state(browser)).toBe('signed-out');
    expect(await one.state(browser)).toBe('signed-out');
  });

  it('ends 12 hours after it began however often it is used, and its cookie lasts no longer', async () => {
    const { one, two, clock } = await twoInstances(kind);
    const outcome = await one.signIn(PASSWORD, QA);
    expect('setCookie' in outcome && outcome.setCookie).toMatch(new RegExp(`; Max-Age=${SIGN_IN_MAX_SECONDS};`));
    const browser = await signedIn(one);
    const began = clock.now;
    // Used every half hour, on one instance and then the other, up to the last moment.
    for (let use = 1; use < (2 * SIGN_IN_MAX_SECONDS) / 3600; use++) {
      clock.now = began + use * 30 * 60_000;
      expect(await (use % 2 ? one : two).state(browser), `${use / 2} h`).toBe('signed-in');
    }
    clock.now = began + SIGN_IN_MAX_SECONDS * 1000 - 1;
    expect(await one.state(browser)).toBe('signed-in');
    clock.now = began + SIGN_IN_MAX_SECONDS * 1000;
    expect(await two.state(browser)).toBe('signed-out');
  });

  it('signing out on one instance ends it on the other, and a use there does not bring it back', async () => {
    const { one, two } = await twoInstances(kind);
    const browser = await signedIn(one);
    expect(await two.state(browser)).toBe('signed-in');
    await one.signOut(browser);
    expect(await two.state(browser)).toBe('signed-out');
    expect(await one.state(browser)).toBe('signed-out');
  });
});
