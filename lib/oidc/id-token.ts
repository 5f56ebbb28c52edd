/**
 * The ID token (2.5, 2.6, 4.5, 5.6): a JWE to our RSA key (RSA-OAEP-256 / A256GCM, or another
 * combination id-token-encryption.ts accepts) around a JWS (ES256) whose key is chosen by `kid`
 * from the service's JWKS. Decrypt, then verify, then validate each claim in a
 * visible chain: validateIssuer → validateAudience → validateExpiry → validateIssuedAt →
 * validateNonce → validateSubject. Each check is reported as it is made (`onCheck`, checks.ts):
 * what it compared and its verdict, the failing one included.
 *
 * Depends on: jose.
 * Copy with: checks.ts, client-keys.ts, errors.ts, http.ts, id-token-encryption.ts, jwks.ts, types.ts.
 */
import {
  compactDecrypt,
  compactVerify,
  decodeProtectedHeader,
  errors as joseErrors,
  type CompactJWEHeaderParameters,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { CheckListener, IdTokenCheck } from './checks.ts';
import { importPrivateKey } from './client-keys.ts';
import { IdvError, isIdvError } from './errors.ts';
import { DEFAULT_ID_TOKEN_ENCRYPTION, describeIdTokenEncryption, type IdTokenEncryption } from './id-token-encryption.ts';
import type { JwksCache, LookupOptions } from './jwks.ts';

/**
 * The only signature algorithm we accept (part 5 item 6, 4.4).
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.4
 */
export const SIGNING_ALGORITHM = 'ES256';
/**
 * The default clock tolerance for `exp` and `iat`, in seconds. A caller may choose 0 to
 * `MAX_CLOCK_TOLERANCE_SECONDS`: enough for clock skew, not enough to accept a token long past
 * its `exp`.
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * The largest clock tolerance a caller may choose, in seconds.
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export const MAX_CLOCK_TOLERANCE_SECONDS = 60;

/**
 * The clock tolerance to use: the caller's, or the default when none is given. Anything but a
 * finite number from 0 to 60 is refused, since a NaN would make every time comparison false and
 * so switch the `exp` and `iat` checks off (a `Number(process.env.X)` of an unset variable).
 * @throws RangeError for a tolerance that is not a finite number of seconds from 0 to 60
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export function clockTolerance(seconds: number | undefined): number {
  if (seconds === undefined) return DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0 || seconds > MAX_CLOCK_TOLERANCE_SECONDS) {
    throw new RangeError(`clockToleranceSeconds must be a finite number of seconds from 0 to ${MAX_CLOCK_TOLERANCE_SECONDS}, not ${String(seconds)}`);
  }
  return seconds;
}

/**
 * The payload of a validated ID token: the claims of 2.6, of which those checked are typed.
 * `verified_claims` is read with `parseVerifiedClaims`.
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDToken
 */
export type IdTokenClaims = Record<string, unknown> & {
  iss: string;
  sub: string;
  aud: string | string[];
  exp: number;
  iat: number;
  nonce: string;
};

/**
 * An ID token that was decrypted, verified and validated, with both headers for display.
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export interface ValidatedIdToken {
  jweHeader: CompactJWEHeaderParameters;
  jwsHeader: JWSHeaderParameters & { alg: string; kid: string };
  claims: IdTokenClaims;
  /** the service's JWKS entry that verified the signature (its `x5c` holds the certificate) */
  signingKey: JWK;
}

function decodeHeader(token: string): Record<string, unknown> {
  try {
    return decodeProtectedHeader(token) as Record<string, unknown>;
  } catch {
    throw new IdvError('id_token_malformed', 'The ID token header cannot be decoded');
  }
}

/** The header members a check shows: those that choose the algorithm and the key, when present. */
function headerFacts(header: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => header[name] !== undefined).map((name) => [name, header[name]]));
}

/** Reports `check` as failed with `error`'s code (and its message as the reason), and returns `error` to throw. */
function failed(onCheck: CheckListener | undefined, check: Omit<IdTokenCheck, 'passed' | 'code'>, error: IdvError): IdvError {
  onCheck?.({ ...check, passed: false, code: error.code, detail: { ...check.detail, reason: error.message } });
  return error;
}

