import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Emulator } from '@/lib/emulator';
import {
  clientPublicJwks,
  completeAuthorization,
  DEFAULT_SELECTION,
  DiscoveryCache,
  generateClientKeys,
  JwksCache,
  startAuthorization,
  type FetchLike,
  type GeneratedClientKeys,
  type RelyingParty,
} from '@/lib/oidc';
import { MemoryStore } from '@/lib/store/memory-store';
import { RedisStore } from '@/lib/store/redis-store';
import { namespaced, type Store } from '@/lib/store/store';
import { createTestEmulator } from '@/test/support/emulator';
import { startRedisServer, type RedisServer } from '@/test/support/redis-server';
import { type ServerConfig } from './env';
import { loadServerConfig } from './configuration';
import {
  keepSharedDevKeys,
  loadOrShareDevKeys,
  renewSharedDevKeys,
  SHARED_DEV_KEYS_RENEWAL_MS,
  SHARED_DEV_KEYS_STORE_KEY,
  SHARED_DEV_KEYS_TTL_SECONDS,
  type SharedDevKeys,
} from './shared-dev-keys';

let server: RedisServer;
let raw: ReturnType<typeof createClient>;
const opened: RedisStore[] = [];
let prefixes = 0;

beforeAll(async () => {
  server = await startRedisServer();
  raw = createClient({ url: server.url });
  await raw.connect();
});
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await raw.close();
  await server.close();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A prefix of each test's own, as IDV_REDIS_PREFIX gives each deployment on one Redis its own. */
const freshPrefix = () => `keys-${(prefixes += 1)}:`;

/** A connection of its own: what one instance of the app has. */
async function connect(prefix: string): Promise<RedisStore> {
  const store = await RedisStore.connect({ url: server.url, prefix });
  opened.push(store);
  return store;
}

/**
 * One instance's configuration, read as at its start-up: emulator mode, REDIS_URL set, no client
 * keys configured, and a data folder of its own (another machine, or another container).
 */
async function startInstance(prefix: string, extra: Record<string, string> = {}): Promise<ServerConfig> {
  const cwd = await mkdtemp(join(tmpdir(), 'idv-instance-'));
  return loadServerConfig({ REDIS_URL: server.url, IDV_REDIS_PREFIX: prefix, SESSION_SECRET: 's'.repeat(32), ...extra }, cwd);
}

/** One instance's embedded emulator, registering its own configuration's client as services.ts does, its state in the shared store. */
function emulatorOf(config: ServerConfig, store: RedisStore): Emulator {
  return createTestEmulator({
    baseUrl: config.issuer,
    store: namespaced(store, 'emulator:'),
    clients: [
      {
        clientId: config.client.clientId,
        name: 'IDV Demo',
        jwks: clientPublicJwks(config.client),
        redirectUris: [config.redirectUri],
        populationRegister: true,
      },
    ],
  });
}

/** One instance's relying party, whose requests to "its" emulator go to `service` (another instance, as a balancer sends them). */
function relyingPartyOf(config: ServerConfig, service: Emulator): RelyingParty {
  const fetch: FetchLike = async (input, init) => service.handle(new Request(input, init));
  const http = { allowInsecureRequests: config.allowInsecureRequests, fetch };
  return { issuer: config.issuer, client: config.client, discovery: new DiscoveryCache(http), jwks: new JwksCache(http), http };
}

/** The browser on the authorization page of `service`: picks a persona, approves, and returns the callback's parameters. */
async function approve(service: Emulator, authorizationUrl: string): Promise<URLSearchParams> {
  const page = await service.handle(new Request(authorizationUrl));
  expect(page.status).toBe(200);
  const html = (await page.text()).split('<form').find((part) => part.includes('name="persona"')) ?? '';
  const action = /^[^>]*action="([^"]+)"/.exec(html)?.[1];
  const interaction = /name="interaction"[^>]*value="([^"]+)"/.exec(html)?.[1] ?? /value="([^"]+)"[^>]*name="interaction"/.exec(html)?.[1];
  expect(action && interaction).toBeTruthy();
  const decision = await service.handle(
    new Request(new URL(action!.replaceAll('&amp;', '&'), authorizationUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        interaction: interaction!,
        browser: /name="browser" value="([^"]+)"/.exec(html)?.[1] ?? '',
        persona: 'ingrid-haugen',
        outcome: 'approve',
      }),
    }),
  );
  expect(decision.status).toBe(303);
  return new URL(decision.headers.get('location')!).searchParams;
}

