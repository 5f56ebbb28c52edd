/**
 * The Redis store, for several instances behind a balancer or a serverless host where any request
 * may land on any instance. Uses node-redis (`@redis/client`, maintained by Redis itself): no
 * protocol code of our own. TTLs are Redis's own (`SET … PX`); `take` is `GETDEL` and
 * `setIfAbsent` is `SET … NX`, each one atomic command, so two instances racing on one key cannot
 * both win. Every key is written under a prefix, so deployments can share a Redis.
 *
 * An outage never hangs a request: commands are not queued while disconnected and time out after
 * two seconds, failing with `store_unavailable`; the client reconnects in the background, so the
 * first request after Redis returns works without a restart.
 */
import { createClient } from '@redis/client';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { asLimiter, checkLimit } from './limiter';
import { StoreError, checkTtl, serialise, type Limiter, type Renewal, type Store } from './store';

/**
 * setOwned: KEYS[1] the key, KEYS[2] its owner's set; ARGV[1] the value, ARGV[2] its TTL in ms.
 * The set's members are full key names (the keys the app writes, under this store's prefix).
 */
const SET_OWNED = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], KEYS[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return 1`;

/**
 * deleteOwned: KEYS[1] the owner's set. Deletes the keys it names (written by setOwned under this
 * prefix; a standalone Redis, as this store expects, lets a script reach keys it did not declare).
 */
const DELETE_OWNED = `
local deleted = 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do deleted = deleted + redis.call('DEL', key) end
redis.call('DEL', KEYS[1])
return deleted`;

/**
 * renew: KEYS[1] the key; ARGV[1] the value, ARGV[2] its TTL in ms. The TTL starts again when the
 * value stored is this one, byte for byte; the value is stored when none is; another is left alone.
 */
const RENEW = `
local current = redis.call('GET', KEYS[1])
if current == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 'stored'
end
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 'renewed'
end
return 'different'`;

/** How long a command may take before the request it serves gets `store_unavailable`. */
const COMMAND_TIMEOUT_MS = 2000;
/** How long start-up waits for the first connection. */
const CONNECT_TIMEOUT_MS = 5000;

export interface RedisStoreOptions {
  /** `redis://` or `rediss://` URL (user, password and database number as Redis URLs carry them) */
  url: string;
  /** prefix of every key, e.g. "idv:" */
  prefix: string;
}

/** The URL without its password, for messages and the readiness check. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(not a URL)';
  }
}

/**
 * Checks the form of a Redis URL.
 * @returns a sentence saying what is wrong, or undefined when it is fine
 */
export function redisUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be a redis:// or rediss:// URL';
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') return `must use redis:// or rediss://, not ${parsed.protocol}//`;
  if (!parsed.hostname) return 'must name a host';
  if (parsed.pathname !== '' && parsed.pathname !== '/' && !/^\/\d{1,2}$/.test(parsed.pathname))
    return 'may only carry a database number as its path (e.g. /0)';
  return undefined;
}

function createRedisClient(url: string) {
  return createClient({
    url,
    // While disconnected, fail at once instead of queueing (a queued command would hang its request).
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Keep trying in the background, at most every two seconds, for as long as the server runs.
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000),
    },
  });
}

type Client = ReturnType<typeof createRedisClient>;

export class RedisStore implements Store {
  readonly description: string;
  readonly #client: Client;
  readonly #commands: ReturnType<Client['withCommandOptions']>;
  readonly #prefix: string;
  #lastErrorLogAt = 0;

  private constructor(client: Client, options: RedisStoreOptions) {
    this.#client = client;
    this.#commands = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS });
    this.#prefix = options.prefix;
    this.description = `Redis at ${redactRedisUrl(options.url)} (keys under '${options.prefix}'; shared by every instance)`;
  }

