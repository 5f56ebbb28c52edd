/**
 * The authorization response at the redirect URI (4.2). Checked in this order: `iss` when present
 * (RFC 9207 mix-up defence), then `state` (CSRF, 4.2: "must verify that state equals the stored
 * value"), then `error`, then `code`. The error is only trusted once the state matched, so a forged
 * redirect cannot make us show the service's error page.
 *
 * Copy with: errors.ts.
 */
import { IdvError, oauthError } from './errors.ts';

/**
 * What the authorization response is checked against.
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4
 */
export interface AuthorizationResponseExpectations {
  /** the service's issuer */
  issuer: string;
  /** the state of the pending authorization this response claims to answer; undefined if none is known */
  expectedState: string | undefined;
  /** RFC 9207 §2.4: when the service advertises `authorization_response_iss_parameter_supported`, `iss` is required */
  requireIss?: boolean;
}

/**
 * Returns the authorization code of a successful response; throws an IdvError for anything else.
 * @param params the query parameters the browser brought to the redirect URI
 * @throws IdvError with code `invalid_response` (a repeated parameter), `callback_issuer_mismatch`,
 *   `state_missing`, `state_mismatch`, the service's OAuth code from `error` (or
 *   `unknown_oauth_error`), or `code_missing`
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthResponseValidation
 */
export function validateAuthorizationResponse(
  params: URLSearchParams,
  { issuer, expectedState, requireIss = false }: AuthorizationResponseExpectations,
): { code: string } {
  validateSingleValues(params);
  validateResponseIssuer(params, issuer, requireIss);
  validateState(params, expectedState);
  const error = params.get('error');
  if (error !== null) throw oauthError(error, params.get('error_description') ?? undefined);
  const code = params.get('code');
  if (!code) throw new IdvError('code_missing', 'The authorization response has no code');
  return { code };
}

/**
 * RFC 6749 §3.1: parameters must not be included more than once; which value would we trust?
 * @throws IdvError with code `invalid_response` when `iss`, `state`, `code` or `error` repeats
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-3.1
 */
export function validateSingleValues(params: URLSearchParams): void {
  for (const name of ['iss', 'state', 'code', 'error']) {
    if (params.getAll(name).length > 1) {
      throw new IdvError('invalid_response', `The authorization response repeats the ${name} parameter`, { claim: name });
    }
  }
}

/**
 * The mix-up defence of RFC 9207 §2.4: an `iss` present must equal the issuer; an absent one is
 * refused only when `requireIss` (the service advertises that it sends one).
 * @throws IdvError with code `callback_issuer_mismatch`
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2.4
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.2
 */
export function validateResponseIssuer(params: URLSearchParams, issuer: string, requireIss: boolean): void {
  const iss = params.get('iss');
  if (iss === null) {
    if (requireIss) {
      throw new IdvError('callback_issuer_mismatch', 'The authorization response has no iss, which the service promised', {
        claim: 'iss',
        expected: issuer,
      });
    }
    return;
  }
  if (iss !== issuer) {
    throw new IdvError('callback_issuer_mismatch', 'The authorization response comes from another issuer', {
      claim: 'iss',
      expected: issuer,
      actual: iss,
    });
  }
}

/**
 * 4.2: `state` must equal the stored value.
 * @param expectedState the state of the pending authorization; undefined when none is known
 * @throws IdvError with code `state_missing` or `state_mismatch`
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12
 */
export function validateState(params: URLSearchParams, expectedState: string | undefined): void {
  const state = params.get('state');
  if (!state) throw new IdvError('state_missing', 'The authorization response has no state');
  if (expectedState === undefined || state !== expectedState) {
    throw new IdvError('state_mismatch', 'The state does not match an authorization started in this browser', {
      claim: 'state',
    });
  }
}