describe('two instances on one Redis with no client keys configured', () => {
  it('start at the same moment and end up with the same keys from the store, none in their data folders', async () => {
    const prefix = freshPrefix();
    const [one, two] = await Promise.all([startInstance(prefix), startInstance(prefix)]);
    expect(two.client.signingKey).toEqual(one.client.signingKey);
    expect(two.client.encryptionKey).toEqual(one.client.encryptionKey);
    expect([one.sharedDevKeys?.createdHere, two.sharedDevKeys?.createdHere].sort()).toEqual([false, true]);
    for (const config of [one, two]) {
      expect(config.sharedDevKeys).toMatchObject({ variables: ['IDV_SIGNING_KEY', 'IDV_ENCRYPTION_KEY'], storeKey: `${prefix}dev-client-keys` });
      expect(config.generated).toEqual([]);
      expect(existsSync(join(config.dataDir, 'dev-client-keys.json'))).toBe(false);
    }
    // One started later, after a restart say, finds them too.
    const three = await startInstance(prefix);
    expect(three.client.signingKey).toEqual(one.client.signingKey);
    expect(three.sharedDevKeys?.createdHere).toBe(false);
  });

  it('complete a verification whose every step alternates between them: each one’s emulator accepts the other’s client', async () => {
    const prefix = freshPrefix();
    const [one, two] = await Promise.all([startInstance(prefix), startInstance(prefix)]);
    const [emulatorOne, emulatorTwo] = [emulatorOf(one, await connect(prefix)), emulatorOf(two, await connect(prefix))];
    // PAR from instance one's relying party lands on instance two's emulator (client assertion and request object).
    const started = await startAuthorization(relyingPartyOf(one, emulatorTwo), DEFAULT_SELECTION);
    const callback = await approve(emulatorOne, started.authorizationUrl);
    // The callback lands on instance two, whose token request lands on instance one's emulator,
    // which encrypted the ID token to the key its own configuration registered.
    const completed = await completeAuthorization(relyingPartyOf(two, emulatorOne), callback, started.pending);
    expect(completed.verifiedClaims[0]?.claims).toMatchObject({ name: 'Ingrid Solberg Haugen' });
  });

  it('renew the stored pair to 30 days whenever one starts', async () => {
    const prefix = freshPrefix();
    await startInstance(prefix);
    const key = `${prefix}${SHARED_DEV_KEYS_STORE_KEY}`;
    expect(await raw.pTTL(key)).toBeGreaterThan((SHARED_DEV_KEYS_TTL_SECONDS - 60) * 1000);
    await raw.pExpire(key, 60_000);
    await startInstance(prefix);
    expect(await raw.pTTL(key)).toBeGreaterThan((SHARED_DEV_KEYS_TTL_SECONDS - 60) * 1000);
  });

  it('share only what is not configured, and touch neither the store nor the data folder when both keys are', async () => {
    const configured = await generateClientKeys('ES256');
    const prefix = freshPrefix();
    const half = await startInstance(prefix, { IDV_SIGNING_KEY: JSON.stringify(configured.signingKey) });
    expect(half.client.signingKey).toEqual(configured.signingKey);
    expect(half.sharedDevKeys?.variables).toEqual(['IDV_ENCRYPTION_KEY']);
    expect(half.client.encryptionKey).toEqual(half.sharedDevKeys?.keys.encryptionKey);

    const other = freshPrefix();
    const whole = await startInstance(other, {
      IDV_SIGNING_KEY: JSON.stringify(configured.signingKey),
      IDV_ENCRYPTION_KEY: JSON.stringify(configured.encryptionKey),
    });
    expect(whole.sharedDevKeys).toBeUndefined();
    expect(await raw.exists(`${other}${SHARED_DEV_KEYS_STORE_KEY}`)).toBe(0);
    expect(existsSync(join(whole.dataDir, 'dev-client-keys.json'))).toBe(false);
  });

  it('refuse to start on a stored value that is not a key pair, naming REDIS_URL and the key to delete', async () => {
    const prefix = freshPrefix();
    await raw.set(`${prefix}${SHARED_DEV_KEYS_STORE_KEY}`, JSON.stringify({ signingKey: { kty: 'EC', kid: 'k' } }));
    await expect(startInstance(prefix)).rejects.toThrow(
      new RegExp(
        `^REDIS_URL: the shared development keys under '${prefix}dev-client-keys': what is stored there is not a development key pair: delete that key`,
      ),
    );
  });
});

