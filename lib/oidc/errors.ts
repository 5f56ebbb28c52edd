/**
 * One error type for the relying-party core. Callers switch on `code`, never on the message.
 * OAuth error codes the service returns (part 7, RFC 6749 §4.1.2.1 and §5.2) pass through as codes
 * of their own, so a page can show `access_denied` or `invalid_client` verbatim.
 *
 * Copy with: nothing (no imports).
 */

/**
 * OAuth error codes the service (part 7) or the authorization response may return: those of
 * RFC 6749, and the ones OpenID Connect adds for the authentication error response
 * (`invalid_request_uri`, `invalid_request_object`, `login_required`, ...).
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthError
 */
export const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'unauthorized_client',
  'invalid_scope',
  'invalid_grant',
  'unsupported_grant_type',
  'unsupported_response_type',
  'access_denied',
  'server_error',
  'temporarily_unavailable',
  'invalid_request_uri',
  'invalid_request_object',
  'login_required',
  'consent_required',
  'interaction_required',
] as const;
/**
 * One of {@link OAUTH_ERROR_CODES}: an error the service reported, passed through under its own name.
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** Our own codes, one per distinct failure. */
export const RP_ERROR_CODES = [
  'unknown_oauth_error',
  'insecure_url',
  'network_error',
  'timeout',
  'invalid_response',
  'discovery_failed',
  'discovery_issuer_mismatch',
  'invalid_client_key',
  'client_assertion_rate_exceeded',
  'par_failed',
  'callback_issuer_mismatch',
  'state_missing',
  'state_mismatch',
  'code_missing',
  'token_failed',
  'jwks_fetch_failed',
  'id_token_missing',
  'id_token_not_encrypted',
  'id_token_unsupported_encryption',
  'id_token_decryption_failed',
  'id_token_malformed',
  'id_token_unsupported_algorithm',
  'id_token_key_not_found',
  'id_token_signature_invalid',
  'id_token_issuer_mismatch',
  'id_token_audience_mismatch',
  'id_token_expired',
  'id_token_issued_in_future',
  'id_token_nonce_mismatch',
  'id_token_subject_missing',
] as const;
/** One of {@link RP_ERROR_CODES}: a failure this relying party found itself. */
export type RpErrorCode = (typeof RP_ERROR_CODES)[number];

/**
 * Every code an IdvError can carry: one the service sent, or one of our own.
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export type IdvErrorCode = OAuthErrorCode | RpErrorCode;

/**
 * Structured detail of a failed check (the style of jose's and oauth4webapi's errors). For an
 * error the service sent, `error`, `description` and `status` keep its error response.
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export interface IdvErrorCause {
  claim?: string;
  expected?: unknown;
  actual?: unknown;
  /** HTTP status of the response that failed, where there was one */
  status?: number;
  /** the `error_description` the service sent, verbatim */
  description?: string;
  /** the `error` the service sent, verbatim, when it is not a known code */
  error?: string;
  /** after a failed discovery or JWKS request: ms until that endpoint is asked again */
  retryAfterMs?: number;
  /**
   * `network_error`: the platform's code of the transport failure, as Node names it: ENOTFOUND or
   * EAI_AGAIN (DNS), ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET (closed), or a TLS certificate's
   * (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID, ...)
   */
  transportCode?: string;
  /** `network_error`: the words of that failure ("getaddrinfo ENOTFOUND idv.invalid") */
  transportMessage?: string;
  [detail: string]: unknown;
}

/**
 * Marks IdvErrors across copies of this module: a bundler may load the core once per route, and
 * an error thrown by one copy must still be recognised by another (where `instanceof` fails).
 */
const BRAND = Symbol.for('idv-relying-party.IdvError');

/**
 * The one error the core throws. `code` says what failed (switch on it); `message` is a sentence
 * for logs; `cause` holds the structured detail (the claim, what was expected, what came).
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export class IdvError extends Error {
  override readonly name = 'IdvError';
  readonly code: IdvErrorCode;
  override readonly cause: IdvErrorCause;
  readonly [BRAND] = true;

  constructor(code: IdvErrorCode, message: string, cause: IdvErrorCause = {}) {
    super(message);
    this.code = code;
    this.cause = cause;
  }
}

/**
 * Whether `value` is an IdvError, from this copy of the module or another one. Use it instead of
 * `instanceof`, which fails across copies.
 */
export function isIdvError(value: unknown): value is IdvError {
  return value instanceof Error && (value as Partial<Record<typeof BRAND, unknown>>)[BRAND] === true;
}

const oauthCodes: ReadonlySet<string> = new Set(OAUTH_ERROR_CODES);
const allCodes: ReadonlySet<string> = new Set<string>([...OAUTH_ERROR_CODES, ...RP_ERROR_CODES]);

/** Whether `value` is one of the codes an IdvError can carry (a type guard for an untyped string). */
export function isIdvErrorCode(value: unknown): value is IdvErrorCode {
  return typeof value === 'string' && allCodes.has(value);
}

/**
 * An error the service reported (an RFC 6749 error body, or the `error` parameter of the
 * authorization response). Known codes keep their name; anything else becomes
 * `unknown_oauth_error` with the service's word kept in `cause.error`. Returns the error; the
 * caller throws it.
 * @param error the `error` value the service sent
 * @param description its `error_description`, if any
 * @param status the HTTP status of the response, if there was one
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export function oauthError(error: string, description: string | undefined, status?: number): IdvError {
  const code: IdvErrorCode = oauthCodes.has(error) ? (error as OAuthErrorCode) : 'unknown_oauth_error';
  const cause: IdvErrorCause = { error };
  if (description !== undefined) cause.description = description;
  if (status !== undefined) cause.status = status;
  return new IdvError(code, description ? `${error}: ${description}` : error, cause);
}
