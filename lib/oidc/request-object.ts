/**
 * The request object (2.2; RFC 9101, RFC 9126 §3): every authorization parameter inside a JWT
 * signed with the client's key, pushed to PAR.
 *
 * Copy with: claims-request.ts, client-keys.ts, errors.ts, types.ts.
 */
import { signWithClientKey } from './client-keys.ts';
import type { ClaimsRequest } from './claims-request.ts';
import type { ClientConfig } from './types.ts';

/**
 * Request objects are pushed at once; five minutes leaves room for a slow network, no more.
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-4.1.4
 */
export const REQUEST_OBJECT_LIFETIME_SECONDS = 300;

/**
 * What a request object is made from: the per-flow values (`state`, `nonce`, the PKCE challenge)
 * and the claims request.
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://www.rfc-editor.org/rfc/rfc9101#section-4
 */
export interface RequestObjectInput {
  client: Pick<ClientConfig, 'clientId' | 'signingKey' | 'redirectUri'>;
  /** the service base URL = its issuer */
  audience: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  claims: ClaimsRequest;
  /**
   * The languages the person prefers for the service's pages, BCP 47 tags separated by spaces in
   * order of preference (`ui_locales`, OpenID Connect Core §3.1.2.1): a hint the service may
   * follow. Left out of the request object when not given.
   */
  uiLocales?: string;
  /**
   * Who is expected to sign in (`login_hint`, OpenID Connect Core §3.1.2.1): a hint the service
   * may use to pre-select the person, an identifier it knows. Spec 2.2 does not list it, so send
   * it only to a service that reads it (a strict one refuses what 2.2 does not list). Left out of
   * the request object when not given.
   */
  loginHint?: string;
  /** ms since the epoch; defaults to now */
  now?: number;
}

/**
 * The thirteen claims of 2.2, in the spec's order (no key needed: the picker previews them), and
 * `ui_locales` and `login_hint` when asked for.
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://www.rfc-editor.org/rfc/rfc9101#section-4
 * @see https://openid.net/specs/openid-connect-core-1_0.html#RequestObject
 */
export function requestObjectClaims(
  input: Omit<RequestObjectInput, 'client'> & { client: Pick<ClientConfig, 'clientId' | 'redirectUri'> },
): Record<string, unknown> {
  const { client } = input;
  return {
    iss: client.clientId,
    sub: client.clientId,
    aud: input.audience,
    exp: Math.floor((input.now ?? Date.now()) / 1000) + REQUEST_OBJECT_LIFETIME_SECONDS,
    client_id: client.clientId,
    response_type: 'code',
    redirect_uri: client.redirectUri,
    scope: 'openid',
    state: input.state,
    nonce: input.nonce,
    code_challenge: input.codeChallenge,
    code_challenge_method: 'S256',
    claims: input.claims,
    ...(input.uiLocales ? { ui_locales: input.uiLocales } : {}),
    ...(input.loginHint ? { login_hint: input.loginHint } : {}),
  };
}

/**
 * Signs the request object with the same header shape as the client assertion (part 5 item 5).
 * @throws IdvError with code `invalid_client_key` when the signing key cannot be used
 * @see Interface specification 2.2 "Request object JWT"
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc9101#section-4
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-3
 */
export function createRequestObject(input: RequestObjectInput): Promise<string> {
  return signWithClientKey(requestObjectClaims(input), input.client.signingKey);
}
