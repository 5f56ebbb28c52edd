import 'server-only';
/**
 * Process-wide instances built from the configuration: the relying party (with its discovery and
 * JWKS caches), the embedded emulator (emulator mode only), and the stores. Kept on `globalThis`
 * so that dev reloads keep them.
 */
import { createEmulator, type Emulator } from '@/lib/emulator';
import { clientPublicJwks, DiscoveryCache, JwksCache, type FetchLike, type RelyingParty } from '@/lib/oidc';
import { MemoryStore } from '@/lib/store/memory-store';
import { RedisStore } from '@/lib/store/redis-store';
import { namespaced, type Store } from '@/lib/store/store';
import { ConfigurationError, DEMO_LOGO_PATH, emulatorProductionNotice, type ServerConfig } from './env';
import { serverConfig } from './configuration';
import { startFlowListener } from './flow-listener';
import { clientAddress } from './client-address';
import { storeExpAllocator } from './client-assertion-exps';
import { emulatorDiagnostics } from './emulator-diagnostics';
import { createFailureRecorder, type FailureRecorder } from './failure-records';
import { createStartLimiter, type StartLimiter } from './rate-limits';
import { recordStore, type RecordStore } from './result-store';
import { keepSharedDevKeys } from './shared-dev-keys';
import type { FlowDiagnostics } from '@/lib/verification/diagnostics';
import type { FailureRecord, PendingFlow, VerificationResult } from '@/lib/verification/stored';

/** The process-wide instances, built once from the configuration. */
export interface Services {
  config: ServerConfig;
  relyingParty: RelyingParty;
  emulator: Emulator | null;
  /** what the embedded emulator did on purpose to a flow, for the failure page (none for a real service) */
  diagnostics: FlowDiagnostics | undefined;
  /** the state layer: memory (one instance) or Redis (several) */
  store: Store;
  results: RecordStore<VerificationResult>;
  /** failure records, in their own space: a memory budget of their own, or Redis (failure-records.ts) */
  failures: RecordStore<FailureRecord>;
  /** keeps failure records within their limits */
  failureRecorder: FailureRecorder;
  /** every store that holds records a browser owns (sign-out deletes them from each) */
  ownedStores: Store[];
  /** each pending flow (its secrets, what it asked for, its trace so far), by state, until its callback */
  flows: RecordStore<PendingFlow>;
  /** the id of each browser's newest result, by session binding */
  resultOfBrowser: RecordStore<string>;
  /** rate limits of POST /auth/start, counted in the same store */
  startLimiter: StartLimiter;
}

/** The configured store; an unreachable Redis stops the start-up with a message naming REDIS_URL. */
async function openStore(state: ServerConfig['state']): Promise<Store> {
  if (state.store === 'memory') return new MemoryStore({ budgetBytes: state.budgetMiB * MIB });
  try {
    return await RedisStore.connect({ url: state.url, prefix: state.prefix });
  } catch (error) {
    throw new ConfigurationError('REDIS_URL', (error as Error).message);
  }
}

const MIB = 1024 * 1024;

/**
 * Where failure records live: in memory, a store of their own with an eighth of the budget (so a
 * flood of them never takes the room of flows and results); on Redis, the shared store, where
 * their count and size are bounded (failure-records.ts).
 */
function failureRecordStore(state: ServerConfig['state'], store: Store): Store {
  return state.store === 'memory' ? new MemoryStore({ budgetBytes: Math.max(1, state.budgetMiB / 8) * MIB }) : store;
}

const globalForServices = globalThis as typeof globalThis & { __idvServices?: Promise<Services> };

/**
 * The services of `config`. `services()` builds the process's once; a test builds its own, with
 * a `fetch` of its own for the relying party's back-channel calls (to hand them to an emulator
 * without a server) and a store of its own.
 */