/** Runs `step`; an IdvError it throws is reported as `check` failing, then thrown. */
async function checked<T>(onCheck: CheckListener | undefined, check: Omit<IdTokenCheck, 'passed' | 'code'>, step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw isIdvError(error) ? failed(onCheck, check, error) : error;
  }
}

/**
 * Decrypts the JWE with our RSA key. A bare JWS is refused (5.6: tokens are always encrypted), and
 * so is any combination of key management and content encryption not in `accepted` (by default
 * only RSA-OAEP-256 / A256GCM; `acceptedIdTokenEncryption` gives the list for a service): RSA1_5,
 * `dir` and key agreement never are.
 * @param encryptionKey our private RSA JWK
 * @param accepted the alg / enc combinations to accept (id-token-encryption.ts)
 * @param onCheck receives the `jwe_header` and `decryption` checks
 * @returns the inner JWS and the JWE header
 * @throws IdvError with code `id_token_not_encrypted`, `id_token_malformed`,
 *   `id_token_unsupported_encryption`, `invalid_client_key` or `id_token_decryption_failed`
 * @see Interface specification 2.5 "Token response"
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7516#section-9
 * @see https://www.rfc-editor.org/rfc/rfc8725#section-3.2
 * @see https://openid.net/specs/openid-connect-core-1_0.html#Encryption
 */
export async function decryptIdToken(
  idToken: string,
  encryptionKey: JWK,
  accepted: readonly IdTokenEncryption[] = [DEFAULT_ID_TOKEN_ENCRYPTION],
  onCheck?: CheckListener,
): Promise<{ jws: string; jweHeader: CompactJWEHeaderParameters }> {
  const expected = accepted.map(describeIdTokenEncryption);
  const parts = idToken.split('.').length;
  if (parts === 3) {
    const received = (() => {
      try {
        return headerFacts(decodeHeader(idToken), ['alg', 'kid', 'typ']);
      } catch {
        return undefined;
      }
    })();
    throw failed(
      onCheck,
      { check: 'jwe_header', expected, received, detail: { parts } },
      new IdvError('id_token_not_encrypted', 'The ID token is a bare JWS; the service must encrypt it'),
    );
  }
  if (parts !== 5) {
    throw failed(onCheck, { check: 'jwe_header', expected, detail: { parts } }, new IdvError('id_token_malformed', 'The ID token is not a compact JWE'));
  }
  const header = await checked(onCheck, { check: 'jwe_header', expected, detail: { parts } }, () => decodeHeader(idToken));
  const received = headerFacts(header, ['alg', 'enc', 'kid', 'cty', 'typ']);
  const combination = accepted.find(({ alg, enc }) => header.alg === alg && header.enc === enc);
  if (!combination) {
    const list = expected.join(', ');
    throw failed(
      onCheck,
      { check: 'jwe_header', expected, received },
      new IdvError('id_token_unsupported_encryption', `The ID token must be encrypted with ${accepted.length > 1 ? 'one of ' : ''}${list}`, {
        claim: 'alg/enc',
        expected: list,
        actual: `${String(header.alg)} / ${String(header.enc)}`,
      }),
    );
  }
  onCheck?.({ check: 'jwe_header', passed: true, expected, received });
  const decryption = { check: 'decryption', expected: encryptionKey.kid, received: header.kid } as const;
  // jose ignores the JWK's own `alg` when importing an RSA key, so one key serves both OAEP hashes.
  const key = await checked(onCheck, decryption, () => importPrivateKey(encryptionKey, combination.alg));
  let result: { jws: string; jweHeader: CompactJWEHeaderParameters };
  try {
    const { plaintext, protectedHeader } = await compactDecrypt(idToken, key, {
      keyManagementAlgorithms: [combination.alg],
      contentEncryptionAlgorithms: [combination.enc],
    });
    result = { jws: new TextDecoder().decode(plaintext), jweHeader: protectedHeader };
  } catch (error) {
    throw failed(
      onCheck,
      decryption,
      new IdvError('id_token_decryption_failed', `The ID token cannot be decrypted with our key: ${(error as Error).message}`, {
        kid: header.kid,
        expected: encryptionKey.kid,
      }),
    );
  }
  onCheck?.({ ...decryption, passed: true });
  return result;
}

