/**
 * The control API of one emulator instance, for QA and tests: rotate the signing keys, arm
 * one-shot faults (by hand, or as a run's, which then disarms only its own), take the run lock,
 * change a client's population-register entitlement and ID token encryption, switch the strict
 * level, the redirect's `iss` and the discovery document, and read what the instance holds. The fault panel (endpoints/panel.ts) is a form over exactly these calls.
 * @see spec 2.3 "Electronic record evidence element", 2.5, 2.7, 4.4; qa/faults.ts
 */
import { encryptionKeyOf } from '../clients';
import type { IdTokenEncryption } from '../config';
import type { DiscoveryShape, EmulatorContext } from '../context';
import type { SigningKeyStatus } from '../tokens/signing-keys';
import { faultById, isFaultId, type ChosenFlowError, type FaultArming, type FaultId, type InjectedFault, type RunLock } from './faults';
import { FLOW_ERRORS } from './flow-answers';

/** A registered client as the control API shows it: public information only. @see spec 5.3 */
export interface ClientInfo {
  clientId: string;
  name?: string;
  redirectUris: readonly string[];
  /** the entitlement now (2.3), which may differ from the registration */
  populationRegister: boolean;
  /** the client's registered signing keys (5.2) */
  signingKeys: readonly { kid: string; alg: string }[];
  /** the RSA key ID tokens are encrypted to (5.6) */
  encryptionKey: { kid: string; alg: string };
  /** how its ID tokens are encrypted now (2.5), which may differ from the registration */
  idTokenEncryption: IdTokenEncryption;
}

/** @see spec 2.7, 4.4 */
export type SigningKeyInfo = SigningKeyStatus;

/** What QA and tests may change in a running emulator. */
export interface EmulatorControl {
  /**
   * Issues a new signing key from the instance's CA and makes it current; the previous key stays
   * in the JWKS until the last ID token it signed has expired (3600 s).
   * @returns the published keys after the rotation, current first
   * @see spec 2.7, 4.4
   */
  rotateSigningKeys(): Promise<SigningKeyInfo[]>;
  /** The published keys, current first. @see spec 2.7 */
  signingKeys(): Promise<SigningKeyInfo[]>;
  /**
   * Arms a one-shot fault for the next matching response to `clientId`, or to any client
   * (arming it again replaces the scope). @throws Error for an unknown id or client
   */
  armFault(id: FaultId, clientId?: string): Promise<void>;
  /**
   * Arms a fault as `armedBy`'s (a conformance run's name, RUN_OWNER): when it is not armed, or
   * armed as `armedBy`'s already (armed again, for `clientId`); when anyone else armed it, nothing
   * changes. Two racing callers with different owners: one wins.
   * @returns `armed: false` and the arming in the way when refused
   * @throws Error for an unknown id or client, or an owner not of RUN_OWNER's form
   */
  armFaultAs(id: FaultId, clientId: string | undefined, armedBy: string): Promise<{ armed: true } | { armed: false; existing?: FaultArming }>;
  /** The client an armed fault waits for; undefined for any client (or when not armed). */
  faultScope(id: FaultId): Promise<string | undefined>;
  /** For whom and by whom a fault is armed; undefined when it is not armed. */
  faultArming(id: FaultId): Promise<FaultArming | undefined>;
  /**
   * Disarms a fault; with `armedBy`, only when it was armed as `armedBy`'s (armFaultAs).
   * @throws Error for an unknown id, or an owner not of RUN_OWNER's form
   */
  disarmFault(id: FaultId, armedBy?: string): Promise<void>;
  /**
   * Takes the deployment-wide run lock for `seconds` (RUN_LOCK_SECONDS), or renews it from now
   * when `owner` holds it: one conformance run at a time on every instance sharing the store.
   * @returns `taken: false` and the other owner's lock when someone else holds it
   * @throws Error for an owner not of RUN_OWNER's form or seconds out of range
   */
  takeRunLock(owner: string, seconds: number): Promise<{ taken: true; lock: RunLock } | { taken: false; lock?: RunLock }>;
  /** Releases the run lock when `owner` holds it; another owner's stays. */
  releaseRunLock(owner: string): Promise<void>;
  /** The run lock, while someone holds it. */
  runLock(): Promise<RunLock | undefined>;
  /** The armed faults, in the order of FAULTS. */
  armedFaults(): Promise<FaultId[]>;
  /** The most recently applied faults, newest first (at most 10). */
  injectedFaults(): Promise<InjectedFault[]>;
  /** What the emulator did on purpose to the flow with this `state`: the faults it applied, and the part 7 error chosen for it, if any. */
  flowAnswers(state: string): Promise<{ faults: readonly InjectedFault[]; error?: { error: string; description: string } }>;
  /**
   * Answers a new flow as another flow was answered (`flowAnswers`), for a relying party that asks
   * for the same request again: its faults, armed for the flow of `clientId` whose request object
   * carries `state` only (recorded as chosen `again`), and its error, kept for that flow until its
   * interaction opens. PAR faults are refused: they spoil the push that creates a flow, so they are
   * armed for the client (`armFault`) before it.
   * @throws Error for an unknown client or fault, a PAR fault, or an error the flow chooser does not offer
   */
  answerFlowAgain(state: string, clientId: string, answer: { faults: readonly FaultId[]; error?: { error: string; description: string } }): Promise<void>;
  /**
   * Grants or withdraws `electronic_record` evidence for a client (2.3: "enabled per client"),
   * on every instance sharing the store. @throws Error for a client that is not registered
   */
  setPopulationRegister(clientId: string, enabled: boolean): Promise<void>;
  /** The registered clients, in registration order. */
  clients(): Promise<ClientInfo[]>;
  /** Which discovery document is served: the full one, or a minimal one without endpoints. */
  discoveryShape(): Promise<DiscoveryShape>;
  /** Switches the discovery document, on every instance sharing the store. */
  setDiscoveryShape(shape: DiscoveryShape): Promise<void>;
  /** Whether the strict level is on: anything the spec does not list or shape is refused (DECISIONS.md "Levels"). */
  strict(): Promise<boolean>;
  /** Switches the strict level, on every instance sharing the store. @throws Error for a value that is not a boolean */
  setStrict(on: boolean): Promise<void>;
  /** Whether the redirect to the client carries `iss` (RFC 9207) and discovery advertises it. */
  redirectIss(): Promise<boolean>;
  /** Switches `iss` on the redirect, on every instance sharing the store. @throws Error for a value that is not a boolean */
  setRedirectIss(on: boolean): Promise<void>;
  /** How ID tokens to the client are encrypted now (2.5). @throws Error for a client that is not registered */
  idTokenEncryption(clientId: string): Promise<IdTokenEncryption>;
  /**
   * Changes how ID tokens to the client are encrypted, on every instance sharing the store: `alg`
   * one of ID_TOKEN_ENCRYPTION_ALGORITHMS, `enc` one of ID_TOKEN_CONTENT_ENCRYPTIONS.
   * @throws Error for a client that is not registered or a variant the emulator cannot issue
   */
  setIdTokenEncryption(clientId: string, encryption: IdTokenEncryption): Promise<void>;
}