  /**
   * Connects, and fails if Redis cannot be reached within five seconds.
   * @throws Error whose message names the URL without its password
   */
  static async connect(options: RedisStoreOptions): Promise<RedisStore> {
    const client = createRedisClient(options.url);
    const store = new RedisStore(client, options);
    client.on('error', (error: unknown) => store.#logError(error));
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
        }),
      ]);
      await client.ping();
    } catch (error) {
      client.destroy();
      throw new Error(`cannot connect to Redis at ${redactRedisUrl(options.url)}: ${(error as Error).message}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    return store;
  }

  async get<T>(key: string): Promise<T | undefined> {
    const text = await this.#run(() => this.#commands.get(this.#prefix + key));
    return text === null ? undefined : (JSON.parse(String(text)) as T);
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    const text = serialise(value);
    const ms = Math.ceil(checkTtl(ttlSeconds) * 1000);
    await this.#run(() => this.#commands.set(this.#prefix + key, text, { expiration: { type: 'PX', value: ms } }));
  }

  async setIfAbsent(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    const text = serialise(value);
    const ms = Math.ceil(checkTtl(ttlSeconds) * 1000);
    const reply = await this.#run(() => this.#commands.set(this.#prefix + key, text, { expiration: { type: 'PX', value: ms }, condition: 'NX' }));
    return reply === 'OK';
  }

  async take<T>(key: string): Promise<T | undefined> {
    const text = await this.#run(() => this.#commands.getDel(this.#prefix + key));
    return text === null ? undefined : (JSON.parse(String(text)) as T);
  }

  async replace(key: string, value: unknown, ttlSeconds: number): Promise<boolean> {
    const text = serialise(value);
    const ms = Math.ceil(checkTtl(ttlSeconds) * 1000);
    const reply = await this.#run(() => this.#commands.set(this.#prefix + key, text, { expiration: { type: 'PX', value: ms }, condition: 'XX' }));
    return reply === 'OK';
  }

  /** One Lua script, so atomic: compare with what is stored, then renew it or store it, or leave another value alone. */
  async renew(key: string, value: unknown, ttlSeconds: number): Promise<Renewal> {
    const text = serialise(value);
    const ms = Math.ceil(checkTtl(ttlSeconds) * 1000);
    const reply = await this.#run(() => this.#commands.eval(RENEW, { keys: [this.#prefix + key], arguments: [text, String(ms)] }));
    return String(reply) as Renewal;
  }

  async delete(key: string): Promise<void> {
    await this.#run(() => this.#commands.del(this.#prefix + key));
  }

  /**
   * One Lua script, so atomic: SET the key, add it to the owner's set (`<prefix>owned:<owner>`),
   * and make the set live at least as long as the key.
   */
  async setOwned(owner: string, key: string, value: unknown, ttlSeconds: number): Promise<void> {
    const text = serialise(value);
    const ms = Math.ceil(checkTtl(ttlSeconds) * 1000);
    await this.#run(() => this.#commands.eval(SET_OWNED, { keys: [this.#prefix + key, `${this.#prefix}owned:${owner}`], arguments: [text, String(ms)] }));
  }

  /** One Lua script, so atomic: DEL every key in the owner's set, then the set. */
  async deleteOwned(owner: string): Promise<number> {
    const deleted = await this.#run(() => this.#commands.eval(DELETE_OWNED, { keys: [`${this.#prefix}owned:${owner}`] }));
    return Number(deleted);
  }

  /**
   * Counted by rate-limiter-flexible's RateLimiterRedis on this connection (its own atomic Lua
   * script), under `<prefix>rate:<name>`. While Redis is away it refuses at once with
   * `store_unavailable` rather than wait for a reconnection.
   */
  limiter(name: string, points: number, windowSeconds: number): Limiter {
    checkLimit(points, windowSeconds);
    return asLimiter(
      new RateLimiterRedis({
        storeClient: this.#client,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        keyPrefix: `${this.#prefix}rate:${name}`,
        points,
        duration: windowSeconds,
      }),
    );
  }

  /**
   * Calls `listener` each time the connection is made again after it was lost (Redis restarted,
   * perhaps without its data, or the network came back): node-redis's `ready` event, which the
   * first connection has already fired.
   * @returns stops the calls
   */
  onReconnect(listener: () => void): () => void {
    this.#client.on('ready', listener);
    return () => void this.#client.off('ready', listener);
  }

  async ping(): Promise<void> {
    await this.#run(() => this.#commands.ping());
  }

  async close(): Promise<void> {
    if (this.#client.isOpen) await this.#client.close().catch(() => this.#client.destroy());
  }

  /** Drops the connection at once (for a process that is exiting and can no longer wait). */
  destroy(): void {
    if (this.#client.isOpen) this.#client.destroy();
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new StoreError('store_unavailable', `the shared store (Redis) did not answer: ${(error as Error).message}`, 5, { cause: error });
    }
  }

  /** Connection errors repeat while Redis is down: one line every ten seconds is enough. */
  #logError(error: unknown): void {
    const now = Date.now();
    if (now - this.#lastErrorLogAt < 10_000) return;
    this.#lastErrorLogAt = now;
    console.error(`[idv] Redis: ${(error as Error).message ?? error}`);
  }
}
