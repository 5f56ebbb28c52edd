/**
 * The authorization request after PAR (4.2; RFC 9126 §4): only `client_id` and `request_uri`
 * travel through the browser; everything else is inside the pushed request object.
 */
import type { ProviderMetadata } from './types';

/** @see spec 4.2 */
export function buildAuthorizationUrl(metadata: ProviderMetadata, clientId: string, requestUri: string): string {
  const url = new URL(metadata.authorization_endpoint);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('request_uri', requestUri);
  return url.toString();
}