/** The JWKS entry that verified the signature as a check shows it: which key, not its material. */
function keyFacts(jwk: JWK): Record<string, unknown> {
  const facts = headerFacts(jwk as Record<string, unknown>, ['kid', 'kty', 'crv', 'alg', 'use']);
  return Array.isArray(jwk.x5c) ? { ...facts, certificates: jwk.x5c.length } : facts;
}

/**
 * Verifies the inner JWS with the service key named by its `kid` (4.4). `alg` must be ES256, so
 * `none`, HS256 (key confusion) and RS256 never reach a verifier.
 * @param lookup the HTTP options to use if the JWKS has to be fetched (a tracing fetch, `allowInsecureRequests`)
 * @param onCheck receives the `jws_header`, `signing_key`, `signature` and `payload` checks
 * @returns the JWS header, the payload (not yet validated) and the key that verified it
 * @throws IdvError with code `id_token_malformed`, `id_token_unsupported_algorithm`,
 *   `id_token_key_not_found`, `id_token_signature_invalid`, `jwks_fetch_failed`, or a transport
 *   code (`timeout`, `network_error`, ...)
 * @see Interface specification 4.4 "GET /jwks"
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-5.2
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export async function verifyIdTokenSignature(
  jws: string,
  jwks: JwksCache,
  jwksUri: string,
  lookup: LookupOptions = {},
  onCheck?: CheckListener,
): Promise<{ jwsHeader: ValidatedIdToken['jwsHeader']; payload: Record<string, unknown>; signingKey: JWK }> {
  const parts = jws.split('.').length;
  if (parts !== 3) {
    throw failed(
      onCheck,
      { check: 'jws_header', expected: SIGNING_ALGORITHM, detail: { parts } },
      new IdvError('id_token_malformed', 'The decrypted ID token is not a compact JWS'),
    );
  }
  const header = await checked(onCheck, { check: 'jws_header', expected: SIGNING_ALGORITHM }, () => decodeHeader(jws));
  const jwsHeaderCheck = { check: 'jws_header', expected: SIGNING_ALGORITHM, received: headerFacts(header, ['alg', 'kid', 'typ', 'cty']) } as const;
  if (header.alg !== SIGNING_ALGORITHM) {
    throw failed(
      onCheck,
      jwsHeaderCheck,
      new IdvError('id_token_unsupported_algorithm', `The ID token must be signed with ${SIGNING_ALGORITHM}`, {
        claim: 'alg',
        expected: SIGNING_ALGORITHM,
        actual: header.alg,
      }),
    );
  }
  if (typeof header.kid !== 'string' || header.kid.length === 0) {
    throw failed(onCheck, jwsHeaderCheck, new IdvError('id_token_key_not_found', 'The ID token names no signing key (kid)', { claim: 'kid' }));
  }
  onCheck?.({ ...jwsHeaderCheck, passed: true });
  const kid = header.kid;
  let found: Awaited<ReturnType<JwksCache['getKey']>>;
  try {
    found = await jwks.getKey(jwksUri, { alg: SIGNING_ALGORITHM, kid }, lookup);
  } catch (error) {
    if (!isIdvError(error)) throw error;
    const published = error.code === 'id_token_key_not_found' && Array.isArray(error.cause.expected) ? { published: error.cause.expected } : {};
    throw failed(onCheck, { check: 'signing_key', expected: kid, detail: { jwksUri, ...published } }, error);
  }
  const { key, jwk, source } = found;
  onCheck?.({ check: 'signing_key', passed: true, expected: kid, received: keyFacts(jwk), detail: { jwksUri, source } });
  let payloadBytes: Uint8Array;
  let protectedHeader: JWSHeaderParameters;
  const signature = { check: 'signature', expected: { alg: SIGNING_ALGORITHM, kid } } as const;
  try {
    ({ payload: payloadBytes, protectedHeader } = await compactVerify(jws, key, { algorithms: [SIGNING_ALGORITHM] }));
  } catch (error) {
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      throw failed(onCheck, signature, new IdvError('id_token_signature_invalid', 'The ID token signature does not verify with the service key', { kid }));
    }
    throw failed(onCheck, signature, new IdvError('id_token_malformed', `The ID token cannot be verified: ${(error as Error).message}`));
  }
  onCheck?.({ ...signature, passed: true });
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder().decode(payloadBytes));
  } catch {
    throw failed(onCheck, { check: 'payload' }, new IdvError('id_token_malformed', 'The ID token payload is not JSON'));
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw failed(onCheck, { check: 'payload' }, new IdvError('id_token_malformed', 'The ID token payload is not a JSON object'));
  }
  onCheck?.({ check: 'payload', passed: true });
  return {
    jwsHeader: { ...protectedHeader, alg: SIGNING_ALGORITHM, kid },
    payload: payload as Record<string, unknown>,
    signingKey: jwk,
  };
}

/**
 * What the ID token's claims are checked against: our issuer, our client_id, the nonce of the
 * request object and the time.
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export interface ClaimExpectations {
  issuer: string;
  clientId: string;
  nonce: string;
  /** ms since the epoch */
  now: number;
  clockToleranceSeconds?: number;
}