describe('loadOrShareDevKeys', () => {
  it('lets exactly one of instances racing with candidates of their own store its candidate, and gives every one that one', async () => {
    const prefix = freshPrefix();
    const base = await generateClientKeys('ES256');
    const racers = 8;
    // Every racer has read "nothing stored" before any offers its candidate: a true race on setIfAbsent.
    let release!: () => void;
    const allHaveRead = new Promise<void>((resolve) => (release = resolve));
    let reading = 0;
    const candidate = (index: number) => async (): Promise<GeneratedClientKeys> => {
      reading += 1;
      if (reading === racers) release();
      await allHaveRead;
      return {
        signingKey: { ...base.signingKey, kid: `candidate-${index}-sig` },
        encryptionKey: { ...base.encryptionKey, kid: `candidate-${index}-enc` },
      };
    };
    const stores = await Promise.all(Array.from({ length: racers }, () => connect(prefix)));
    const results = await Promise.all(stores.map((store, index) => loadOrShareDevKeys(store, candidate(index))));
    expect(reading).toBe(racers);
    expect(results.filter((result) => result.createdHere)).toHaveLength(1);
    const winner = results.find((result) => result.createdHere)!.keys.signingKey.kid;
    expect(new Set(results.map((result) => result.keys.signingKey.kid))).toEqual(new Set([winner]));
    expect(new Set(results.map((result) => result.keys.encryptionKey.kid))).toEqual(new Set([winner.replace(/-sig$/, '-enc')]));
  });

  it('keeps the same contract on the in-memory store (one instance)', async () => {
    const store = new MemoryStore();
    const first = await loadOrShareDevKeys(store);
    const again = await loadOrShareDevKeys(store);
    expect(first.createdHere).toBe(true);
    expect(again).toEqual({ keys: first.keys, createdHere: false });
    await store.close();
  });
});

describe('renewSharedDevKeys', () => {
  it('renews the pair an instance runs with for another 30 days', async () => {
    const prefix = freshPrefix();
    const store = await connect(prefix);
    const { keys } = await loadOrShareDevKeys(store);
    await raw.pExpire(`${prefix}${SHARED_DEV_KEYS_STORE_KEY}`, 60_000);
    expect(await renewSharedDevKeys(store, keys)).toBe('renewed');
    expect(await raw.pTTL(`${prefix}${SHARED_DEV_KEYS_STORE_KEY}`)).toBeGreaterThan((SHARED_DEV_KEYS_TTL_SECONDS - 60) * 1000);
  });

  it('puts back a pair the store lost while instances ran, so that one started afterwards gets the same keys', async () => {
    const prefix = freshPrefix();
    const running = await connect(prefix);
    const { keys } = await loadOrShareDevKeys(running);
    // Expired, evicted, or a Redis restarted without persistence.
    await raw.del(`${prefix}${SHARED_DEV_KEYS_STORE_KEY}`);
    expect(await renewSharedDevKeys(running, keys)).toBe('restored');
    const later = await loadOrShareDevKeys(await connect(prefix));
    expect(later).toEqual({ keys, createdHere: false });
  });

  it('leaves alone another pair stored after such a loss, and says so', async () => {
    const prefix = freshPrefix();
    const running = await connect(prefix);
    const { keys } = await loadOrShareDevKeys(running);
    await raw.del(`${prefix}${SHARED_DEV_KEYS_STORE_KEY}`);
    const started = await loadOrShareDevKeys(await connect(prefix));
    expect(started.createdHere).toBe(true);
    expect(await renewSharedDevKeys(running, keys)).toBe('different');
    expect((await loadOrShareDevKeys(await connect(prefix))).keys.signingKey.kid).toBe(started.keys.signingKey.kid);
  });
});

/**
 * The store of an instance whose first command is followed, before its answer reaches the caller,
 * by `meanwhile`: what other instances do in that instant, between one step of this instance and
 * its next. The commands still go to the real Redis.
 */
function withMeanwhile(store: RedisStore, meanwhile: () => Promise<void>): Store {
  let happened = false;
  return new Proxy(store, {
    get(target, property) {
      const member = Reflect.get(target, property, target) as unknown;
      if (typeof member !== 'function') return member;
      return async (...args: unknown[]) => {
        const answer = await (member as (...args: unknown[]) => Promise<unknown>).apply(target, args);
        if (!happened) {
          happened = true;
          await meanwhile();
        }
        return answer;
      };
    },
  });
}

