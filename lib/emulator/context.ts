/**
 * Everything one emulator instance holds: its issuer, clients, clock, keys and the in-memory
 * state of flows in progress (its shapes are in state.ts). Handlers receive it instead of
 * reaching for globals, so two emulators (e.g. in tests) never share state.
 * @see spec part 3 (the objects a flow produces, in order)
 */
import { base64url } from 'jose';
import { isStoreError, type Store } from '../store/store';
import { isIdTokenEncryption, registeredIdTokenEncryption, type RegisteredClient } from './clients';
import { POPULATION_REGISTER_NAME } from './checks/claims-request';
import { ENDPOINT_PATHS, ID_TOKEN_CONTENT_ENCRYPTIONS, ID_TOKEN_ENCRYPTION_ALGORITHMS, type IdTokenEncryption } from './config';
import { EmulatorEvents } from './events';
import { FaultSwitchboard } from './qa/faults';
import { FlowTraces } from './qa/flow-trace';
import { createPanelGate, type PanelAccess, type PanelGate } from './qa/panel-access';
import type { AuthorizationCodeGrant, Interaction, PushedRequest, UsedFlow } from './state';
import { Records } from './store';
import { openSigningKeyRing, type SigningKeyCache, type SigningKeyRing } from './tokens/signing-keys';

/** The full discovery document, or a minimal one without endpoints (endpoints/discovery.ts). */
export type DiscoveryShape = 'full' | 'minimal';

/** One emulator instance's configuration and state, passed to every handler. @see spec part 3, part 4 */
export interface EmulatorContext {
  /** the base URL = the issuer, without a trailing slash */
  readonly issuer: string;
  /** the base URL as a phone on the same network reaches it (the QR code); same path as the issuer */
  readonly deviceBaseUrl: string;
  readonly clients: ReadonlyMap<string, RegisteredClient>;
  /** clock in ms */
  now(): number;
  /** the signing keys, read from the store (created there on first use, shared by every instance on it) */
  signingKeys(): Promise<SigningKeyRing>;
  /**
   * 2.3: population-register evidence is "enabled per client". Starts as registered and may be
   * changed at run time (control API); the registration objects themselves stay untouched.
   */
  populationRegisterEnabled(clientId: string): Promise<boolean>;
  /** @throws Error for a client_id that is not registered */
  setPopulationRegister(clientId: string, enabled: boolean): Promise<void>;
  /**
   * What the handlers tell the rest of the emulator (events.ts): they emit, and the listeners
   * createEmulator registers (QA's faults and flow log) do the rest.
   */
  readonly events: EmulatorEvents;
  /** the one-shot faults armed for QA (qa/faults.ts); the handlers reach them through `events` only */
  readonly faults: FaultSwitchboard;
  /** each flow's protocol trace, the flows of each client and the JWKS responses, for the QA API (qa/flow-trace.ts); written by the flow log's listeners */
  readonly traces: FlowTraces;
  /** the secret mixed into pairwise subject identifiers: one per state store, so every instance sharing it agrees */
  subjectSalt(): Promise<Uint8Array>;
  readonly pushedRequests: Records<PushedRequest>;
  readonly interactions: Records<Interaction>;
  /** the secret of the one device bound to an interaction's QR link, claimed once (setIfAbsent) */
  readonly interactionDevices: Records<string>;
  readonly authorizationCodes: Records<AuthorizationCodeGrant>;
  /** used-up request_uris (`request_uri:<uri>`) and completed interactions (`interaction:<id>`): whose they were (state.ts UsedFlow) */
  readonly usedFlows: Records<UsedFlow>;
  /** replay detection for client assertions (spec 2.1: a new assertion for each request) */
  readonly usedClientAssertions: Records<true>;
  /** who may use the QA panel's actions (qa/panel-access.ts) */
  readonly panel: PanelGate;
  /** whether the pages offer the choice of how one flow is answered (EmulatorOptions.flowAnswerChooser) */
  readonly flowAnswerChooser: boolean;
  /** the name population-register evidence must carry in `record.source.name` (spec 2.3) */
  readonly populationRegisterName: string;
  /** `{flow_url}` (part 4): the base URL the authorization endpoint is advertised under; same path as the issuer */
  readonly flowBaseUrl: string;
  /** which discovery document is served (QA: a sparse one tests a relying party's fallbacks) */
  discoveryShape(): Promise<DiscoveryShape>;
  setDiscoveryShape(shape: DiscoveryShape): Promise<void>;
  /**
   * The strict level (DECISIONS.md "Levels"): anything the spec does not list or shape is
   * refused. Read once per request and passed to the checks. While the store is out, the
   * `strict` option's value.
   */
  strict(): Promise<boolean>;
  setStrict(on: boolean): Promise<void>;
  /**
   * Whether the redirect to the client carries `iss` (RFC 9207) and discovery advertises it.
   * While the store is out, the `redirectIss` option's value.
   */
  redirectIss(): Promise<boolean>;
  setRedirectIss(on: boolean): Promise<void>;
  /**
   * How ID tokens to this client are encrypted (spec 2.5): as registered, or as QA set since.
   * While the store is out, as registered. @throws Error for a client that is not registered
   */
  idTokenEncryption(clientId: string): Promise<IdTokenEncryption>;
  /** @throws Error for a client that is not registered or a variant the emulator cannot issue */
  setIdTokenEncryption(clientId: string, encryption: IdTokenEncryption): Promise<void>;
  /** the client address of a request, as the host sees it (rate limits, panel sign-in attempts) */
  clientAddress(request: Request): string;
}

