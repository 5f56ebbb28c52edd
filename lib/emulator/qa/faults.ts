/**
 * One-shot faults for QA: armed from the control API or the panel, each one spoils the next
 * response of its kind, so a tester can watch the relying party refuse it (spec 4.5, 5.6, part 7).
 *
 * A fault is injected where the real response is produced (tokens/id-token.ts,
 * endpoints/token.ts, endpoints/par.ts), into a response that would otherwise have succeeded: a
 * request the emulator refuses anyway leaves the fault armed. Faults live in the emulator's
 * state store (shared by every instance on it) and apply to the client they were armed for, or
 * to whichever client comes next.
 * @see spec 4.5 (client checks), 5.6, part 7; DECISIONS.md "Faults"
 */
import { createHash } from 'node:crypto';
import type { Store } from '../../store/store';

/**
 * The error codes the relying-party core (lib/oidc/errors.ts) answers each fault with. Kept as
 * strings here so the emulator does not depend on any relying party;
 * test/scenarios/faults-against-relying-party.test.ts proves the core answers exactly these.
 */
export type ExpectedRpError =
  | 'id_token_nonce_mismatch'
  | 'id_token_issuer_mismatch'
  | 'id_token_audience_mismatch'
  | 'id_token_expired'
  | 'id_token_issued_in_future'
  | 'id_token_unsupported_algorithm'
  | 'id_token_signature_invalid'
  | 'id_token_key_not_found'
  | 'id_token_not_encrypted'
  | 'id_token_unsupported_encryption'
  | 'id_token_decryption_failed'
  | 'server_error'
  | 'timeout'
  | 'temporarily_unavailable'
  | 'state_mismatch'
  | 'state_missing'
  | 'callback_issuer_mismatch';

/** Which response a fault spoils. */
export type FaultTarget = 'id_token' | 'token_endpoint' | 'par_endpoint' | 'authorization_response';

/** One row of the fault table. */
export interface FaultDefinition {
  id: string;
  target: FaultTarget;
  /**
   * Faults of one group change the same part of a response (the signing key, the encryption,
   * the status), so only one of them can apply to it: the first armed in table order; the
   * others stay armed for the next response. Faults of different groups combine.
   */
  group: string;
  /** a short name for a button */
  label: string;
  /** what the emulator does to the response */
  effect: string;
  /** what a correct relying party answers */
  expected: ExpectedRpError;
}

/** How long `token_timeout` holds the token response: longer than the 10 s the relying-party core waits by default. */
export const TOKEN_TIMEOUT_DELAY_MS = 15_000;

/** `wrong_issuer`: a name that cannot be anyone's issuer (RFC 2606 reserves `.invalid`). */
export const FAULTY_ISSUER = 'https://impostor.invalid';
/** `wrong_audience`: a client_id other than the one the token goes to. */
export const FAULTY_AUDIENCE = 'another-client';
/** `expired`: how long ago `exp` passed; well beyond any relying party's clock tolerance (60 s at most). */
export const EXPIRED_SECONDS_AGO = 600;
/** `issued_in_future`: how far ahead `iat` lies; well beyond any clock tolerance. */
export const ISSUED_SECONDS_AHEAD = 600;

/**
 * Every fault, in the order they are listed and, within a group, applied.
 * @see spec 4.5 (one ID token check per claim fault), 5.6 (signature, encryption), part 7
 */