/**
 * 4.5: `iss` equals the service issuer URL.
 * @throws IdvError with code `id_token_issuer_mismatch`
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export function validateIssuer(claims: Record<string, unknown>, issuer: string): void {
  if (claims.iss !== issuer) {
    throw new IdvError('id_token_issuer_mismatch', 'The ID token was issued by someone else', {
      claim: 'iss',
      expected: issuer,
      actual: claims.iss,
    });
  }
}

/**
 * 4.5: `aud` is our client_id. A one-element array holding it is accepted too; an extra audience
 * is not (OpenID Connect Core rejects audiences the client does not trust, and we trust no other).
 * @throws IdvError with code `id_token_audience_mismatch`
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export function validateAudience(claims: Record<string, unknown>, clientId: string): void {
  const { aud } = claims;
  const ok = aud === clientId || (Array.isArray(aud) && aud.length === 1 && aud[0] === clientId);
  if (!ok) {
    throw new IdvError('id_token_audience_mismatch', 'The ID token is meant for another audience', {
      claim: 'aud',
      expected: clientId,
      actual: aud,
    });
  }
}

function numericDate(claims: Record<string, unknown>, claim: 'exp' | 'iat'): number {
  const value = claims[claim];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new IdvError('id_token_malformed', `The ID token has no numeric ${claim}`, { claim, actual: value });
  }
  return value;
}

/**
 * 4.5: `exp` not expired (allowing `toleranceSeconds` of clock skew).
 * @throws IdvError with code `id_token_malformed` (no numeric `exp`) or `id_token_expired`
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 */
export function validateExpiry(claims: Record<string, unknown>, nowSeconds: number, toleranceSeconds: number): void {
  const exp = numericDate(claims, 'exp');
  if (exp <= nowSeconds - toleranceSeconds) {
    throw new IdvError('id_token_expired', 'The ID token has expired', { claim: 'exp', actual: exp, expected: `> ${nowSeconds}` });
  }
}

/**
 * 4.5: `iat` not in the future (allowing `toleranceSeconds` of clock skew).
 * @throws IdvError with code `id_token_malformed` (no numeric `iat`) or `id_token_issued_in_future`
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.6
 */
export function validateIssuedAt(claims: Record<string, unknown>, nowSeconds: number, toleranceSeconds: number): void {
  const iat = numericDate(claims, 'iat');
  if (iat > nowSeconds + toleranceSeconds) {
    throw new IdvError('id_token_issued_in_future', 'The ID token claims to be issued in the future', {
      claim: 'iat',
      actual: iat,
      expected: `<= ${nowSeconds}`,
    });
  }
}

/**
 * 4.5: `nonce` equals the nonce of the request object.
 * @throws IdvError with code `id_token_nonce_mismatch`
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#NonceNotes
 */
export function validateNonce(claims: Record<string, unknown>, nonce: string): void {
  if (claims.nonce !== nonce) {
    throw new IdvError('id_token_nonce_mismatch', 'The ID token nonce differs from the one we sent', { claim: 'nonce' });
  }
}

/**
 * OpenID Connect Core §2: `sub` is required (2.6 calls it a hashed subject identifier).
 * @throws IdvError with code `id_token_subject_missing`
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDToken
 */
