/**
 * Pushed Authorization Request (4.1; RFC 9126): the pair `pushAuthorizationRequest` (send) and
 * `processParResponse` (check).
 *
 * Copy with: client-assertion.ts, client-keys.ts, errors.ts, http.ts, types.ts.
 */
import { clientAuthenticationParameters, type ExpAllocator } from './client-assertion.ts';
import { IdvError } from './errors.ts';
import { errorFromResponse, readJsonObject, send } from './http.ts';
import type { ClientConfig, HttpOptions, ProviderMetadata } from './types.ts';

/**
 * A successful PAR response: the `request_uri` for the authorization URL and its lifetime.
 * @see Interface specification 2.4 "PAR response"
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.2
 */
export interface ParResult {
  /** 2.4: `urn:ietf:params:oauth:request_uri:<uuid>` */
  requestUri: string;
  /** 2.4: lifetime in seconds (typically 600) */
  expiresIn: number;
}

/**
 * POSTs the signed request object with a fresh client assertion (4.1: client_id,
 * client_assertion_type, client_assertion, request). Returns the response unchecked: pass it to
 * `processParResponse`.
 * @param options transport options; `now` (ms since the epoch) dates the client assertion, and
 *   `expAllocator` claims an EdDSA key's `exp` second (client-assertion.ts)
 * @throws IdvError with code `invalid_client_key`, `insecure_url`, `invalid_response`, `timeout`
 *   or `network_error`
 * @see Interface specification 4.1 "POST /par"
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.1
 */
export async function pushAuthorizationRequest(
  metadata: ProviderMetadata,
  client: Pick<ClientConfig, 'clientId' | 'signingKey'>,
  requestObject: string,
  options: HttpOptions & { now?: number; expAllocator?: ExpAllocator } = {},
): Promise<Response> {
  const body = new URLSearchParams({
    ...(await clientAuthenticationParameters({ client, audience: metadata.issuer, now: options.now, expAllocator: options.expAllocator })),
    request: requestObject,
  });
  return send(
    metadata.pushed_authorization_request_endpoint,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body },
    options,
    'The PAR endpoint',
  );
}

/**
 * 4.1: success is 201 Created with `request_uri` and `expires_in` (2.4); a part-7 error body
 * becomes an IdvError with the service's code (`invalid_client`, `unauthorized_client`, ...).
 * @throws IdvError with the service's OAuth code (or `unknown_oauth_error`), `par_failed` for any
 *   other failed status, or `invalid_response` for a 201 without a usable body
 * @see Interface specification 4.1 "POST /par"
 * @see Interface specification 2.4 "PAR response"
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.2
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.3
 */
export async function processParResponse(response: Response): Promise<ParResult> {
  if (response.status !== 201) throw await errorFromResponse(response, 'The PAR endpoint', 'par_failed');
  const body = await readJsonObject(response, 'The PAR response');
  const { request_uri: requestUri, expires_in: expiresIn } = body;
  if (typeof requestUri !== 'string' || requestUri.length === 0) {
    throw new IdvError('invalid_response', 'The PAR response has no request_uri', { claim: 'request_uri', actual: requestUri });
  }
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) {
    throw new IdvError('invalid_response', 'The PAR response has no positive expires_in', {
      claim: 'expires_in',
      actual: expiresIn,
    });
  }
  return { requestUri, expiresIn };
}