export const FAULTS = [
  {
    id: 'wrong_nonce',
    target: 'id_token',
    group: 'nonce',
    label: 'Wrong nonce',
    effect: 'The ID token carries a random nonce instead of the one in the request object.',
    expected: 'id_token_nonce_mismatch',
  },
  {
    id: 'wrong_issuer',
    target: 'id_token',
    group: 'issuer',
    label: 'Wrong issuer',
    effect: `The ID token names another issuer (${FAULTY_ISSUER}) in iss.`,
    expected: 'id_token_issuer_mismatch',
  },
  {
    id: 'wrong_audience',
    target: 'id_token',
    group: 'audience',
    label: 'Wrong audience',
    effect: `The ID token is addressed to another client (aud = ${FAULTY_AUDIENCE}).`,
    expected: 'id_token_audience_mismatch',
  },
  {
    id: 'expired',
    target: 'id_token',
    group: 'lifetime',
    label: 'Expired ID token',
    effect: `exp lies ${EXPIRED_SECONDS_AGO / 60} minutes in the past, and iat the token lifetime before that.`,
    expected: 'id_token_expired',
  },
  {
    id: 'issued_in_future',
    target: 'id_token',
    group: 'lifetime',
    label: 'Issued in the future',
    effect: `iat lies ${ISSUED_SECONDS_AHEAD / 60} minutes in the future (spec 4.5: iat must not be), and exp the token lifetime after it.`,
    expected: 'id_token_issued_in_future',
  },
  {
    id: 'unknown_signing_key',
    target: 'id_token',
    group: 'signature',
    label: 'Signed by an unpublished key',
    effect: 'Signed with a fresh key that is not in the JWKS, under the kid of the current key.',
    expected: 'id_token_signature_invalid',
  },
  {
    id: 'unknown_kid',
    target: 'id_token',
    group: 'signature',
    label: 'Unknown kid',
    effect: 'Signed with a fresh key that is not in the JWKS, under a kid the JWKS does not have.',
    expected: 'id_token_key_not_found',
  },
  {
    id: 'signed_ps256',
    target: 'id_token',
    group: 'signature',
    label: 'Signed with PS256',
    effect: 'Signed with PS256 (a fresh RSA key) under the current kid, instead of ES256 (spec 2.5).',
    expected: 'id_token_unsupported_algorithm',
  },
  {
    id: 'signed_es384',
    target: 'id_token',
    group: 'signature',
    label: 'Signed with ES384',
    effect: 'Signed with ES384 (a fresh P-384 key) under the current kid, instead of ES256 (spec 2.5).',
    expected: 'id_token_unsupported_algorithm',
  },
  {
    id: 'unencrypted',
    target: 'id_token',
    group: 'encryption',
    label: 'Not encrypted',
    effect: 'The token endpoint returns the signed ID token (JWS) without the JWE around it.',
    expected: 'id_token_not_encrypted',
  },
  {
    id: 'wrong_jwe_algorithm',
    target: 'id_token',
    group: 'encryption',
    label: 'Wrong encryption algorithm',
    effect:
      "Encrypted to the client's key with RSA1_5 (RSA PKCS #1 v1.5 key transport, refused by RFC 8725 §3.2 and FAPI 2.0) and A128CBC-HS256, instead of the client's variant.",
    expected: 'id_token_unsupported_encryption',
  },
  {
    id: 'wrong_encryption_key',
    target: 'id_token',
    group: 'encryption',
    label: 'Encrypted to another key',
    effect: "Encrypted with the client's variant to a fresh RSA key that is not the client's, under the kid of the client's encryption key.",
    expected: 'id_token_decryption_failed',
  },
  {
    id: 'token_error',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token endpoint error',
    effect: 'The token endpoint answers 500 server_error instead of the ID token.',
    expected: 'server_error',
  },
  {
    id: 'token_timeout',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token endpoint timeout',
    effect: `The token endpoint holds its answer for ${TOKEN_TIMEOUT_DELAY_MS / 1000} s, longer than the relying party waits.`,
    expected: 'timeout',
  },
  {
    id: 'par_server_error',
    target: 'par_endpoint',
    group: 'par_response',
    label: 'PAR server error',
    effect: 'The PAR endpoint answers 500 server_error instead of a request_uri.',
    expected: 'server_error',
  },
  {
    id: 'par_temporarily_unavailable',
    target: 'par_endpoint',
    group: 'par_response',
    label: 'PAR temporarily unavailable',
    effect: 'The PAR endpoint answers 503 temporarily_unavailable with Retry-After.',
    expected: 'temporarily_unavailable',
  },
  {
    id: 'wrong_state',
    target: 'authorization_response',
    group: 'state',
    label: 'Wrong state',
    effect: 'The redirect back carries another state than the request object (RFC 6749 §4.1.2).',
    expected: 'state_mismatch',
  },
  {
    id: 'missing_state',
    target: 'authorization_response',
    group: 'state',
    label: 'No state',
    effect: 'The redirect back carries no state.',
    expected: 'state_missing',
  },
  {
    id: 'wrong_response_issuer',
    target: 'authorization_response',
    group: 'response_issuer',
    label: 'Wrong iss on the redirect',
    effect: `The redirect back names another issuer (${FAULTY_ISSUER}) in iss (RFC 9207).`,
    expected: 'callback_issuer_mismatch',
  },
  {
    id: 'missing_response_issuer',
    target: 'authorization_response',
    group: 'response_issuer',
    label: 'No iss on the redirect',
    effect: 'The redirect back has no iss, although discovery advertises authorization_response_iss_parameter_supported (RFC 9207 §2.4).',
    expected: 'callback_issuer_mismatch',
  },
] as const satisfies readonly FaultDefinition[];

export type Fault = (typeof FAULTS)[number];
export type FaultId = Fault['id'];

const FAULTS_BY_ID: ReadonlyMap<string, Fault> = new Map(FAULTS.map((fault) => [fault.id, fault]));

/** Whether `value` names a fault of the table (a Map lookup, so "__proto__" is not one). */
export function isFaultId(value: unknown): value is FaultId {
  return typeof value === 'string' && FAULTS_BY_ID.has(value);
}