describe('two instances racing on the stored pair (a real Redis)', () => {
  it('a renewal never overwrites the pair an instance started meanwhile stored, after the old one was lost', async () => {
    const prefix = freshPrefix();
    const key = `${prefix}${SHARED_DEV_KEYS_STORE_KEY}`;
    const running = await connect(prefix);
    const { keys } = await loadOrShareDevKeys(running);
    let started: SharedDevKeys | undefined;
    const renewal = await renewSharedDevKeys(
      withMeanwhile(running, async () => {
        // The pair is lost (Redis restarted empty), and an instance starting stores a pair of its own.
        await raw.del(key);
        started = await loadOrShareDevKeys(await connect(prefix));
      }),
      keys,
    );
    expect(started?.createdHere).toBe(true);
    // The new instance's pair stays: the one every instance started from now on finds.
    expect(JSON.parse((await raw.get(key))!)).toEqual(started!.keys);
    expect((await loadOrShareDevKeys(await connect(prefix))).keys).toEqual(started!.keys);
    // Renewed before that instant, told of the other pair at the next renewal.
    expect(renewal).toBe('renewed');
    expect(await renewSharedDevKeys(running, keys)).toBe('different');
  });

  it('an instance starting never brings back the pair it read over one stored meanwhile, and uses that one', async () => {
    const prefix = freshPrefix();
    const key = `${prefix}${SHARED_DEV_KEYS_STORE_KEY}`;
    const { keys: lost } = await loadOrShareDevKeys(await connect(prefix));
    let stored: SharedDevKeys | undefined;
    const starting = await loadOrShareDevKeys(
      withMeanwhile(await connect(prefix), async () => {
        await raw.del(key);
        stored = await loadOrShareDevKeys(await connect(prefix));
      }),
    );
    expect(stored?.createdHere).toBe(true);
    expect(stored!.keys).not.toEqual(lost);
    expect(starting).toEqual({ keys: stored!.keys, createdHere: false });
    expect(JSON.parse((await raw.get(key))!)).toEqual(stored!.keys);
  });

  it('of two instances with different pairs renewing at once after the pair was lost, exactly one puts its pair back', async () => {
    const prefix = freshPrefix();
    const key = `${prefix}${SHARED_DEV_KEYS_STORE_KEY}`;
    const [one, two] = [await connect(prefix), await connect(prefix)];
    const [keysOne, keysTwo] = [await generateClientKeys('ES256'), await generateClientKeys('ES256')];
    for (let round = 0; round < 10; round += 1) {
      await raw.del(key);
      const outcomes = await Promise.all([renewSharedDevKeys(one, keysOne), renewSharedDevKeys(two, keysTwo)]);
      expect([...outcomes].sort()).toEqual(['different', 'restored']);
      const winner = outcomes[0] === 'restored' ? keysOne : keysTwo;
      expect(JSON.parse((await raw.get(key))!)).toEqual(winner);
      // Both renew again: the winner renews, the other still finds another pair.
      expect(await Promise.all([renewSharedDevKeys(one, keysOne), renewSharedDevKeys(two, keysTwo)])).toEqual(
        outcomes.map((outcome) => (outcome === 'restored' ? 'renewed' : 'different')),
      );
    }
  });
});

describe('keepSharedDevKeys', () => {
  it('puts the pair back as soon as a Redis restarted without its data is reached again, not at the next renewal', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // A redis-server of this test's own, which it restarts empty.
    const restarted = await startRedisServer();
    const store = await RedisStore.connect({ url: restarted.url, prefix: 'restart:' });
    const { keys } = await loadOrShareDevKeys(store);
    const stop = keepSharedDevKeys(store, keys, 'restart:dev-client-keys', (renew) => store.onReconnect(renew));
    const check = createClient({ url: restarted.url });
    try {
      await restarted.stop();
      await restarted.start();
      await check.connect();
      // The store reconnects within two seconds; ten minutes are far off.
      await expect.poll(async () => JSON.parse((await check.get('restart:dev-client-keys')) ?? 'null'), { timeout: 8_000 }).toEqual(keys);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/had gone from the store .* put this instance's back under restart:dev-client-keys/));
    } finally {
      stop();
      check.destroy();
      store.destroy();
      await restarted.close();
    }
  });

  it('renews every ten minutes while the instance runs, saying when it put the pair back or found another', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = new MemoryStore();
    const { keys } = await loadOrShareDevKeys(store);
    const stop = keepSharedDevKeys(store, keys, 'idv:dev-client-keys');

    await store.delete(SHARED_DEV_KEYS_STORE_KEY);
    await vi.advanceTimersByTimeAsync(SHARED_DEV_KEYS_RENEWAL_MS);
    expect(await store.get(SHARED_DEV_KEYS_STORE_KEY)).toEqual(keys);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/had gone from the store .* put this instance's back under idv:dev-client-keys/));

    const other = await generateClientKeys('ES256');
    await store.set(SHARED_DEV_KEYS_STORE_KEY, other, 60);
    await vi.advanceTimersByTimeAsync(SHARED_DEV_KEYS_RENEWAL_MS);
    expect(error).toHaveBeenCalledWith(expect.stringMatching(/other development keys under idv:dev-client-keys .* Restart this instance/));
    expect(await store.get(SHARED_DEV_KEYS_STORE_KEY)).toEqual(other);

    stop();
    await store.delete(SHARED_DEV_KEYS_STORE_KEY);
    await vi.advanceTimersByTimeAsync(SHARED_DEV_KEYS_RENEWAL_MS);
    expect(await store.get(SHARED_DEV_KEYS_STORE_KEY)).toBeUndefined();
    await store.close();
  });
});