/** A changed entitlement holds for a month, then the registration applies again. */
const ENTITLEMENT_TTL_SECONDS = 30 * 24 * 3600;

/** The subject salt lives as long as any instance may run: pairwise `sub` values must not change. */
const SUBJECT_SALT_TTL_SECONDS = 10 * 365 * 24 * 3600;

/** Creates the state of one emulator instance. */
export function createContext(options: {
  issuer: string;
  deviceBaseUrl?: string;
  clients: readonly RegisteredClient[];
  now: () => number;
  /** where all its state is kept (createEmulator's option, or this instance's memory) */
  store: Store;
  /** who may use the QA panel's actions; default open */
  panel?: PanelAccess;
  /** default true */
  flowAnswerChooser?: boolean;
  /** default: one address for all requests */
  clientAddress?: (request: Request) => string;
  /** default POPULATION_REGISTER_NAME */
  populationRegisterName?: string;
  /** default: the issuer */
  flowBaseUrl?: string;
  /** the level until QA switches it; default false */
  strict?: boolean;
  /** whether the redirect carries `iss` until QA switches it; default true */
  redirectIss?: boolean;
}): EmulatorContext {
  const { issuer, now, store } = options;
  let subjectSalt: Promise<Uint8Array> | undefined;
  const signingKeyCache: SigningKeyCache = new Map();
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));
  const registeredEntitlement = new Map(options.clients.map((client) => [client.clientId, client.populationRegister]));
  const initialStrict = options.strict ?? false;
  const initialRedirectIss = options.redirectIss ?? true;
  const registeredClient = (clientId: string): RegisteredClient => {
    const client = clients.get(clientId);
    if (!client) throw new Error(`client '${clientId}' is not registered`);
    return client;
  };
  return {
    issuer,
    deviceBaseUrl: options.deviceBaseUrl ?? issuer,
    clients,
    now,
    signingKeys: () => openSigningKeyRing(store, now, signingKeyCache),
    // Kept in the store, so a change on one instance's panel holds on every instance.
    async populationRegisterEnabled(clientId) {
      return (await store.get<boolean>(`entitlement:${clientId}`)) ?? registeredEntitlement.get(clientId) ?? false;
    },
    async setPopulationRegister(clientId, enabled) {
      if (!clients.has(clientId)) throw new Error(`client '${clientId}' is not registered`);
      await store.set(`entitlement:${clientId}`, enabled, ENTITLEMENT_TTL_SECONDS);
    },
    events: new EmulatorEvents(),
    faults: new FaultSwitchboard(store, now),
    traces: new FlowTraces(store, now),
    subjectSalt() {
      subjectSalt ??= (async () => {
        // The first instance to ask makes it; the others read that one.
        const made = base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
        await store.setIfAbsent('subject-salt', made, SUBJECT_SALT_TTL_SECONDS);
        const salt = await store.get<string>('subject-salt');
        if (salt === undefined) throw new Error('the subject salt vanished from the store');
        return base64url.decode(salt);
      })().catch((error: unknown) => {
        subjectSalt = undefined;
        throw error;
      });
      return subjectSalt;
    },
    pushedRequests: new Records(store, 'par', now),
    interactions: new Records(store, 'interaction', now),
    interactionDevices: new Records(store, 'interaction-device', now),
    authorizationCodes: new Records(store, 'code', now),
    usedFlows: new Records(store, 'used-flow', now),
    usedClientAssertions: new Records(store, 'assertion', now),
    panel: createPanelGate(options.panel ?? { mode: 'open' }, store, issuer, now),
    flowAnswerChooser: options.flowAnswerChooser ?? true,
    populationRegisterName: options.populationRegisterName ?? POPULATION_REGISTER_NAME,
    flowBaseUrl: options.flowBaseUrl ?? issuer,
    // Kept in the store, as entitlements are: a switch on one instance's panel holds on all.
    async discoveryShape() {
      return (await store.get<DiscoveryShape>('discovery-shape')) ?? 'full';
    },
    async setDiscoveryShape(shape) {
      await store.set('discovery-shape', shape, ENTITLEMENT_TTL_SECONDS);
    },
    // The settings below are kept in the store as well; while it is out, the configured value
    // holds, so a setting never turns a request the store is not needed for into a 503.
    strict: () => readSetting(store, 'strict', initialStrict, isBoolean),
    async setStrict(on) {
      await store.set('strict', checkBoolean(on, 'strict'), ENTITLEMENT_TTL_SECONDS);
    },
    redirectIss: () => readSetting(store, 'redirect-iss', initialRedirectIss, isBoolean),
    async setRedirectIss(on) {
      await store.set('redirect-iss', checkBoolean(on, 'redirectIss'), ENTITLEMENT_TTL_SECONDS);
    },
    async idTokenEncryption(clientId) {
      const registered = registeredIdTokenEncryption(registeredClient(clientId));
      return readSetting(store, `id-token-encryption:${clientId}`, registered, isIdTokenEncryption);
    },
    async setIdTokenEncryption(clientId, encryption) {
      registeredClient(clientId);
      if (!isIdTokenEncryption(encryption)) {
        throw new Error(
          `unsupported ID token encryption ${JSON.stringify(encryption)}; alg is one of ${ID_TOKEN_ENCRYPTION_ALGORITHMS.join(', ')} and enc one of ${ID_TOKEN_CONTENT_ENCRYPTIONS.join(', ')}`,
        );
      }
      await store.set(`id-token-encryption:${clientId}`, { alg: encryption.alg, enc: encryption.enc }, ENTITLEMENT_TTL_SECONDS);
    },
    clientAddress: (request) => (options.clientAddress?.(request) ?? 'all').slice(0, 64),
  };
}