/** The table row of a fault. */
export function faultById(id: FaultId): Fault {
  return FAULTS_BY_ID.get(id)!;
}

/** A fault that was applied: for the panel's "recently injected" list, and for the flow it spoiled. */
export interface InjectedFault {
  id: FaultId;
  /** the client whose response it spoiled */
  clientId: string;
  /** ms since the epoch */
  at: number;
  /** the `state` of the request object of the flow it spoiled (every fault target knows it) */
  state?: string;
  /** how it was chosen: armed on the panel (or the control API), or for this one flow */
  chosen: 'panel' | 'flow';
}

/**
 * An error of the authorization response chosen for one flow (flow-answers.ts): the code and
 * description the redirect carried.
 */
export interface ChosenFlowError {
  error: string;
  description: string;
}

/** What the emulator did on purpose to one flow: the faults it applied, and the error chosen for it. */
export interface FlowRecord {
  faults: InjectedFault[];
  error?: ChosenFlowError;
}

/** How many applied faults are remembered for display. */
const INJECTED_HISTORY = 10;

/** How long what was done to a flow is remembered, and how long a fault chosen for a flow waits. */
export const FLOW_RECORD_TTL_SECONDS = 3600;

/** At most this many faults are recorded per flow (there are fewer in the table). */
const FLOW_RECORD_FAULTS = 32;

/**
 * The armed faults, kept in the emulator's state store so that every instance sharing it sees
 * them: a fault armed on one instance's panel spoils the next matching response of whichever
 * instance makes it. Each armed fault is one key, taken atomically, so a fault is applied once
 * even when two instances race for it. A fault may also be armed for one flow (its `state`): it
 * then waits for that flow's response only, and is applied exactly as a panel-armed one.
 */
export class FaultSwitchboard {
  /**
   * @param store the emulator's state store
   * @param now clock in ms
   */
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /**
   * Arms a fault for the next matching response to `clientId`, or to any client when omitted (on
   * a shared emulator, scoping keeps one tester's fault out of another's flow).
   * @throws Error for an id not in FAULTS (callers from plain JavaScript are not type-checked)
   */
  async arm(id: FaultId, clientId?: string): Promise<void> {
    await this.store.set(armedKey(checkedId(id)), { clientId: clientId ?? null } satisfies ArmedFault, ARMED_TTL_SECONDS);
  }

  /**
   * Arms faults for the flow of `clientId` whose request object carried `state` only, replacing
   * any chosen for it before (an empty list disarms them). They wait an hour at most.
   * @throws Error for an id not in FAULTS
   */
  async armForFlow(state: string, clientId: string, ids: readonly FaultId[]): Promise<void> {
    const faults = ids.map(checkedId);
    if (faults.length === 0) await this.store.delete(flowArmedKey(state));
    else await this.store.set(flowArmedKey(state), { clientId, faults } satisfies FlowArmedFaults, FLOW_RECORD_TTL_SECONDS);
  }

  /** The faults armed for the flow with this `state` and not applied yet, in table order. */
  async armedForFlow(state: string): Promise<FaultId[]> {
    const armed = await this.store.get<FlowArmedFaults>(flowArmedKey(state));
    return FAULTS.filter((fault) => armed?.faults.includes(fault.id)).map((fault) => fault.id);
  }

  /** The client an armed fault waits for; undefined when it is for any client or not armed. */
  async scope(id: FaultId): Promise<string | undefined> {
    return (await this.store.get<ArmedFault>(armedKey(id)))?.clientId ?? undefined;
  }

  /** @throws Error for an id not in FAULTS */
  async disarm(id: FaultId): Promise<void> {
    await this.store.delete(armedKey(checkedId(id)));
  }

  /** The armed faults, in table order. */
  async armed(): Promise<FaultId[]> {
    const armed = await Promise.all(FAULTS.map(async (fault) => ((await this.store.get(armedKey(fault.id))) === undefined ? undefined : fault.id)));
    return armed.filter((id) => id !== undefined);
  }

  /** The most recently applied faults, newest first. */
  async injected(): Promise<readonly InjectedFault[]> {
    const injected = (await this.store.get<InjectedFault[]>(INJECTED_KEY)) ?? [];
    // Kept before faults were recorded per flow: they were all armed on the panel.
    return injected.map((fault) => ({ ...fault, chosen: fault.chosen ?? 'panel' }));
  }

  /** What was done on purpose to the flow with this `state`: nothing when it was answered normally. */
  async flowRecord(state: string): Promise<FlowRecord> {
    const record = await this.store.get<FlowRecord>(flowRecordKey(state));
    return { faults: record?.faults ?? [], ...(record?.error ? { error: record.error } : {}) };
  }