export function validateSubject(claims: Record<string, unknown>): void {
  if (typeof claims.sub !== 'string' || claims.sub.length === 0) {
    throw new IdvError('id_token_subject_missing', 'The ID token has no subject (sub)', { claim: 'sub' });
  }
}

/**
 * The claim checks of 4.5, in order, then `sub`, with the caller's clock tolerance (0 to 60 s).
 * Every check is made and reported (`onCheck`), so a token wrong in two ways shows both; the
 * first that fails, in this order, is thrown.
 * @throws IdvError with the code of the first check that fails (see the `validate*` functions)
 * @throws RangeError for a clock tolerance that is not a finite number from 0 to 60
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export function validateIdTokenClaims(claims: Record<string, unknown>, expected: ClaimExpectations, onCheck?: CheckListener): IdTokenClaims {
  const nowSeconds = Math.floor(expected.now / 1000);
  const tolerance = clockTolerance(expected.clockToleranceSeconds);
  const clock = (limit: number) => ({ now: nowSeconds, toleranceSeconds: tolerance, limit });
  const checks: readonly [Omit<IdTokenCheck, 'passed' | 'code'>, () => void][] = [
    [{ check: 'iss', expected: expected.issuer, received: claims.iss }, () => validateIssuer(claims, expected.issuer)],
    [{ check: 'aud', expected: expected.clientId, received: claims.aud }, () => validateAudience(claims, expected.clientId)],
    [{ check: 'exp', received: claims.exp, detail: clock(nowSeconds - tolerance) }, () => validateExpiry(claims, nowSeconds, tolerance)],
    [{ check: 'iat', received: claims.iat, detail: clock(nowSeconds + tolerance) }, () => validateIssuedAt(claims, nowSeconds, tolerance)],
    [{ check: 'nonce', expected: expected.nonce, received: claims.nonce }, () => validateNonce(claims, expected.nonce)],
    [{ check: 'sub', received: claims.sub }, () => validateSubject(claims)],
  ];
  let first: IdvError | undefined;
  for (const [check, validate] of checks) {
    try {
      validate();
      onCheck?.({ ...check, passed: true });
    } catch (error) {
      if (!isIdvError(error)) throw error;
      first ??= error;
      failed(onCheck, check, error);
    }
  }
  if (first) throw first;
  return claims as IdTokenClaims;
}

/**
 * Everything `processIdToken` needs: the claim expectations, our decryption key and the
 * service's key set.
 * @see Interface specification 5 "Authentication"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export interface IdTokenExpectations extends ClaimExpectations {
  encryptionKey: JWK;
  /** the alg / enc combinations to accept (default RSA-OAEP-256 / A256GCM; `acceptedIdTokenEncryption`) */
  encryption?: readonly IdTokenEncryption[];
  jwks: JwksCache;
  jwksUri: string;
  /** used if the JWKS has to be fetched (e.g. a tracing fetch); over `http.fetch` */
  fetch?: LookupOptions['fetch'];
  /** the relying party's HTTP options, used if the JWKS has to be fetched (`allowInsecureRequests`, `timeoutMs`) */
  http?: LookupOptions;
  /** receives every check as it is made, the failing one included (checks.ts) */
  onCheck?: CheckListener;
}

/**
 * Decrypt → verify → validate (5.6, 4.5). No key, no token.
 * @throws IdvError as `decryptIdToken`, `verifyIdTokenSignature` and `validateIdTokenClaims` do
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see Interface specification 5 "Authentication"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-7.2
 */
export async function processIdToken(idToken: string, expected: IdTokenExpectations): Promise<ValidatedIdToken> {
  const { onCheck } = expected;
  const { jws, jweHeader } = await decryptIdToken(idToken, expected.encryptionKey, expected.encryption, onCheck);
  const { jwsHeader, payload, signingKey } = await verifyIdTokenSignature(
    jws,
    expected.jwks,
    expected.jwksUri,
    { ...expected.http, ...(expected.fetch ? { fetch: expected.fetch } : {}) },
    onCheck,
  );
  const claims = validateIdTokenClaims(payload, expected, onCheck);
  return { jweHeader, jwsHeader, claims, signingKey };
}
