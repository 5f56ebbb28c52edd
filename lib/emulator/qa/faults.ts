/**
 * One-shot faults for QA: armed from the control API or the panel, each one changes the next
 * response of its kind. A refusal spoils it, so a tester can watch the relying party refuse it
 * (spec 4.5, 5.6, part 7); an acceptance variant makes it unusual but valid, so a tester can
 * watch the relying party accept it.
 *
 * A fault is made where the real response is produced, into a response that would otherwise have
 * succeeded: the handler announces the answer (events.ts), the listeners of qa/fault-listeners.ts
 * take its armed faults with `take`, and the handler makes them. A request the emulator refuses
 * anyway leaves the fault armed. Faults live in the emulator's
 * state store (shared by every instance on it) and apply to the client they were armed for, or
 * to whichever client comes next. A conformance run arms faults as its own (`armAs`), so it
 * disarms only those, and takes the deployment-wide run lock first (`takeRunLock`), so that two
 * runs never hold client-wide faults at once. The names each answer can make, and the values they
 * put in (a wrong issuer, how far in the past), are answer-faults.ts's.
 * @see spec 4.5 (client checks), 5.6, part 7; DECISIONS.md "Faults", "The run lock and faults a run owns"
 */
import { createHash } from 'node:crypto';
import type { Store } from '../../store/store';
import {
  EXPIRED_SECONDS_AGO,
  FAULTY_AUDIENCE,
  FAULTY_ISSUER,
  ID_TOKEN_ENCRYPTION_VARIANTS,
  ISSUED_SECONDS_AHEAD,
  JWKS_TIMEOUT_DELAY_MS,
  NOT_AN_IMAGE_PICTURE,
  SKEWED_SECONDS_AHEAD,
  TOKEN_TIMEOUT_DELAY_MS,
  type IdTokenEncryptionVariant,
} from '../answer-faults';
import type { IdTokenContentEncryption, IdTokenEncryptionAlgorithm } from '../config';

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
  | 'id_token_subject_missing'
  | 'id_token_malformed'
  | 'id_token_missing'
  | 'jwks_fetch_failed'
  | 'invalid_response'
  | 'invalid_grant'
  | 'invalid_client'
  | 'invalid_request'
  | 'server_error'
  | 'timeout'
  | 'temporarily_unavailable'
  | 'state_mismatch'
  | 'state_missing'
  | 'callback_issuer_mismatch';

/**
 * Which response a fault changes. `jwks` variants are taken when the flow's ID token is issued
 * (a JWKS request names no client and no flow) and change the JWKS responses of the next
 * JWKS_VARIANT_WINDOW_SECONDS. `jwks_endpoint` faults (an outage) are taken there too, and spoil
 * the first JWKS response within JWKS_OUTAGE_WINDOW_SECONDS, if the relying party asks for one.
 */
export type FaultTarget = 'id_token' | 'jwks' | 'jwks_endpoint' | 'token_endpoint' | 'par_endpoint' | 'authorization_response';

/**
 * How a conformance kit judges an acceptance variant: the verification completes and its
 * claims are read (`claims_read`); for `portrait_not_shown`, besides, the relying party shows
 * no portrait from the `picture` it was sent (it must not render a value that is not a base64
 * JPEG data URI).
 */
export type AcceptanceCheck = 'claims_read' | 'portrait_not_shown';

/** The columns every row of the fault table has. */
interface FaultColumns {
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
}

/** A fault a correct relying party refuses, with the error code our core answers. */
export interface RefusalDefinition extends FaultColumns {
  kind: 'refusal';
  /** what a correct relying party answers */
  expected: ExpectedRpError;
}

/** A variant (unusual but valid) a correct relying party accepts. */
export interface AcceptanceDefinition extends FaultColumns {
  kind: 'acceptance';
  expected: 'accepted';
  /** what, beyond completing the verification, shows that it was accepted rightly */
  check: AcceptanceCheck;
  /** the encryption variants: the JWE's `alg` and `enc` */
  encryption?: { alg: IdTokenEncryptionAlgorithm; enc: IdTokenContentEncryption };
}

/** One row of the fault table. */
export type FaultDefinition = RefusalDefinition | AcceptanceDefinition;

/** `jwks` variants change the JWKS responses of this many seconds after the ID token is issued. */
export const JWKS_VARIANT_WINDOW_SECONDS = 60;

/**
 * A `jwks_endpoint` fault waits this many seconds after its flow's ID token is issued for the
 * JWKS request it spoils: a relying party asks right after it decrypts the token, unless it has
 * the key cached, and then it never asks (DECISIONS.md "Faults").
 */
export const JWKS_OUTAGE_WINDOW_SECONDS = 10;

