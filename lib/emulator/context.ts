/**
 * Everything one emulator instance holds: its issuer, clients, clock, keys and the in-memory
 * state of flows in progress (its shapes are in state.ts). Handlers receive it instead of
 * reaching for globals, so two emulators (e.g. in tests) never share state.
 * @see spec part 3 (the objects a flow produces, in order)
 */
import type { RegisteredClient } from './clients';
import { ENDPOINT_PATHS } from './config';
import { FaultSwitchboard } from './qa/faults';
import type { AuthorizationCodeGrant, Interaction, PushedRequest } from './state';
import { TtlStore } from './store';
import { createSigningKeyRing, type SigningKeyRing } from './tokens/signing-keys';

/** One emulator instance's configuration and state, passed to every handler. @see spec part 3, part 4 */
export interface EmulatorContext {
  /** the base URL = the issuer, without a trailing slash */
  readonly issuer: string;
  /** the base URL as a phone on the same network reaches it (the QR code); same path as the issuer */
  readonly deviceBaseUrl: string;
  readonly clients: ReadonlyMap<string, RegisteredClient>;
  /** clock in ms */
  now(): number;
  /** the signing keys, created on first use */
  signingKeys(): Promise<SigningKeyRing>;
  /**
   * 2.3: population-register evidence is "enabled per client". Starts as registered and may be
   * changed at run time (control API); the registration objects themselves stay untouched.
   */
  populationRegisterEnabled(clientId: string): boolean;
  /** @throws Error for a client_id that is not registered */
  setPopulationRegister(clientId: string, enabled: boolean): void;
  /** the one-shot faults armed for QA (qa/faults.ts) */
  readonly faults: FaultSwitchboard;
  /** per-instance secret mixed into pairwise subject identifiers */
  readonly subjectSalt: Uint8Array;
  readonly pushedRequests: TtlStore<PushedRequest>;
  readonly interactions: TtlStore<Interaction>;
  readonly authorizationCodes: TtlStore<AuthorizationCodeGrant>;
  /** replay detection for client assertions (spec 2.1: a new assertion for each request) */
  readonly usedClientAssertions: TtlStore<true>;
}

/** Creates the state of one emulator instance. */
export function createContext(options: {
  issuer: string;
  deviceBaseUrl?: string;
  clients: readonly RegisteredClient[];
  now: () => number;
}): EmulatorContext {
  const { issuer, now } = options;
  let signingKeys: Promise<SigningKeyRing> | undefined;
  const clients = new Map(options.clients.map((client) => [client.clientId, client]));
  const populationRegister = new Map(options.clients.map((client) => [client.clientId, client.populationRegister]));
  return {
    issuer,
    deviceBaseUrl: options.deviceBaseUrl ?? issuer,
    clients,
    now,
    signingKeys() {
      signingKeys ??= createSigningKeyRing(now).catch((error: unknown) => {
        // Let the next request try again instead of caching the failure for the instance's life.
        signingKeys = undefined;
        throw error;
      });
      return signingKeys;
    },
    populationRegisterEnabled: (clientId) => populationRegister.get(clientId) ?? false,
    setPopulationRegister(clientId, enabled) {
      if (!clients.has(clientId)) throw new Error(`client '${clientId}' is not registered`);
      populationRegister.set(clientId, enabled);
    },
    faults: new FaultSwitchboard(now),
    subjectSalt: crypto.getRandomValues(new Uint8Array(32)),
    pushedRequests: new TtlStore(now),
    interactions: new TtlStore(now),
    authorizationCodes: new TtlStore(now),
    usedClientAssertions: new TtlStore(now),
  };
}

/** The absolute URL of an endpoint. @see spec part 4 */
export function endpointUrl(context: Pick<EmulatorContext, 'issuer'>, endpoint: keyof typeof ENDPOINT_PATHS): string {
  return context.issuer + ENDPOINT_PATHS[endpoint];
}

/** The current time in whole seconds, as JWT NumericDates are. */
export function nowSeconds(context: Pick<EmulatorContext, 'now'>): number {
  return Math.floor(context.now() / 1000);
}
