import 'server-only';
/**
 * The configuration as the app runs with it: the environment parsed (env.ts, which reads nothing
 * else), then what it asks to be read at start-up: this machine's LAN address, the demo's logo
 * file, and the development secrets (the data folder's, or the shared store's with REDIS_URL).
 * Missing secrets are generated once into the data folder (IDV_DATA_DIR, default `.data`), except
 * the session secret wherever several instances may share cookies (production, Redis), and the
 * client keys with REDIS_URL: in emulator mode the development pair in the shared store, the same
 * for every instance; in provider mode none.
 */
import { readFile, stat } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import type { GeneratedClientKeys } from '@/lib/oidc';
import { RedisStore } from '@/lib/store/redis-store';
import { loadOrCreateDevKeys, loadOrCreateSessionSecret } from './data-folder';
import {
  checkDemoLogo,
  clientKeysOf,
  ConfigurationError,
  MAX_DEMO_LOGO_BYTES,
  parseServerConfig,
  type DemoLogo,
  type ParsedConfig,
  type ServerConfig,
} from './env';
import { loadOrShareDevKeys, SHARED_DEV_KEYS_STORE_KEY } from './shared-dev-keys';

/** The first non-internal IPv4 address of this machine, if it has one. */
function lanAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    const lan = addresses?.find((address) => address.family === 'IPv4' && !address.internal);
    if (lan) return lan.address;
  }
  return undefined;
}

/** IDV_DEMO_LOGO's file, read once (relative paths from the working folder) and checked by its bytes. */
async function readDemoLogo({ path, raw }: NonNullable<ParsedConfig['demoLogo']>): Promise<DemoLogo> {
  let bytes: Uint8Array;
  try {
    const { size, isFile } = await stat(path).then((stats) => ({ size: stats.size, isFile: stats.isFile() }));
    if (!isFile) throw new ConfigurationError('IDV_DEMO_LOGO', `"${raw}" is not a file`);
    if (size > MAX_DEMO_LOGO_BYTES)
      throw new ConfigurationError('IDV_DEMO_LOGO', `must be at most ${MAX_DEMO_LOGO_BYTES / 1024} KiB (the file has ${size} bytes)`);
    bytes = new Uint8Array(await readFile(path));
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
    throw new ConfigurationError('IDV_DEMO_LOGO', `cannot read "${raw}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  // read, then checked again: the file may have changed between the two
  return checkDemoLogo(bytes);
}

/**
 * The development key pair in the shared store (shared-dev-keys.ts), through a connection of its
 * own that is closed again: services.ts opens the store the app uses once the configuration is read.
 */
async function sharedDevKeys(state: { url: string; prefix: string }) {
  let store: RedisStore;
  try {
    store = await RedisStore.connect(state);
  } catch (error) {
    throw new ConfigurationError('REDIS_URL', (error as Error).message);
  }
  try {
    return await loadOrShareDevKeys(store);
  } catch (error) {
    throw new ConfigurationError('REDIS_URL', `the shared development keys under '${state.prefix}${SHARED_DEV_KEYS_STORE_KEY}': ${(error as Error).message}`);
  } finally {
    await store.close();
  }
}

/** Reads and validates the whole configuration, then reads or makes what it names (see above). */
export async function loadServerConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Promise<ServerConfig> {
  const { config, sessionSecret: configuredSecret, demoLogo: logoFile, keys } = await parseServerConfig(env, { cwd, lanAddress: lanAddress() });
  const { clientId, demo, ...rest } = config;
  const generated: string[] = [];
  let sessionSecret = configuredSecret;
  if (sessionSecret === undefined) {
    sessionSecret = await loadOrCreateSessionSecret(config.dataDir);
    generated.push('SESSION_SECRET');
  }
  const logo = logoFile ? await readDemoLogo(logoFile) : undefined;
  // Last, once everything else is valid: the keys may be generated, or fetched from Redis.
  let development: GeneratedClientKeys | undefined;
  let shared: ServerConfig['sharedDevKeys'];
  if (keys.development?.from === 'shared-store' && config.state.store === 'redis') {
    const found = await sharedDevKeys(config.state);
    development = found.keys;
    shared = {
      variables: keys.development.variables,
      keys: found.keys,
      storeKey: `${config.state.prefix}${SHARED_DEV_KEYS_STORE_KEY}`,
      createdHere: found.createdHere,
    };
  } else if (keys.development) {
    development = await loadOrCreateDevKeys(config.dataDir);
    generated.push(...keys.development.variables);
  }
  return {
    ...rest,
    client: { clientId, redirectUri: config.redirectUri, ...clientKeysOf(keys, development) },
    sessionSecret,
    generated,
    ...(shared ? { sharedDevKeys: shared } : {}),
    demo: { ...demo, ...(logo ? { logo } : {}) },
  };
}

const globalForConfig = globalThis as typeof globalThis & { __idvServerConfig?: Promise<ServerConfig> };

/** The process-wide configuration, loaded on first use. */
export function serverConfig(): Promise<ServerConfig> {
  globalForConfig.__idvServerConfig ??= loadServerConfig().catch((error: unknown) => {
    // Not cached: a passing failure (say, a file the data folder could not write) is retried.
    globalForConfig.__idvServerConfig = undefined;
    throw error;
  });
  return globalForConfig.__idvServerConfig;
}
