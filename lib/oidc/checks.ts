/**
 * The checks of the ID token, one by one, as `processIdToken` makes them: what each compared
 * (expected and received) and its verdict, for a protocol trace that explains a failure to the
 * byte. Reported through `onCheck` as they are made, so the check that fails is reported before
 * its error is thrown.
 *
 * Copy with: errors.ts.
 */
import type { IdvErrorCode } from './errors.ts';

/**
 * The checks, in the order they are made: the JWE header, decryption, the JWS header, the key
 * chosen, the signature, the payload, each claim of 4.5 and `sub`, then `verified_claims`.
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see Interface specification 5 "Authentication"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export const ID_TOKEN_CHECKS = [
  'jwe_header',
  'decryption',
  'jws_header',
  'signing_key',
  'signature',
  'payload',
  'iss',
  'aud',
  'exp',
  'iat',
  'nonce',
  'sub',
  'verified_claims',
] as const;

/** One of {@link ID_TOKEN_CHECKS}. */
export type IdTokenCheckName = (typeof ID_TOKEN_CHECKS)[number];

/**
 * Where the key that verified the signature came from: the cached key set, a first fetch, a
 * refetch for a `kid` the cached set lacked (key rotation), or the last good set kept while a
 * refresh fails (jwks.ts).
 * @see Interface specification 4.4 "GET /jwks"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RotateSigKeys
 */
export type KeySource = 'cache' | 'fetched' | 'refetched' | 'stale';

/**
 * One check and its verdict. `expected` and `received` are values as the token and the relying
 * party hold them (secrets such as the nonce included: mask them before showing or storing them).
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export interface IdTokenCheck {
  check: IdTokenCheckName;
  passed: boolean;
  /** what a valid token has here */
  expected?: unknown;
  /** what this token has (absent: the token has nothing there) */
  received?: unknown;
  /** the code the check failed with */
  code?: IdvErrorCode;
  /**
   * The facts behind the verdict: for `exp` and `iat` the clock (`now`, seconds), the tolerance
   * (`toleranceSeconds`) and the `limit` compared with; for `signing_key` the key's `source`;
   * for `verified_claims` the members dropped; for a failure, the reason in words (`reason`).
   */
  detail?: Record<string, unknown>;
}

/** Receives each check as it is made. */
export type CheckListener = (check: IdTokenCheck) => void;
