import 'server-only';
/**
 * The health endpoints (docs/operations.md "Health and shutdown"): `GET /healthz` says the process is alive;
 * `GET /readyz` says whether it can serve verifications: the configuration is valid and the
 * store answers and takes new work. Their JSON carries no secrets: no URLs, keys or client identifiers.
 */
import { randomUUID } from 'node:crypto';
import { isStoreError, type Store } from '@/lib/store/store';
import { ConfigurationError, type ServerConfig } from './env';
import { isStopping } from './graceful-stop';
import { services } from './services';

export interface Readiness {
  status: 'ready' | 'not_ready';
  /** which checks passed, or the stable code of the one that failed */
  checks: { configuration: 'ok' | 'invalid'; store: 'ok' | 'store_unavailable' | 'store_full' | 'not_checked' };
  /** where state lives, once known */
  store?: 'memory' | 'redis';
  mode?: 'emulator' | 'provider';
  /** the process is stopping (graceful-stop.ts): it finishes what it has, and takes nothing new */
  stopping?: true;
}

type ReadinessInputs = { config: Pick<ServerConfig, 'mode' | 'state'>; store: Pick<Store, 'ping' | 'set' | 'delete'> };

/**
 * What the readiness check writes (and deletes at once): as much as a verified result with its
 * portrait takes, so a store that would refuse the next result is not called ready.
 */
export const PROBE_BYTES = 96 * 1024;
const probe = 'x'.repeat(PROBE_BYTES);

/** Runs the readiness checks on the services (`load`, the process's own by default); never throws. */
export async function readiness(load: () => Promise<ReadinessInputs> = services): Promise<Readiness> {
  if (isStopping()) return { status: 'not_ready', checks: { configuration: 'ok', store: 'not_checked' }, stopping: true };
  let built;
  try {
    built = await load();
  } catch (error) {
    if (!(error instanceof ConfigurationError)) console.error('[idv] readiness: the services cannot be built', error);
    return { status: 'not_ready', checks: { configuration: 'invalid', store: 'not_checked' } };
  }
  const { config, store } = built;
  const base = { store: config.state.store, mode: config.mode } as const;
  try {
    await store.ping();
    // A store that answers may still refuse work (the memory store at its budget): write as a
    // result would, for a few seconds at most.
    const key = `readiness-probe:${randomUUID()}`;
    await store.set(key, probe, 5);
    await store.delete(key);
    return { status: 'ready', checks: { configuration: 'ok', store: 'ok' }, ...base };
  } catch (error) {
    if (!isStoreError(error)) console.error('[idv] readiness: the store check failed unexpectedly', error);
    const code = isStoreError(error) && error.code === 'store_full' ? 'store_full' : 'store_unavailable';
    return { status: 'not_ready', checks: { configuration: 'ok', store: code }, ...base };
  }
}