/** A row of an encryption variant: the ID token encrypted with exactly its `alg` / `enc` (answer-faults.ts). */
function encryptionVariant<const Id extends IdTokenEncryptionVariant>(id: Id) {
  const { alg, enc } = ID_TOKEN_ENCRYPTION_VARIANTS[id];
  return {
    id,
    kind: 'acceptance',
    target: 'id_token',
    group: 'encryption',
    label: `Encrypted ${alg} / ${enc}`,
    effect: `Encrypted to the client's key with ${alg} and ${enc} for this token, whatever the client's variant (spec 2.5 shows RSA-OAEP-256 / A256GCM only as an example).`,
    expected: 'accepted',
    check: 'claims_read',
    encryption: { alg, enc },
  } as const satisfies AcceptanceDefinition;
}

/**
 * Every fault, in the order they are listed and, within a group, applied.
 * @see spec 4.5 (one ID token check per claim fault), 5.6 (signature, encryption), part 7
 */
export const FAULTS = [
  {
    id: 'wrong_nonce',
    kind: 'refusal',
    target: 'id_token',
    group: 'nonce',
    label: 'Wrong nonce',
    effect: 'The ID token carries a random nonce instead of the one in the request object.',
    expected: 'id_token_nonce_mismatch',
  },
  {
    id: 'missing_nonce',
    kind: 'refusal',
    target: 'id_token',
    group: 'nonce',
    label: 'No nonce',
    effect: 'The ID token has no nonce claim, although the request object sent one.',
    expected: 'id_token_nonce_mismatch',
  },
  {
    id: 'wrong_issuer',
    kind: 'refusal',
    target: 'id_token',
    group: 'issuer',
    label: 'Wrong issuer',
    effect: `The ID token names another issuer (${FAULTY_ISSUER}) in iss.`,
    expected: 'id_token_issuer_mismatch',
  },
  {
    id: 'missing_issuer',
    kind: 'refusal',
    target: 'id_token',
    group: 'issuer',
    label: 'No issuer',
    effect: 'The ID token has no iss claim.',
    expected: 'id_token_issuer_mismatch',
  },
  {
    id: 'wrong_audience',
    kind: 'refusal',
    target: 'id_token',
    group: 'audience',
    label: 'Wrong audience',
    effect: `The ID token is addressed to another client (aud = ${FAULTY_AUDIENCE}).`,
    expected: 'id_token_audience_mismatch',
  },
  {
    id: 'missing_audience',
    kind: 'refusal',
    target: 'id_token',
    group: 'audience',
    label: 'No audience',
    effect: 'The ID token has no aud claim.',
    expected: 'id_token_audience_mismatch',
  },
  {
    id: 'extra_audience',
    kind: 'refusal',
    target: 'id_token',
    group: 'audience',
    label: 'Extra audience',
    effect: `aud is [client_id, "${FAULTY_AUDIENCE}"], with azp = client_id: an audience the client does not trust (OpenID Connect Core 3.1.3.7, item 3).`,
    expected: 'id_token_audience_mismatch',
  },
  {
    id: 'missing_subject',
    kind: 'refusal',
    target: 'id_token',
    group: 'subject',
    label: 'No subject',
    effect: 'The ID token has no sub claim (OpenID Connect Core 2: sub is required).',
    expected: 'id_token_subject_missing',
  },
  {
    id: 'expired',
    kind: 'refusal',
    target: 'id_token',
    group: 'lifetime',
    label: 'Expired ID token',
    effect: `exp lies ${EXPIRED_SECONDS_AGO / 60} minutes in the past, and iat the token lifetime before that.`,
    expected: 'id_token_expired',
  },
  {
    id: 'issued_in_future',
    kind: 'refusal',
    target: 'id_token',
    group: 'lifetime',
    label: 'Issued in the future',
    effect: `iat lies ${ISSUED_SECONDS_AHEAD / 60} minutes in the future (spec 4.5: iat must not be), and exp the token lifetime after it.`,
    expected: 'id_token_issued_in_future',
  },
  {
    id: 'missing_expiry',
    kind: 'refusal',
    target: 'id_token',
    group: 'lifetime',
    label: 'No expiry',
    effect: 'The ID token has no exp claim (spec 2.6 lists it; OpenID Connect Core 2: exp is required), so nothing bounds its life.',
    expected: 'id_token_malformed',
  },
  {
    id: 'unknown_signing_key',
    kind: 'refusal',
    target: 'id_token',
    group: 'signature',
    label: 'Signed by an unpublished key',
    effect: 'Signed with a fresh key that is not in the JWKS, under the kid of the current key.',
    expected: 'id_token_signature_invalid',
  },
  {
    id: 'unknown_kid',
    kind: 'refusal',
    target: 'id_token',
    group: 'signature',
    label: 'Unknown kid',
    effect: 'Signed with a fresh key that is not in the JWKS, under a kid the JWKS does not have.',
    expected: 'id_token_key_not_found',
  },
  {
    id: 'signed_ps256',
    kind: 'refusal',
    target: 'id_token',
    group: 'signature',
    label: 'Signed with PS256',
    effect: 'Signed with PS256 (a fresh RSA key) under the current kid, instead of ES256 (spec 2.5).',
    expected: 'id_token_unsupported_algorithm',
  },
  {
    id: 'signed_es384',
    kind: 'refusal',
    target: 'id_token',
    group: 'signature',
    label: 'Signed with ES384',
    effect: 'Signed with ES384 (a fresh P-384 key) under the current kid, instead of ES256 (spec 2.5).',
    expected: 'id_token_unsupported_algorithm',
  },
  {
    id: 'alg_none',
    kind: 'refusal',
    target: 'id_token',
    group: 'signature',
    label: 'Unsigned (alg none)',
    effect: 'The inner JWT has alg "none" and an empty signature, and is encrypted as usual.',
    expected: 'id_token_unsupported_algorithm',
  },
  {
    id: 'hs256_public_key',
    kind: 'refusal',
    target: 'id_token',
    group: 'signature',
    label: 'HS256 with the public key',
    effect: "Signed with HS256 under the current kid, with the current key's public key (its SPKI PEM) as the HMAC secret: key confusion.",
    expected: 'id_token_unsupported_algorithm',
  },
  {
    id: 'unencrypted',
    kind: 'refusal',
    target: 'id_token',
    group: 'encryption',
    label: 'Not encrypted',
    effect: 'The token endpoint returns the signed ID token (JWS) without the JWE around it.',
    expected: 'id_token_not_encrypted',
  },
  {
    id: 'wrong_jwe_algorithm',
    kind: 'refusal',
    target: 'id_token',
    group: 'encryption',
    label: 'Wrong encryption algorithm',
    effect:
      "Encrypted to the client's key with RSA1_5 (RSA PKCS #1 v1.5 key transport, refused by RFC 8725 §3.2 and FAPI 2.0) and A128CBC-HS256, instead of the client's variant.",
    expected: 'id_token_unsupported_encryption',
  },
  {
    id: 'wrong_encryption_key',
    kind: 'refusal',
    target: 'id_token',
    group: 'encryption',
    label: 'Encrypted to another key',
    effect: "Encrypted with the client's variant to a fresh RSA key that is not the client's, under the kid of the client's encryption key.",
    expected: 'id_token_decryption_failed',
  },
  {
    id: 'jwe_tag_tampered',
    kind: 'refusal',
    target: 'id_token',
    group: 'encryption',
    label: 'JWE tag altered',
    effect: "Encrypted as usual, then one bit of the JWE's authentication tag (its last segment) is flipped.",
    expected: 'id_token_decryption_failed',
  },
  {
    id: 'token_error',
    kind: 'refusal',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token endpoint error',
    effect: 'The token endpoint answers 500 server_error instead of the ID token.',
    expected: 'server_error',
  },
  {
    id: 'token_timeout',
    kind: 'refusal',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token endpoint timeout',
    effect: `The token endpoint holds its answer for ${TOKEN_TIMEOUT_DELAY_MS / 1000} s, longer than the relying party waits.`,
    expected: 'timeout',
  },
  {
    id: 'token_invalid_grant',
    kind: 'refusal',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token endpoint invalid_grant',
    effect: 'The token endpoint answers 400 invalid_grant instead of the ID token.',
    expected: 'invalid_grant',
  },
  {
    id: 'token_invalid_client',
    kind: 'refusal',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token endpoint invalid_client',
    effect: 'The token endpoint answers 401 invalid_client instead of the ID token.',
    expected: 'invalid_client',
  },
  {
    id: 'token_not_json',
    kind: 'refusal',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token response not JSON',
    effect: 'The token endpoint answers 200 with an HTML page instead of JSON.',
    expected: 'invalid_response',
  },
  {
    id: 'token_missing_id_token',
    kind: 'refusal',
    target: 'token_endpoint',
    group: 'token_response',
    label: 'Token response without id_token',
    effect: 'The token endpoint answers 200 with JSON that has expires_in but no id_token.',
    expected: 'id_token_missing',
  },
  {
    id: 'jwks_error',
    kind: 'refusal',
    target: 'jwks_endpoint',
    group: 'jwks_response',
    label: 'JWKS endpoint error',
    effect: `The first JWKS request within ${JWKS_OUTAGE_WINDOW_SECONDS} s after this ID token is issued is answered 500 server_error instead of the keys. A relying party with the key cached makes none, and the fault is never reached.`,
    expected: 'jwks_fetch_failed',
  },
  {
    id: 'jwks_timeout',
    kind: 'refusal',
    target: 'jwks_endpoint',
    group: 'jwks_response',
    label: 'JWKS endpoint timeout',
    effect: `The first JWKS request within ${JWKS_OUTAGE_WINDOW_SECONDS} s after this ID token is issued is held for ${JWKS_TIMEOUT_DELAY_MS / 1000} s, longer than the relying party waits. A relying party with the key cached makes none, and the fault is never reached.`,
    expected: 'timeout',
  },
  {
    id: 'par_server_error',
    kind: 'refusal',
    target: 'par_endpoint',
    group: 'par_response',
    label: 'PAR server error',
    effect: 'The PAR endpoint answers 500 server_error instead of a request_uri.',
    expected: 'server_error',
  },
  {
    id: 'par_temporarily_unavailable',
    kind: 'refusal',
    target: 'par_endpoint',
    group: 'par_response',
    label: 'PAR temporarily unavailable',
    effect: 'The PAR endpoint answers 503 temporarily_unavailable with Retry-After.',
    expected: 'temporarily_unavailable',
  },
  {
    id: 'par_invalid_request',
    kind: 'refusal',
    target: 'par_endpoint',
    group: 'par_response',
    label: 'PAR invalid_request',
    effect: 'The PAR endpoint answers 400 invalid_request instead of a request_uri.',
    expected: 'invalid_request',
  },
  {
    id: 'par_invalid_client',
    kind: 'refusal',
    target: 'par_endpoint',
    group: 'par_response',
    label: 'PAR invalid_client',
    effect: 'The PAR endpoint answers 401 invalid_client instead of a request_uri.',
    expected: 'invalid_client',
  },
  {
    id: 'wrong_state',
    kind: 'refusal',
    target: 'authorization_response',
    group: 'state',
    label: 'Wrong state',
    effect: 'The redirect back carries another state than the request object (RFC 6749 §4.1.2).',
    expected: 'state_mismatch',
  },
  {
    id: 'missing_state',
    kind: 'refusal',
    target: 'authorization_response',
    group: 'state',
    label: 'No state',
    effect: 'The redirect back carries no state.',
    expected: 'state_missing',
  },
  {
    id: 'wrong_response_issuer',
    kind: 'refusal',
    target: 'authorization_response',
    group: 'response_issuer',
    label: 'Wrong iss on the redirect',
    effect: `The redirect back names another issuer (${FAULTY_ISSUER}) in iss (RFC 9207).`,
    expected: 'callback_issuer_mismatch',
  },
  {
    id: 'missing_response_issuer',
    kind: 'refusal',
    target: 'authorization_response',
    group: 'response_issuer',
    label: 'No iss on the redirect',
    effect: 'The redirect back has no iss, although discovery advertises authorization_response_iss_parameter_supported (RFC 9207 §2.4).',
    expected: 'callback_issuer_mismatch',
  },
  {
    id: 'key_rotated_unpublished',
    kind: 'acceptance',
    target: 'id_token',
    group: 'signature',
    label: 'Signed by a key not published before',
    effect:
      'The signing keys rotate to a fresh key that was not published ahead: it signs this token and is in the JWKS only from now on, so a relying party that cached the JWKS must fetch it again for the unknown kid (OpenID Connect Core 10.1.1).',
    expected: 'accepted',
    check: 'claims_read',
  },
  {
    id: 'aud_array',
    kind: 'acceptance',
    target: 'id_token',
    group: 'audience',
    label: 'Audience as an array',
    effect: 'aud is a one-element array holding the client_id (RFC 7519 4.1.3 allows either form).',
    expected: 'accepted',
    check: 'claims_read',
  },
  {
    id: 'clock_skew_within_tolerance',
    kind: 'acceptance',
    target: 'id_token',
    group: 'lifetime',
    label: 'Clock skew within tolerance',
    effect: `iat lies ${SKEWED_SECONDS_AHEAD} s in the future (a provider clock slightly ahead), and exp is as usual.`,
    expected: 'accepted',
    check: 'claims_read',
  },
  {
    id: 'unknown_verified_claims_members',
    kind: 'acceptance',
    target: 'id_token',
    group: 'claims_set',
    label: 'Unknown members in verified_claims',
    effect:
      'verified_claims, its verification, each evidence element, its document_details and its claims carry members the spec does not name (OpenID Connect for Identity Assurance lets a provider add them).',
    expected: 'accepted',
    check: 'claims_read',
  },
  {
    id: 'minimal_token',
    kind: 'acceptance',
    target: 'id_token',
    group: 'claims_set',
    label: 'Minimal ID token',
    effect:
      'The ID token carries only iss, sub, aud, exp, iat, nonce and verified_claims with its trust framework and a single verified claim (given_name when the token would carry it, else the first): no auth_time, acr, amr or evidence.',
    expected: 'accepted',
    check: 'claims_read',
  },
  {
    id: 'picture_not_image',
    kind: 'acceptance',
    target: 'id_token',
    group: 'claims_set',
    label: 'Picture not an image',
    effect: `picture is a remote URL (${NOT_AN_IMAGE_PICTURE}) instead of a base64 JPEG data URI; the relying party must accept the token and show no portrait from it. Waits for a token whose picture was requested.`,
    expected: 'accepted',
    check: 'portrait_not_shown',
  },
  encryptionVariant('encrypted_rsa_oaep_256_a128gcm'),
  encryptionVariant('encrypted_rsa_oaep_256_a192gcm'),
  encryptionVariant('encrypted_rsa_oaep_256_a256gcm'),
  encryptionVariant('encrypted_rsa_oaep_256_a128cbc_hs256'),
  encryptionVariant('encrypted_rsa_oaep_256_a192cbc_hs384'),
  encryptionVariant('encrypted_rsa_oaep_256_a256cbc_hs512'),
  encryptionVariant('encrypted_rsa_oaep_a128gcm'),
  encryptionVariant('encrypted_rsa_oaep_a192gcm'),
  encryptionVariant('encrypted_rsa_oaep_a256gcm'),
  encryptionVariant('encrypted_rsa_oaep_a128cbc_hs256'),
  encryptionVariant('encrypted_rsa_oaep_a192cbc_hs384'),
  encryptionVariant('encrypted_rsa_oaep_a256cbc_hs512'),
  {
    id: 'jwks_keys_shuffled',
    kind: 'acceptance',
    target: 'jwks',
    group: 'jwks_order',
    label: 'JWKS keys reordered',
    effect: `For ${JWKS_VARIANT_WINDOW_SECONDS} s after this ID token is issued, the JWKS lists the key that signed it last, never first (spec 4.4: order is not to be relied on).`,
    expected: 'accepted',
    check: 'claims_read',
  },
  {
    id: 'jwks_unparseable_extra_keys',
    kind: 'acceptance',
    target: 'jwks',
    group: 'jwks_extra_keys',
    label: 'JWKS with unusable extra keys',
    effect: `For ${JWKS_VARIANT_WINDOW_SECONDS} s after this ID token is issued, the JWKS also lists keys nobody can verify an ES256 token with: an unknown kty, an RSA key with use "enc", and an EC key whose x is not a coordinate.`,
    expected: 'accepted',
    check: 'claims_read',
  },
  {
    id: 'no_expires_in',
    kind: 'acceptance',
    target: 'token_endpoint',
    group: 'token_members',
    label: 'Token response without expires_in',
    effect: 'The token response has id_token but no expires_in (spec 2.5 shows it; RFC 6749 5.1 makes it optional).',
    expected: 'accepted',
    check: 'claims_read',
  },
] as const satisfies readonly FaultDefinition[];

