/**
 * The token request (4.3; RFC 6749 §4.1.3, RFC 7636 §4.5): the pair `requestToken` (send) and
 * `processTokenResponse` (check).
 *
 * Copy with: client-assertion.ts, client-keys.ts, errors.ts, http.ts, types.ts.
 */
import { clientAuthenticationParameters, type ExpAllocator } from './client-assertion.ts';
import { IdvError } from './errors.ts';
import { errorFromResponse, readJsonObject, send } from './http.ts';
import type { ClientConfig, HttpOptions, ProviderMetadata } from './types.ts';

/**
 * A successful token response: the encrypted ID token (and its lifetime, when sent).
 * @see Interface specification 2.5 "Token response"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#TokenResponse
 */
export interface TokenResult {
  /** 2.5: a JWE wrapping the signed ID token */
  idToken: string;
  /** 2.5: lifetime in seconds, when the service sends it */
  expiresIn: number | undefined;
}

/**
 * POSTs the code and the PKCE verifier with a fresh client assertion (4.3). Returns the response
 * unchecked: pass it to `processTokenResponse`.
 * @param grant the code from the callback and the verifier kept since the start of the flow
 * @param options transport options; `now` (ms since the epoch) dates the client assertion, and
 *   `expAllocator` claims an EdDSA key's `exp` second (client-assertion.ts)
 * @throws IdvError with code `invalid_client_key`, `insecure_url`, `invalid_response`, `timeout`
 *   or `network_error`
 * @see Interface specification 4.3 "POST /token"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.3
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.5
 */
export async function requestToken(
  metadata: ProviderMetadata,
  client: Pick<ClientConfig, 'clientId' | 'signingKey' | 'redirectUri'>,
  grant: { code: string; codeVerifier: string },
  options: HttpOptions & { now?: number; expAllocator?: ExpAllocator } = {},
): Promise<Response> {
  const body = new URLSearchParams({
    ...(await clientAuthenticationParameters({ client, audience: metadata.issuer, now: options.now, expAllocator: options.expAllocator })),
    grant_type: 'authorization_code',
    code: grant.code,
    code_verifier: grant.codeVerifier,
    redirect_uri: client.redirectUri,
  });
  return send(
    metadata.token_endpoint,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body },
    options,
    'The token endpoint',
  );
}

/**
 * 4.3 leaves the success status unstated; RFC 6749 §5.1 says 200, so only 200 is success.
 * An RFC 6749 §5.2 error body keeps the service's code (`invalid_grant`, ...). The ID token is
 * returned as it came; `processIdToken` decrypts and checks it.
 * @throws IdvError with the service's OAuth code (or `unknown_oauth_error`), `token_failed` for
 *   any other failed status, `invalid_response` for a body that is not a JSON object, or
 *   `id_token_missing`
 * @see Interface specification 4.3 "POST /token"
 * @see Interface specification 2.5 "Token response"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.1
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 */
export async function processTokenResponse(response: Response): Promise<TokenResult> {
  if (response.status !== 200) throw await errorFromResponse(response, 'The token endpoint', 'token_failed');
  const body = await readJsonObject(response, 'The token response');
  const { id_token: idToken, expires_in: expiresIn } = body;
  if (typeof idToken !== 'string' || idToken.length === 0) {
    throw new IdvError('id_token_missing', 'The token response has no id_token', { claim: 'id_token' });
  }
  return { idToken, expiresIn: typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? expiresIn : undefined };
}
