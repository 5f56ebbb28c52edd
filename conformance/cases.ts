/**
 * The conformance kit's cases: one whole verification each, answered by the emulator as the case
 * says. Every fault and variant of the emulator's catalogue (lib/emulator/qa/faults.ts) is a case,
 * with the clause it rests on and, where one corresponds, the OpenID Foundation conformance suite's
 * relying-party test it mirrors; a normal verification opens and closes the run, so a refusal is
 * never counted for a relying party that accepts nothing.
 * @see spec 2.5, 2.7, 4.2, 4.4, 4.5, 5.6, part 7
 */
import { FAULTS, faultById, type FaultId, type FaultOf } from '../lib/emulator/qa/faults';

/**
 * What a correct relying party does with the case's answer:
 * - `accepted`: it shows the verified person (the case's canary given name appears);
 * - `refused`: it never shows the person, and does not crash (no 5xx);
 * - `portrait_not_shown`: whether or not it completes, nothing on its page refers to the
 *   `picture` it was sent, and the browser never fetches it.
 */
export type Expectation = 'accepted' | 'refused' | 'portrait_not_shown';

export interface ConformanceCase {
  /** the fault's id, or `normal` / `normal_again` */
  id: string;
  /** a short name */
  title: string;
  /** what the emulator does in this case */
  what: string;
  expect: Expectation;
  /** the emulator's faults answering the case's flow (none for a normal verification) */
  faults: readonly FaultId[];
  /**
   * Where they are armed: on the flow's authorization page (`flow`), or for the client before the
   * flow starts (`client`: a PAR fault spoils the request that would create the flow).
   */
  armedFor: 'flow' | 'client';
  /** the clause the expectation rests on */
  basis: string;
  /** the OpenID Foundation FAPI 2.0 Security Profile relying-party test this case mirrors, if any */
  fapiTest?: string;
  /**
   * Where no FAPI 2.0 test corresponds: the nearest relying-party test of the same suite's
   * OpenID Connect or FAPI 1.0 plans, if any
   */
  otherSuiteTest?: string;
  /**
   * The relying party must fetch the JWKS during the case (a new signing key): the kit runs it
   * only once the relying party may fetch again (its cooldown since the last JWKS fetch).
   */
  needsJwksFetch: boolean;
  /**
   * The case cannot be kept to the flow it starts: a PAR fault is armed for the whole client
   * (nothing names the flow before PAR), and a rotated signing key or a JWKS variant is what every
   * client of the emulator gets while it lasts. The kit runs these alone, after every other case,
   * and a run may leave them out (`--no-client-wide`); meanwhile they may spoil other
   * verifications of the same client (of any client, for the JWKS).
   */
  clientWide: boolean;
  /**
   * Its ID token names a `kid` the JWKS does not hold: a relying party whose cooldown allows it
   * fetches the JWKS again, and its cooldown starts over. The kit runs it first among the per-flow
   * cases, within the cooldown of the normal verification's fetch, so that it delays no case that
   * needs a fetch.
   */
  unknownKid: boolean;
}

/**
 * The faults that are no case: a JWKS outage (`jwks_error`, `jwks_timeout`). The kit cannot decide
 * one by itself, since a correct relying party may meet it with either answer, for reasons the kit
 * does not see: with the key cached it never asks for the JWKS; past its cache's freshness it may
 * keep using the key set it has (stale-if-error, RFC 5861 §4) and complete; after a refusal it may
 * ask again after a back-off and get the keys (the fault is one-shot) and complete; with no usable
 * key it refuses. An outage is also every client's (a JWKS request names none).
 */
type CaseFaultId = Exclude<FaultId, FaultOf<'jwks_endpoint'>>;

function isCaseFault(id: FaultId): id is CaseFaultId {
  return faultById(id).target !== 'jwks_endpoint';
}

