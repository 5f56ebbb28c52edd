/**
 * The authorization request after PAR (4.2; RFC 9126 §4): only `client_id` and `request_uri`
 * travel through the browser; everything else is inside the pushed request object.
 *
 * Copy with: types.ts.
 */
import type { ProviderMetadata } from './types.ts';

/**
 * The URL to send the browser to: the authorization endpoint with `client_id` and `request_uri`.
 * @param requestUri the `request_uri` of the PAR response
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-4
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.2
 */
export function buildAuthorizationUrl(metadata: ProviderMetadata, clientId: string, requestUri: string): string {
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('request_uri', requestUri);
  return url.toString();
}