  /** Remembers the error chosen for the flow with this `state`, once its redirect carried it. */
  async recordFlowError(state: string, error: ChosenFlowError): Promise<void> {
    const record = await this.flowRecord(state);
    await this.store.set(flowRecordKey(state), { ...record, error } satisfies FlowRecord, FLOW_RECORD_TTL_SECONDS);
  }

  /**
   * Disarms and returns the faults to apply to one response of `target`, for `clientId`: every
   * fault of that target armed on the panel or for this flow (`state`), at most one per group
   * (the first in table order; of one fault armed both ways, the flow's is taken). Each applied
   * fault is recorded for the panel and, with `state`, for the flow.
   * @param waiting faults that would not spoil this response (a redirect without `iss` cannot
   *   lose it): they stay armed for a response they can spoil
   * @param state the `state` of the flow's request object
   */
  async take(target: FaultTarget, clientId: string, waiting: readonly FaultId[] = [], state?: string): Promise<ReadonlySet<FaultId>> {
    const taken = new Map<FaultId, 'panel' | 'flow'>();
    const groups = new Set<string>();
    const forFlow = state === undefined ? undefined : await this.store.get<FlowArmedFaults>(flowArmedKey(state));
    const flowFaults = forFlow && forFlow.clientId === clientId ? forFlow.faults : [];
    const takenForFlow: FaultId[] = [];
    for (const fault of FAULTS) {
      if (fault.target !== target || groups.has(fault.group) || waiting.includes(fault.id)) continue;
      if (flowFaults.includes(fault.id)) {
        groups.add(fault.group);
        taken.set(fault.id, 'flow');
        takenForFlow.push(fault.id);
        continue;
      }
      const armed = await this.store.get<ArmedFault>(armedKey(fault.id));
      if (!armed || (armed.clientId !== null && armed.clientId !== clientId)) continue;
      // Of two responses racing for one fault (on one instance or two), one gets it.
      if ((await this.store.take<ArmedFault>(armedKey(fault.id))) === undefined) continue;
      groups.add(fault.group);
      taken.set(fault.id, 'panel');
    }
    if (takenForFlow.length > 0 && state !== undefined) {
      // Of two responses racing for the flow's faults, one gets them.
      const current = await this.store.take<FlowArmedFaults>(flowArmedKey(state));
      if (!current) for (const id of takenForFlow) taken.delete(id);
      else {
        const left = current.faults.filter((id) => !takenForFlow.includes(id));
        if (left.length > 0) await this.store.set(flowArmedKey(state), { ...current, faults: left } satisfies FlowArmedFaults, FLOW_RECORD_TTL_SECONDS);
      }
    }
    if (taken.size > 0) {
      const at = this.now();
      const applied: InjectedFault[] = [...taken].map(([id, chosen]) => ({ id, clientId, at, chosen, ...(state === undefined ? {} : { state }) }));
      // Display only: two instances recording at once may drop one line, never a fault.
      await this.store.set(INJECTED_KEY, [...applied, ...(await this.injected())].slice(0, INJECTED_HISTORY), ARMED_TTL_SECONDS);
      if (state !== undefined) {
        const record = await this.flowRecord(state);
        await this.store.set(
          flowRecordKey(state),
          { ...record, faults: [...record.faults, ...applied].slice(0, FLOW_RECORD_FAULTS) } satisfies FlowRecord,
          FLOW_RECORD_TTL_SECONDS,
        );
      }
    }
    return new Set(taken.keys());
  }
}

/** An armed fault as stored: the client it waits for, or null for any. */
interface ArmedFault {
  clientId: string | null;
}

/** An armed fault waits a week at most; a forgotten one then disarms itself. */
const ARMED_TTL_SECONDS = 7 * 24 * 3600;
const INJECTED_KEY = 'faults-injected';

/** Faults armed for one flow: the client of the flow, and the faults not applied yet. */
interface FlowArmedFaults {
  clientId: string;
  faults: FaultId[];
}

/**
 * A flow's keys hold the SHA-256 of its `state`, which the client chose (1 to 512 characters at
 * PAR, anything at all from a caller of the control API): keys stay short and of one alphabet.
 */
function flowKey(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('base64url');
}

function flowArmedKey(state: string): string {
  return `fault-flow:${flowKey(state)}`;
}

function flowRecordKey(state: string): string {
  return `flow-record:${flowKey(state)}`;
}

function armedKey(id: FaultId): string {
  return `fault:${id}`;
}

function checkedId(id: string): FaultId {
  if (!isFaultId(id)) throw new Error(`unknown fault '${id}'; known faults: ${FAULTS.map((fault) => fault.id).join(', ')}`);
  return id;
}

/**
 * Waits `ms`, or until `signal` aborts (the client gave up): the timer is cleared either way, so
 * an abandoned request holds nothing.
 * @returns true if the full time passed, false if the wait was cut short
 */
export function holdResponse(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