/**
 * A QA setting from the store, or `fallback` when it was never set, holds a value of another
 * shape, or the store is out (the setting then is as configured; nothing else is at stake).
 */
async function readSetting<T>(store: Store, key: string, fallback: T, valid: (value: unknown) => value is T): Promise<T> {
  try {
    const value = await store.get<unknown>(key);
    return valid(value) ? value : fallback;
  } catch (error) {
    if (isStoreError(error)) return fallback;
    throw error;
  }
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

/** @throws Error for a value that is not a boolean (callers from plain JavaScript are not type-checked) */
function checkBoolean(value: unknown, name: string): boolean {
  if (!isBoolean(value)) throw new Error(`${name} must be true or false, not ${JSON.stringify(value)}`);
  return value;
}

/** The absolute URL of an endpoint. @see spec part 4 */
export function endpointUrl(context: Pick<EmulatorContext, 'issuer'>, endpoint: keyof typeof ENDPOINT_PATHS): string {
  return context.issuer + ENDPOINT_PATHS[endpoint];
}

/** The issuer's path, "" when the issuer is an origin: links and forms that must stay on the page's origin use it. */
export function basePathOf(context: Pick<EmulatorContext, 'issuer'>): string {
  const { pathname } = new URL(context.issuer);
  return pathname === '/' ? '' : pathname;
}

/** The current time in whole seconds, as JWT NumericDates are. */
export function nowSeconds(context: Pick<EmulatorContext, 'now'>): number {
  return Math.floor(context.now() / 1000);
}