/** The control API over one emulator instance's state. */
export function createControl(context: EmulatorContext): EmulatorControl {
  return {
    async rotateSigningKeys() {
      await (await context.signingKeys()).rotate();
      // The ring as stored now (read afresh: a ring read before the rotation is a snapshot).
      return [...(await context.signingKeys()).status()];
    },
    discoveryShape: () => context.discoveryShape(),
    async setDiscoveryShape(shape) {
      if (shape !== 'full' && shape !== 'minimal') throw new Error(`unknown discovery shape '${String(shape)}'`);
      await context.setDiscoveryShape(shape);
    },
    strict: () => context.strict(),
    setStrict: (on) => context.setStrict(on),
    redirectIss: () => context.redirectIss(),
    setRedirectIss: (on) => context.setRedirectIss(on),
    async idTokenEncryption(clientId) {
      return { ...(await context.idTokenEncryption(clientId)) };
    },
    setIdTokenEncryption: (clientId, encryption) => context.setIdTokenEncryption(clientId, encryption),
    async signingKeys() {
      return [...(await context.signingKeys()).status()];
    },
    async armFault(id, clientId) {
      if (clientId !== undefined && !context.clients.has(clientId)) throw new Error(`unknown client '${clientId}'`);
      await context.faults.arm(id, clientId);
    },
    async armFaultAs(id, clientId, armedBy) {
      if (clientId !== undefined && !context.clients.has(clientId)) throw new Error(`unknown client '${clientId}'`);
      return context.faults.armAs(id, clientId, armedBy);
    },
    faultScope: (id) => context.faults.scope(id),
    faultArming: (id) => context.faults.arming(id),
    disarmFault: (id, armedBy) => context.faults.disarm(id, armedBy),
    takeRunLock: (owner, seconds) => context.faults.takeRunLock(owner, seconds),
    releaseRunLock: (owner) => context.faults.releaseRunLock(owner),
    runLock: () => context.faults.runLock(),
    armedFaults: () => context.faults.armed(),
    injectedFaults: async () => [...(await context.faults.injected())],
    async flowAnswers(state) {
      // Any string at all: the store keys hold its digest. Anything else is no flow of ours.
      if (typeof state !== 'string') return { faults: [] };
      const record = await context.faults.flowRecord(state);
      const error: ChosenFlowError | undefined = record.error;
      return { faults: record.faults, ...(error ? { error: { error: error.error, description: error.description } } : {}) };
    },
    async answerFlowAgain(state, clientId, { faults, error }) {
      if (!context.clients.has(clientId)) throw new Error(`unknown client '${clientId}'`);
      for (const id of faults) {
        if (!isFaultId(id)) throw new Error(`unknown fault '${String(id)}'`);
        if (faultById(id).target === 'par_endpoint') throw new Error(`fault '${id}' spoils the push that creates a flow: arm it for the client`);
      }
      const chosenError = error && FLOW_ERRORS.find((candidate) => candidate.error === error.error && candidate.description === error.description);
      if (error && !chosenError) throw new Error(`the error '${error.error}' with that description is not one the flow chooser offers`);
      if (faults.length > 0) await context.faults.armForFlow(state, clientId, faults, 'again');
      if (chosenError) await context.faults.chooseErrorForFlow(state, clientId, chosenError.id);
    },
    setPopulationRegister: (clientId, enabled) => context.setPopulationRegister(clientId, enabled),
    clients: () =>
      Promise.all(
        [...context.clients.values()].map(async (client) => {
          const encryptionKey = encryptionKeyOf(client);
          return {
            clientId: client.clientId,
            ...(client.name === undefined ? {} : { name: client.name }),
            redirectUris: [...client.redirectUris],
            populationRegister: await context.populationRegisterEnabled(client.clientId),
            signingKeys: client.jwks.keys.filter((key) => key !== encryptionKey).map((key) => ({ kid: key.kid!, alg: key.alg! })),
            encryptionKey: { kid: encryptionKey.kid, alg: encryptionKey.alg },
            idTokenEncryption: { ...(await context.idTokenEncryption(client.clientId)) },
          };
        }),
      ),
  };
}