export async function createServices(config: ServerConfig, options: { fetch?: FetchLike; store?: Store } = {}): Promise<Services> {
  const http = { allowInsecureRequests: config.allowInsecureRequests, ...(options.fetch ? { fetch: options.fetch } : {}) };
  const store = options.store ?? (await openStore(config.state));
  const relyingParty: RelyingParty = {
    issuer: config.issuer,
    client: config.client,
    // An authorization endpoint the discovery document leaves out comes from the flow URL.
    discovery: new DiscoveryCache({ ...http, ...(config.flowUrl ? { flowUrl: config.flowUrl } : {}) }),
    jwks: new JwksCache(http),
    http,
    populationRegisterName: config.populationRegisterName,
    ...(config.idTokenEncryption ? { idTokenEncryption: config.idTokenEncryption } : {}),
    // An EdDSA key's assertions claim their exp seconds in the store: with Redis, every instance
    // signing with the key never makes one another instance made.
    expAllocator: storeExpAllocator(store),
  };
  const emulator =
    config.mode === 'emulator'
      ? createEmulator({
          // Its own keys in the same store: with Redis, every instance serves every step of a flow.
          store: namespaced(store, 'emulator:'),
          baseUrl: config.issuer,
          deviceBaseUrl: config.emulatorDeviceUrl,
          ...(config.emulatorFlow ? { flowBaseUrl: config.emulatorFlow.baseUrl } : {}),
          // Its rate limits count per client address, as far as TRUST_PROXY lets X-Forwarded-For tell.
          clientAddress: (request) => clientAddress(request.headers, config.trustedProxies),
          rateLimits: config.emulatorRateLimits,
          panel: config.emulatorPanel,
          // IDV_CUSTOMER_MODE: nothing of QA's on the pages a customer sees, the emulator's included.
          flowAnswerChooser: !config.customerMode,
          populationRegisterName: config.emulatorPopulationRegisterName,
          strict: config.emulatorStrict,
          redirectIss: config.emulatorRedirectIss,
          clients: [
            {
              clientId: config.client.clientId,
              // A name, not a phrase: the emulator's pages say it in English and in Norwegian.
              // IDV_DEMO_NAME and IDV_DEMO_LOGO give the demo the customer's name and logo there too.
              name: config.demo.name ?? 'IDV Demo',
              ...(config.demo.logo ? { logoUri: `${config.appUrl}${DEMO_LOGO_PATH}` } : {}),
              jwks: clientPublicJwks(config.client),
              redirectUris: [config.redirectUri],
              populationRegister: true,
            },
            ...config.extraEmulatorClients,
          ],
        })
      : null;
  if (config.generated.length > 0) {
    console.warn(`[idv] using generated development values from ${config.dataDir} for: ${config.generated.join(', ')}`);
  }
  if (config.sharedDevKeys) {
    const { variables, keys, storeKey, createdHere } = config.sharedDevKeys;
    const kids = variables.map((name) => `${name} (kid ${name === 'IDV_SIGNING_KEY' ? keys.signingKey.kid : keys.encryptionKey.kid})`);
    console.warn(
      `[idv] using shared development keys from the store for: ${kids.join(', ')}; stored under ${storeKey} by ${createdHere ? 'this instance' : 'the instance that started first'}. Every instance on this Redis signs with them and its embedded emulator registers them (development only: set IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY for real use)`,
    );
    // Renewed while this instance runs, and as soon as Redis is back from an outage, so that one
    // starting later finds the same pair.
    keepSharedDevKeys(store, keys, storeKey, store instanceof RedisStore ? (renew) => store.onReconnect(renew) : undefined);
  }
  console.info(`[idv] ${config.mode} mode; issuer ${config.issuer}; client ${config.client.clientId}`);
  console.info(`[idv] state: ${store.description}`);
  if (emulator) {
    console.info('[idv] the embedded emulator keeps its state (flows, signing keys, faults, entitlements) in the same store');
    if (config.emulatorStrict) console.info('[idv] the embedded emulator starts strict (EMULATOR_STRICT): it refuses whatever the spec does not list or shape');
  }
  if (emulator && config.emulatorFlow) {
    await startFlowListener(emulator, config.emulatorFlow.baseUrl, config.emulatorFlow.listen);
    console.info(`[idv] the embedded emulator's authorization endpoint is advertised on its own origin: ${config.emulatorFlow.baseUrl}/auth`);
  }
  const failureStore = failureRecordStore(config.state, store);
  const failures = recordStore<FailureRecord>(failureStore, 'failure');
  const notice = emulatorProductionNotice(config);
  if (notice) console.warn(`[idv] ${notice}`);
  return {
    config,
    relyingParty,
    emulator,
    diagnostics: emulator ? emulatorDiagnostics(emulator, config.client.clientId) : undefined,
    store,
    results: recordStore<VerificationResult>(store, 'result'),
    failures,
    failureRecorder: createFailureRecorder(failures, store),
    ownedStores: [...new Set([store, failureStore])],
    flows: recordStore<PendingFlow>(store, 'flow'),
    resultOfBrowser: recordStore<string>(store, 'browser-result'),
    startLimiter: createStartLimiter(store, { ...config.startLimits, windowSeconds: 60 }),
  };
}

export function services(): Promise<Services> {
  globalForServices.__idvServices ??= serverConfig()
    .then((config) => createServices(config))
    .catch((error: unknown) => {
      globalForServices.__idvServices = undefined;
      throw error;
    });
  return globalForServices.__idvServices;
}