/**
 * The clause each fault's expectation rests on, and the OpenID Foundation conformance suite's
 * relying-party test it mirrors (test names as in their `@PublishTestModule` annotations,
 * github.com/openid-certification/conformance-suite at 12f2a4da): a FAPI 2.0 Security Profile
 * test (`fapi2spfinal/`), else the nearest OpenID Connect (`openid/client/`) or FAPI 1.0 test.
 * `signed_ps256` and `signed_es384` are close to, not the same as, `invalid-alternate-alg` (which
 * signs with RS256); `unknown_signing_key` is signed by a foreign key where `invalid-sig-es256`
 * spoils the signature.
 */
const BASIS: Record<CaseFaultId, { basis: string; fapiTest?: string; otherSuiteTest?: string }> = {
  wrong_nonce: { basis: 'spec 4.5 (nonce); OpenID Connect Core 3.1.3.7 item 11', fapiTest: 'fapi2-security-profile-final-client-test-invalid-nonce' },
  missing_nonce: { basis: 'spec 4.5 (nonce); OpenID Connect Core 3.1.3.7 item 11', fapiTest: 'fapi2-security-profile-final-client-test-invalid-missing-nonce' },
  wrong_issuer: { basis: 'spec 4.5 (iss); OpenID Connect Core 3.1.3.7 item 2', fapiTest: 'fapi2-security-profile-final-client-test-invalid-iss' },
  missing_issuer: { basis: 'spec 2.6, 4.5 (iss); OpenID Connect Core 2', fapiTest: 'fapi2-security-profile-final-client-test-invalid-missing-iss' },
  wrong_audience: { basis: 'spec 4.5 (aud); OpenID Connect Core 3.1.3.7 item 3', fapiTest: 'fapi2-security-profile-final-client-test-invalid-aud' },
  missing_audience: { basis: 'spec 2.6, 4.5 (aud); OpenID Connect Core 2', fapiTest: 'fapi2-security-profile-final-client-test-invalid-missing-aud' },
  extra_audience: {
    basis: 'spec 4.5 (aud equals the client_id); OpenID Connect Core 3.1.3.7 item 3',
    fapiTest: 'fapi2-security-profile-final-client-test-invalid-secondary-aud',
  },
  missing_subject: { basis: 'spec 2.6 (sub); OpenID Connect Core 2', otherSuiteTest: 'oidcc-client-test-missing-sub' },
  expired: { basis: 'spec 4.5 (exp); OpenID Connect Core 3.1.3.7 item 9', fapiTest: 'fapi2-security-profile-final-client-test-invalid-expired-exp' },
  missing_expiry: { basis: 'spec 2.6 (exp), 4.5; OpenID Connect Core 2', fapiTest: 'fapi2-security-profile-final-client-test-invalid-missing-exp' },
  issued_in_future: { basis: 'spec 4.5 (iat not in the future)' },
  unknown_signing_key: { basis: 'spec 4.4, 5.6; RFC 7515 §5.2', otherSuiteTest: 'oidcc-client-test-invalid-sig-es256' },
  unknown_kid: { basis: 'spec 4.4 (keys matched by kid)' },
  signed_ps256: { basis: 'spec 4.4, 5.6 (ES256); RFC 8725 §3.1', fapiTest: 'fapi2-security-profile-final-client-test-invalid-alternate-alg' },
  signed_es384: { basis: 'spec 4.4, 5.6 (ES256); RFC 8725 §3.1', fapiTest: 'fapi2-security-profile-final-client-test-invalid-alternate-alg' },
  alg_none: { basis: 'spec 5.6; RFC 8725 §3.1; OpenID Connect Core 3.1.3.7 item 7', fapiTest: 'fapi2-security-profile-final-client-test-invalid-null-alg' },
  hs256_public_key: { basis: 'spec 5.6; RFC 8725 §2.1, §3.1' },
  unencrypted: { basis: 'spec 2.5, 5.6 (the ID token is a JWE)' },
  wrong_jwe_algorithm: { basis: 'spec 2.5; RFC 8725 §3.2 (no RSA1_5)', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken-usingrsa15' },
  wrong_encryption_key: { basis: 'spec 5.6; RFC 7516 §5.2' },
  jwe_tag_tampered: { basis: 'spec 5.6; RFC 7516 §5.2 step 14' },
  token_error: { basis: 'spec 4.3; RFC 6749 §5.2' },
  token_timeout: { basis: 'spec 4.3 (a token request that does not end is refused)' },
  token_invalid_grant: { basis: 'spec 4.3; RFC 6749 §5.2' },
  token_invalid_client: { basis: 'spec 4.3; RFC 6749 §5.2' },
  token_not_json: { basis: 'spec 2.5; RFC 6749 §5.1' },
  token_missing_id_token: { basis: 'spec 2.5 (id_token)' },
  par_server_error: { basis: 'spec 4.1, part 7' },
  par_temporarily_unavailable: { basis: 'spec 4.1, part 7' },
  par_invalid_request: { basis: 'spec 4.1, part 7' },
  par_invalid_client: { basis: 'spec 4.1, part 7' },
  wrong_state: {
    basis: 'spec 4.2 (state equals the stored value); RFC 6749 §10.12',
    fapiTest: 'fapi2-security-profile-final-client-test-ensure-authorization-response-with-invalid-state-fails',
  },
  missing_state: {
    basis: 'spec 4.2; RFC 6749 §4.1.2',
    fapiTest: 'fapi2-security-profile-final-client-test-ensure-authorization-response-with-invalid-missing-state-fails',
  },
  wrong_response_issuer: { basis: 'RFC 9207 §2.4', fapiTest: 'fapi2-security-profile-final-client-test-invalid-authorization-response-iss' },
  missing_response_issuer: {
    basis: 'RFC 9207 §2.4 (advertised, so required)',
    fapiTest: 'fapi2-security-profile-final-client-test-remove-authorization-response-iss',
  },
  key_rotated_unpublished: { basis: 'spec 2.7, 4.4; OpenID Connect Core 10.1.1', otherSuiteTest: 'oidcc-client-test-signing-key-rotation-just-before-signing' },
  aud_array: { basis: 'spec 4.5; RFC 7519 §4.1.3; OpenID Connect Core 2', fapiTest: 'fapi2-security-profile-final-client-test-valid-aud-as-array' },
  clock_skew_within_tolerance: { basis: 'spec 4.5; OpenID Connect Core 3.1.3.7 item 10 (acceptable range)' },
  unknown_verified_claims_members: { basis: 'OpenID Connect for Identity Assurance 1.0 §5 (ignore what is not understood)' },
  minimal_token: { basis: 'spec 2.6 (auth_time, acr, amr, evidence are not checked by 4.5)' },
  picture_not_image: { basis: 'spec 2.3 (picture is a base64 JPEG data URI)' },
  encrypted_rsa_oaep_256_a128gcm: {
    basis: 'spec 2.5 (the example header is only an example); RFC 7518 §4.3, §5.3',
    otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken',
  },
  encrypted_rsa_oaep_256_a192gcm: { basis: 'spec 2.5; RFC 7518 §4.3, §5.3', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_256_a256gcm: { basis: 'spec 2.5; RFC 7518 §4.3, §5.3', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_256_a128cbc_hs256: { basis: 'spec 2.5; RFC 7518 §4.3, §5.2', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_256_a192cbc_hs384: { basis: 'spec 2.5; RFC 7518 §4.3, §5.2', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_256_a256cbc_hs512: { basis: 'spec 2.5; RFC 7518 §4.3, §5.2', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_a128gcm: { basis: 'spec 2.5; RFC 7518 §4.3, §5.3', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_a192gcm: { basis: 'spec 2.5; RFC 7518 §4.3, §5.3', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_a256gcm: { basis: 'spec 2.5; RFC 7518 §4.3, §5.3', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_a128cbc_hs256: { basis: 'spec 2.5; RFC 7518 §4.3, §5.2', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_a192cbc_hs384: { basis: 'spec 2.5; RFC 7518 §4.3, §5.2', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  encrypted_rsa_oaep_a256cbc_hs512: { basis: 'spec 2.5; RFC 7518 §4.3, §5.2', otherSuiteTest: 'fapi1-advanced-final-client-test-encrypted-idtoken' },
  jwks_keys_shuffled: { basis: 'spec 4.4 (order of keys is not to be relied on)' },
  jwks_unparseable_extra_keys: { basis: 'spec 4.4 (count of keys is not to be relied on); RFC 7517 §5' },
  no_expires_in: {
    basis: 'spec 2.5; RFC 6749 §5.1 (expires_in is recommended, not required)',
    fapiTest: 'fapi2-security-profile-final-client-test-token-endpoint-response-without-expires_in',
  },
};

/**
 * The JWKS variants change the JWKS only: a relying party that does not fetch it during the case
 * never sees them. The signing key is rotated in the same flow, so it must.
 */
const JWKS_VARIANT_PARTNER: FaultId = 'key_rotated_unpublished';

/** The case for one fault of the catalogue. */
function caseOf(id: CaseFaultId): ConformanceCase {
  const fault = faultById(id);
  const { basis, fapiTest, otherSuiteTest } = BASIS[id];
  const withRotation = fault.target === 'jwks';
  return {
    id,
    title: fault.label,
    what: withRotation ? `${fault.effect} The signing key is rotated in the same flow, so the relying party must fetch the JWKS.` : fault.effect,
    expect: fault.kind === 'refusal' ? 'refused' : fault.check === 'portrait_not_shown' ? 'portrait_not_shown' : 'accepted',
    faults: withRotation ? [JWKS_VARIANT_PARTNER, id] : [id],
    armedFor: fault.target === 'par_endpoint' ? 'client' : 'flow',
    basis,
    ...(fapiTest ? { fapiTest } : {}),
    ...(otherSuiteTest ? { otherSuiteTest } : {}),
    needsJwksFetch: withRotation || id === JWKS_VARIANT_PARTNER,
    clientWide: fault.target === 'par_endpoint' || withRotation || id === JWKS_VARIANT_PARTNER,
    unknownKid: id === 'unknown_kid',
  };
}

/** A normal verification: the relying party must accept it, or no refusal means anything. */
function normalCase(id: 'normal' | 'normal_again', title: string): ConformanceCase {
  return {
    id,
    title,
    what: 'The service answers normally.',
    expect: 'accepted',
    faults: [],
    armedFor: 'flow',
    basis: 'spec part 1, 4.5',
    fapiTest: 'fapi2-security-profile-final-client-test-happy-path',
    needsJwksFetch: false,
    clientWide: false,
    unknownKid: false,
  };
}

/** The first case: a relying party that does not accept a normal verification is not tested further. */
export const BASELINE_CASE = normalCase('normal', 'A normal verification');

/** The last case: the relying party still accepts a normal verification after all the others. */
export const CLOSING_CASE = normalCase('normal_again', 'A normal verification, after every other case');

/** Every case, in the order the kit runs them (the scheduler moves the JWKS ones to when they can run). */
export const CASES: readonly ConformanceCase[] = [
  BASELINE_CASE,
  ...FAULTS.map((fault) => fault.id)
    .filter(isCaseFault)
    .map(caseOf),
  CLOSING_CASE,
];

/**
 * The cases whose id matches one of `patterns` (`*` matches any run of characters), the two
 * normal ones always included; all of them without patterns. Without `clientWide`, the
 * client-wide cases are left out, matched or not.
 * @throws Error naming a pattern that matches no case
 */
export function selectCases(patterns: readonly string[] = [], { clientWide = true }: { clientWide?: boolean } = {}): ConformanceCase[] {
  if (!clientWide) return selectCases(patterns).filter((candidate) => !candidate.clientWide);
  if (patterns.length === 0) return [...CASES];
  const matchers = patterns.map((pattern) => ({ pattern, regex: new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`) }));
  for (const { pattern, regex } of matchers) {
    if (!CASES.some((candidate) => regex.test(candidate.id))) {
      throw new Error(`no case matches '${pattern}'; the cases are: ${CASES.map((candidate) => candidate.id).join(', ')}`);
    }
  }
  return CASES.filter((candidate) => candidate === BASELINE_CASE || candidate === CLOSING_CASE || matchers.some(({ regex }) => regex.test(candidate.id)));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
