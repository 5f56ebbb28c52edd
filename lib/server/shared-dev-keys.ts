import 'server-only';
/**
 * Development client keys shared through the store, for several instances of the app in emulator
 * mode on one Redis (docs/operations.md "Client keys") when IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY
 * are not configured.
 *
 * Each instance's embedded emulator registers the client keys of that instance's configuration,
 * and a balancer sends the steps of one flow to any instance. Were each instance to generate a
 * pair of its own (the data folder makes one per machine), an assertion signed on one would be
 * refused by the emulator of the other: `invalid_client`, three flows in four with two instances.
 * So the pair lives in the store. An instance that finds none generates a candidate and offers it
 * with `setIfAbsent`, the store's atomic first-wins write; every instance, that one included,
 * then uses what is stored.
 *
 * Development keys only: they sit in Redis in the clear, and only the embedded emulator (whose
 * people are fictional) trusts them. In provider mode the keys registered with the service are
 * configured; env.ts refuses to start without them when REDIS_URL is set.
 *
 * A running instance cannot change its keys (its emulator registered them at start-up), so the
 * stored pair must outlive every instance that uses it. The store requires a TTL: 30 days, which
 * each running instance renews every ten minutes and whenever it reconnects to Redis (and with it
 * puts the pair back if Redis lost it), in one atomic step that never overwrites another pair.
 * The pair therefore expires 30 days after the last instance using it stopped.
 */
import { CLIENT_SIGNING_ALGORITHMS, generateClientKeys, type GeneratedClientKeys } from '@/lib/oidc';
import type { Store } from '@/lib/store/store';

/** The key of the pair in the store (under IDV_REDIS_PREFIX: `idv:dev-client-keys` by default). */
export const SHARED_DEV_KEYS_STORE_KEY = 'dev-client-keys';
/** How long the pair stays after its last renewal. */
export const SHARED_DEV_KEYS_TTL_SECONDS = 30 * 24 * 3600;
/** How often a running instance renews it. */
export const SHARED_DEV_KEYS_RENEWAL_MS = 10 * 60 * 1000;

export interface SharedDevKeys {
  keys: GeneratedClientKeys;
  /** true when this call stored the pair (the first instance), false when it found another's */
  createdHere: boolean;
}

/** What a renewal found: its own pair (renewed), none (put back), or another instance's. */
export type SharedDevKeysRenewal = 'renewed' | 'restored' | 'different';

function isPrivateJwk(value: unknown): value is Record<string, unknown> & { kid: string; d: string } {
  if (typeof value !== 'object' || value === null) return false;
  const jwk = value as Record<string, unknown>;
  return typeof jwk.kid === 'string' && jwk.kid !== '' && typeof jwk.d === 'string';
}

/** Whether a stored value is a key pair as `generateClientKeys` makes them. */
function isKeyPair(value: unknown): value is GeneratedClientKeys {
  if (typeof value !== 'object' || value === null) return false;
  const { signingKey, encryptionKey } = value as Partial<Record<keyof GeneratedClientKeys, unknown>>;
  return (
    isPrivateJwk(signingKey) &&
    (CLIENT_SIGNING_ALGORITHMS as readonly unknown[]).includes(signingKey.alg) &&
    isPrivateJwk(encryptionKey) &&
    encryptionKey.kty === 'RSA'
  );
}

/**
 * The development key pair every instance on this store uses: the stored one, renewed for
 * another 30 days; or, when none is stored, a new one offered with `setIfAbsent`, where of
 * instances racing exactly one stores its candidate and the others use that one.
 * @param generate makes the candidate (an ES256 signing key and an RSA encryption key)
 * @throws Error when what is stored is not a key pair (its message says what to do; the caller
 *   names the key), or StoreError when the store cannot answer
 */
export async function loadOrShareDevKeys(
  store: Store,
  generate: () => Promise<GeneratedClientKeys> = () => generateClientKeys('ES256'),
): Promise<SharedDevKeys> {
  // The pair can change between two steps (it vanished, and another instance stored one): each
  // round starts again from a read.
  for (let round = 0; round < 3; round += 1) {
    const stored = await store.get<unknown>(SHARED_DEV_KEYS_STORE_KEY);
    if (stored !== undefined) {
      if (!isKeyPair(stored)) {
        throw new Error(
          'what is stored there is not a development key pair: delete that key (a new pair is then generated) or set IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY',
        );
      }
      // The very pair read, for another full TTL (or back, had it just vanished), unless another
      // pair was stored since the read: one atomic step, so it never overwrites that one.
      if ((await store.renew(SHARED_DEV_KEYS_STORE_KEY, stored, SHARED_DEV_KEYS_TTL_SECONDS)) !== 'different') return { keys: stored, createdHere: false };
      continue;
    }
    const candidate = await generate();
    if (await store.setIfAbsent(SHARED_DEV_KEYS_STORE_KEY, candidate, SHARED_DEV_KEYS_TTL_SECONDS)) return { keys: candidate, createdHere: true };
    // Another instance stored its pair first: the next round reads and uses it.
  }
  throw new Error('the pair kept changing in the store while it was being read');
}

/**
 * Renews this instance's pair in the store for another 30 days, or puts it back when the store
 * lost it (expired, evicted, or a Redis restarted empty), so that an instance starting later finds
 * the pair the running ones registered. Another pair stored meanwhile (after such a loss another
 * instance started first and stored a new one) is left alone: `different`, and this instance no
 * longer matches the ones that use it until it restarts. One atomic compare-and-renew
 * (`Store.renew`): of instances renewing while another stores a pair, none overwrites it.
 */
export async function renewSharedDevKeys(store: Store, keys: GeneratedClientKeys): Promise<SharedDevKeysRenewal> {
  const outcome = await store.renew(SHARED_DEV_KEYS_STORE_KEY, keys, SHARED_DEV_KEYS_TTL_SECONDS);
  return outcome === 'stored' ? 'restored' : outcome;
}

/**
 * Renews the pair every ten minutes while this process runs (the timer never keeps it alive),
 * and at once each time the store is reached again after an outage, since a Redis that restarted
 * without its data has lost the pair: put back then, it is there for the next instance to start,
 * rather than a new pair of that instance's. Says in the log when the pair had to be put back
 * and, loudly, when another pair has replaced it.
 * @param where the pair's full key, for the log (e.g. `idv:dev-client-keys`)
 * @param reconnected subscribes a listener to the store's reconnections (`RedisStore.onReconnect`)
 *   and returns what unsubscribes it
 * @returns stops the renewals
 */
export function keepSharedDevKeys(store: Store, keys: GeneratedClientKeys, where: string, reconnected?: (listener: () => void) => () => void): () => void {
  const renew = async () => {
    try {
      const outcome = await renewSharedDevKeys(store, keys);
      if (outcome === 'restored') {
        console.warn(
          `[idv] the shared development keys had gone from the store (expired, evicted, or Redis restarted empty): put this instance's back under ${where}`,
        );
      } else if (outcome === 'different') {
        console.error(
          `[idv] the store holds other development keys under ${where} than this instance signs with (signing key ${keys.signingKey.kid}): the embedded emulators of instances started since register those, so flows crossing instances fail with invalid_client. Restart this instance, or set IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY on every instance.`,
        );
      }
    } catch {
      // The store logs its own outage; the next renewal tries again.
    }
  };
  const timer = setInterval(() => void renew(), SHARED_DEV_KEYS_RENEWAL_MS);
  timer.unref();
  const unsubscribe = reconnected?.(() => void renew());
  return () => {
    clearInterval(timer);
    unsubscribe?.();
  };
}