export type Fault = (typeof FAULTS)[number];
export type FaultId = Fault['id'];

/** The faults of one target: those its answer can make (answer-faults.ts; qa/faults.test.ts proves them the same). */
export type FaultOf<Target extends FaultTarget> = Extract<Fault, { target: Target }>['id'];

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
  /**
   * how it was chosen: armed on the panel (or the control API), for this one flow, or for this
   * flow again because it answered a flow the relying party asks for again (`answerFlowAgain`)
   */
  chosen: 'panel' | 'flow' | 'again';
  /**
   * false while it waits for the response it spoils: a `jwks_endpoint` fault is taken when its
   * flow's ID token is issued and made on the JWKS request that follows, which a relying party with
   * the key cached never sends. Absent once made.
   */
  reached?: false;
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
   * a shared emulator, scoping keeps one tester's fault out of another's flow). Replaces whatever
   * was armed, whoever armed it; the fault then has no owner (armed by hand).
   * @throws Error for an id not in FAULTS (callers from plain JavaScript are not type-checked)
   */
  async arm(id: FaultId, clientId?: string): Promise<void> {
    await this.store.set(armedKey(checkedId(id)), { clientId: clientId ?? null } satisfies ArmedFault, ARMED_TTL_SECONDS);
  }

  /**
   * Arms a fault as `armedBy`'s (a conformance run's name), so that the run later disarms only
   * what it armed: armed when the fault is not armed, or armed by `armedBy` already (armed again,
   * for `clientId`); refused, changing nothing, when anyone else armed it (by hand, or another
   * run). Of two callers racing to arm one fault with different owners, exactly one succeeds
   * (the store's `setIfAbsent`).
   * @returns `armed: false` with the arming in the way when refused (`existing` undefined when
   *   others armed and applied the fault again and again while this call tried)
   * @throws Error for an id not in FAULTS or an owner that is not RUN_OWNER's form
   */
  async armAs(id: FaultId, clientId: string | undefined, armedBy: string): Promise<{ armed: true } | { armed: false; existing?: FaultArming }> {
    const key = armedKey(checkedId(id));
    const record = { clientId: clientId ?? null, armedBy: checkedOwner(armedBy) } satisfies ArmedFault;
    // Each round ends unless the fault was applied or disarmed between two store calls; that
    // takes another caller each time, so a few rounds are plenty.
    for (let round = 0; round < CONTENDED_ROUNDS; round++) {
      if (await this.store.setIfAbsent(key, record, ARMED_TTL_SECONDS)) return { armed: true };
      const existing = await this.store.get<ArmedFault>(key);
      if (existing === undefined) continue;
      if (existing.armedBy !== armedBy) return { armed: false, existing: armingOf(existing) };
      // Its own fault again (a new scope, perhaps): `replace`, not `set`, so a fault applied
      // meanwhile is armed afresh by the next round's `setIfAbsent`. Only a fault applied and
      // armed by someone else within this round trip would be written over.
      if (await this.store.replace(key, record, ARMED_TTL_SECONDS)) return { armed: true };
    }
    return { armed: false };
  }

  /**
   * Arms faults for the flow of `clientId` whose request object carried `state` only, replacing
   * any chosen for it before (an empty list disarms them). They wait an hour at most.
   * @param chosen how they are recorded once applied: chosen for this flow, or again (the answer
   *   of a flow the relying party asks for again)
   * @throws Error for an id not in FAULTS
   */
  async armForFlow(state: string, clientId: string, ids: readonly FaultId[], chosen: 'flow' | 'again' = 'flow'): Promise<void> {
    const faults = ids.map(checkedId);
    if (faults.length === 0) await this.store.delete(flowArmedKey(state));
    else
      await this.store.set(
        flowArmedKey(state),
        { clientId, faults, ...(chosen === 'again' ? { chosen } : {}) } satisfies FlowArmedFaults,
        FLOW_RECORD_TTL_SECONDS,
      );
  }

  /**
   * Keeps an error of the authorization response (a FLOW_ERRORS id, flow-answers.ts) for the flow
   * of `clientId` whose request object carries `state`, before its interaction exists: the
   * interaction takes it when GET /auth opens it (`takeErrorForFlow`). An hour at most.
   */
  async chooseErrorForFlow(state: string, clientId: string, errorId: string): Promise<void> {
    await this.store.set(flowErrorKey(state), { clientId, errorId } satisfies FlowChosenError, FLOW_RECORD_TTL_SECONDS);
  }

  /** The error kept for the flow of `state` (chooseErrorForFlow), taken, if it was kept for `clientId`. */
  async takeErrorForFlow(state: string, clientId: string): Promise<string | undefined> {
    // Another client's flow under the same `state` leaves it where it is.
    if ((await this.store.get<FlowChosenError>(flowErrorKey(state)))?.clientId !== clientId) return undefined;
    return (await this.store.take<FlowChosenError>(flowErrorKey(state)))?.errorId;
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

  /** For whom and by whom a fault is armed; undefined when it is not armed. */
  async arming(id: FaultId): Promise<FaultArming | undefined> {
    const armed = await this.store.get<ArmedFault>(armedKey(id));
    return armed === undefined ? undefined : armingOf(armed);
  }

  /**
   * Disarms a fault; with `armedBy`, only when it is armed as `armedBy`'s (armAs), leaving a
   * fault armed by hand or by another run as it is.
   * @throws Error for an id not in FAULTS or an owner that is not RUN_OWNER's form
   */
  async disarm(id: FaultId, armedBy?: string): Promise<void> {
    const key = armedKey(checkedId(id));
    if (armedBy === undefined) return this.store.delete(key);
    checkedOwner(armedBy);
    // The store has no compare-and-delete. Someone else's fault goes only if the owner's is
    // applied and theirs armed in its place between this read and the delete: one round trip.
    if ((await this.store.get<ArmedFault>(key))?.armedBy === armedBy) await this.store.delete(key);
  }

  /**
   * Takes the run lock for `owner` for `seconds`, or renews it (from now) when `owner` holds it
   * already: one conformance run at a time on every instance sharing the store, since a
   * client-wide fault spoils whichever verification of its client comes next. Taking it is
   * atomic across instances (`setIfAbsent`); it ends by itself after `seconds`, so a run that
   * dies frees it.
   * @returns `taken: false` with the lock of another owner (`lock` undefined when it changed
   *   hands again and again while this call tried)
   * @throws Error for an owner that is not RUN_OWNER's form or `seconds` outside RUN_LOCK_SECONDS
   */
  async takeRunLock(owner: string, seconds: number): Promise<{ taken: true; lock: RunLock } | { taken: false; lock?: RunLock }> {
    checkedOwner(owner);
    if (!Number.isInteger(seconds) || seconds < RUN_LOCK_SECONDS.min || seconds > RUN_LOCK_SECONDS.max) {
      throw new Error(`a run lock lasts ${RUN_LOCK_SECONDS.min} to ${RUN_LOCK_SECONDS.max} whole seconds, not ${String(seconds)}`);
    }
    for (let round = 0; round < CONTENDED_ROUNDS; round++) {
      const lock: RunLock = { owner, expiresAt: this.now() + seconds * 1000 };
      if (await this.store.setIfAbsent(RUN_LOCK_KEY, lock, seconds)) return { taken: true, lock };
      const held = await this.store.get<RunLock>(RUN_LOCK_KEY);
      if (held === undefined) continue;
      if (held.owner !== owner) return { taken: false, lock: held };
      // Renewing one's own lock: `replace`, not `set`, so a lock that ended meanwhile is taken
      // afresh by the next round's `setIfAbsent`. Only a lock another owner took within this
      // round trip would be written over.
      if (await this.store.replace(RUN_LOCK_KEY, lock, seconds)) return { taken: true, lock };
    }
    return { taken: false };
  }

  /**
   * Releases the run lock when `owner` holds it; another owner's lock stays.
   * @throws Error for an owner that is not RUN_OWNER's form
   */
  async releaseRunLock(owner: string): Promise<void> {
    checkedOwner(owner);
    // As in disarm: read, then delete. Another run's lock could go only if this owner's ended and
    // another took it within that round trip; the kit releases with most of its lock left.
    if ((await this.store.get<RunLock>(RUN_LOCK_KEY))?.owner === owner) await this.store.delete(RUN_LOCK_KEY);
  }

  /** The run lock, while someone holds it. */
  async runLock(): Promise<RunLock | undefined> {
    return this.store.get<RunLock>(RUN_LOCK_KEY);
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
   * Keeps a taken fault in effect for `seconds`, for every response of its target: the `jwks`
   * variants, whose requests name no client and no flow (JWKS_VARIANT_WINDOW_SECONDS).
   */
  async openWindow(id: FaultId, seconds: number): Promise<void> {
    await this.store.set(windowKey(checkedId(id)), true, seconds);
  }

  /**
   * Has a `jwks_endpoint` fault taken for the flow of `state` wait JWKS_OUTAGE_WINDOW_SECONDS for
   * the next JWKS request, which names no client and no flow. Of two flows awaiting one fault at
   * once, the later one's waits; the earlier one's stays recorded as not reached.
   */
  async awaitJwksRequest(id: FaultOf<'jwks_endpoint'>, state: string | undefined): Promise<void> {
    await this.store.set(awaitingKey(checkedId(id)), { state: state ?? null } satisfies AwaitingFault, JWKS_OUTAGE_WINDOW_SECONDS);
  }

  /**
   * Takes the `jwks_endpoint` faults awaiting a JWKS request (at most one per group, the first in
   * table order; of two requests racing, one gets each), and records them as reached for their
   * flow and in the recently applied list.
   */
  async takeAwaitedJwksFaults(): Promise<FaultOf<'jwks_endpoint'>[]> {
    const taken: FaultOf<'jwks_endpoint'>[] = [];
    const groups = new Set<string>();
    for (const fault of FAULTS) {
      if (fault.target !== 'jwks_endpoint' || groups.has(fault.group)) continue;
      const awaiting = await this.store.take<AwaitingFault>(awaitingKey(fault.id));
      if (!awaiting) continue;
      groups.add(fault.group);
      taken.push(fault.id);
      const isIt = (injected: InjectedFault) => injected.id === fault.id && injected.reached === false && (injected.state ?? null) === awaiting.state;
      const reached = (injected: InjectedFault): InjectedFault => {
        const copy = { ...injected };
        delete copy.reached;
        return copy;
      };
      // Display only, as in `take`: two instances recording at once may drop the mark, never the fault.
      const injected = await this.injected();
      const index = injected.findIndex(isIt);
      if (index >= 0) await this.store.set(INJECTED_KEY, injected.with(index, reached(injected[index]!)), ARMED_TTL_SECONDS);
      if (awaiting.state !== null) {
        const record = await this.flowRecord(awaiting.state);
        const inFlow = record.faults.findIndex(isIt);
        if (inFlow >= 0) {
          await this.store.set(
            flowRecordKey(awaiting.state),
            { ...record, faults: record.faults.with(inFlow, reached(record.faults[inFlow]!)) } satisfies FlowRecord,
            FLOW_RECORD_TTL_SECONDS,
          );
        }
      }
    }
    return taken;
  }

  /** The faults of `target` whose window is open, in table order. */
  async openWindows<Target extends FaultTarget>(target: Target): Promise<FaultOf<Target>[]> {
    const open = await Promise.all(
      FAULTS.filter((fault) => fault.target === target).map(async (fault) =>
        (await this.store.get(windowKey(fault.id))) === undefined ? undefined : fault.id,
      ),
    );
    // Only faults of `target` were looked at.
    return open.filter((id) => id !== undefined) as FaultOf<Target>[];
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
  async take<Target extends FaultTarget>(
    target: Target,
    clientId: string,
    waiting: readonly FaultOf<Target>[] = [],
    state?: string,
  ): Promise<ReadonlySet<FaultOf<Target>>> {
    const taken = new Map<FaultId, InjectedFault['chosen']>();
    const groups = new Set<string>();
    const forFlow = state === undefined ? undefined : await this.store.get<FlowArmedFaults>(flowArmedKey(state));
    const flowFaults = forFlow && forFlow.clientId === clientId ? forFlow.faults : [];
    const takenForFlow: FaultId[] = [];
    for (const fault of FAULTS) {
      if (fault.target !== target || groups.has(fault.group) || (waiting as readonly FaultId[]).includes(fault.id)) continue;
      if (flowFaults.includes(fault.id)) {
        groups.add(fault.group);
        taken.set(fault.id, forFlow?.chosen ?? 'flow');
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
      // A JWKS outage is made later, on the JWKS request that follows, if one comes (awaitJwksRequest).
      const reached = target === 'jwks_endpoint' ? { reached: false as const } : {};
      const applied: InjectedFault[] = [...taken].map(([id, chosen]) => ({ id, clientId, at, chosen, ...(state === undefined ? {} : { state }), ...reached }));
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
    // Only faults of `target` were taken.
    return new Set(taken.keys()) as ReadonlySet<FaultId> as ReadonlySet<FaultOf<Target>>;
  }
}

/**
 * An armed fault as stored: the client it waits for (null for any), and the run that armed it
 * through the QA API with `armed_by`. A record without `armedBy` (one kept from before owners, or
 * armed on the panel, the control API or the QA API without `armed_by`) was armed by hand.
 */
interface ArmedFault {
  clientId: string | null;
  armedBy?: string;
}

/** An armed fault as callers see it: the client it waits for (absent: any) and its owner (absent: armed by hand). */
export interface FaultArming {
  clientId?: string;
  armedBy?: string;
}

function armingOf(armed: ArmedFault): FaultArming {
  return { ...(armed.clientId === null ? {} : { clientId: armed.clientId }), ...(armed.armedBy === undefined ? {} : { armedBy: armed.armedBy }) };
}

/**
 * The deployment-wide run lock as stored: who holds it and until when (ms since the epoch). The
 * store's TTL ends it at the same moment.
 */
export interface RunLock {
  owner: string;
  expiresAt: number;
}

const RUN_LOCK_KEY = 'fault-run-lock';

/** How long a run lock may be taken for, in whole seconds: long enough to renew, short enough that a dead run frees it soon. */
export const RUN_LOCK_SECONDS = { min: 5, max: 600 } as const;

/**
 * The name of a run: `armed_by` of a fault, `owner` of the run lock. Letters, digits, `_` and
 * `-`, 1 to 64 of them: a random name fits, and it is safe in a key, a log line and a page.
 */
export const RUN_OWNER = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether `value` is a run's name (RUN_OWNER). */
export function isRunOwner(value: unknown): value is string {
  return typeof value === 'string' && RUN_OWNER.test(value);
}

function checkedOwner(owner: string): string {
  if (!isRunOwner(owner)) throw new Error(`a run's name is 1 to 64 letters, digits, '_' and '-', not ${JSON.stringify(String(owner)).slice(0, 80)}`);
  return owner;
}

/**
 * How many times an owned arming or a lock is tried when the key changes between two store
 * calls: each retry needs another caller to have changed it in that instant.
 */
const CONTENDED_ROUNDS = 3;

/** An armed fault waits a week at most; a forgotten one then disarms itself. */
const ARMED_TTL_SECONDS = 7 * 24 * 3600;
const INJECTED_KEY = 'faults-injected';

/** Faults armed for one flow: the client of the flow, the faults not applied yet, and how they were chosen (absent: for the flow). */
interface FlowArmedFaults {
  clientId: string;
  faults: FaultId[];
  chosen?: 'again';
}

/** An error kept for a flow before its interaction exists: the flow's client, and the FLOW_ERRORS id. */
interface FlowChosenError {
  clientId: string;
  errorId: string;
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

function flowErrorKey(state: string): string {
  return `flow-error:${flowKey(state)}`;
}

function flowRecordKey(state: string): string {
  return `flow-record:${flowKey(state)}`;
}

/** A `jwks_endpoint` fault taken for a flow's ID token, waiting for the JWKS request: the flow's `state` (null: none known). */
interface AwaitingFault {
  state: string | null;
}

function awaitingKey(id: FaultId): string {
  return `fault-awaiting:${id}`;
}

function windowKey(id: FaultId): string {
  return `fault-window:${id}`;
}

function armedKey(id: FaultId): string {
  return `fault:${id}`;
}

function checkedId(id: string): FaultId {
  if (!isFaultId(id)) throw new Error(`unknown fault '${id}'; known faults: ${FAULTS.map((fault) => fault.id).join(', ')}`);
  return id;
}
