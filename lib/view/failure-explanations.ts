/**
 * What each failure code means to the person in front of the failure page: a title, one
 * sentence, and what to try next. Codes stay as the core and the spec write them.
 */
import type { IdvErrorCode } from '@/lib/oidc';
import type { StoreErrorCode } from '@/lib/store/store';

/** Every code a failure can carry: the core's, the state layer's, and the app's own. */
export type FailureCode = IdvErrorCode | StoreErrorCode | 'invalid_selection' | 'invalid_preference' | 'forbidden_origin' | 'rate_limited' | 'internal_error';

export interface Explanation {
  title: string;
  /** what happened, in one sentence */
  sentence: string;
  /** what to try next */
  next: string;
}

const retry = 'Start a new verification.';

/** DESIGN.md: "the UI maps codes to text". Every code of the core and the app has an entry. */
export const FAILURE_EXPLANATIONS: Record<FailureCode, Explanation> = {
  access_denied: { title: 'Verification cancelled', sentence: 'The person cancelled in the identity app, or the app refused the verification.', next: 'Start again and complete the steps in the app.' },
  invalid_request: { title: 'Request refused', sentence: 'The service found a missing or invalid parameter in our request.', next: 'Check the selection and the service’s description below; a QA request may have broken a rule on purpose.' },
  invalid_client: { title: 'Client authentication failed', sentence: 'The service did not accept our client assertion: unknown client, unregistered key, or a bad signature.', next: 'Check IDV_CLIENT_ID and that the public key from `npm run keys` is registered with the service.' },
  unauthorized_client: { title: 'Not allowed for this client', sentence: 'Our client is not entitled to what was requested (for example population-register evidence).', next: 'Remove that evidence from the request, or ask the provider to enable it for this client.' },
  invalid_scope: { title: 'Invalid scope', sentence: 'The service refused the requested scope.', next: 'The scope must be exactly “openid”.' },
  invalid_grant: { title: 'Code refused', sentence: 'The authorization code was unknown, expired, already used, or the PKCE verifier or redirect URI did not match.', next: retry },
  unsupported_grant_type: { title: 'Grant type refused', sentence: 'The token endpoint does not accept the grant type we sent.', next: 'This is a client bug; please report it.' },
  unsupported_response_type: { title: 'Response type refused', sentence: 'The service does not support the response type requested.', next: 'This is a client bug; please report it.' },
  server_error: { title: 'The service failed', sentence: 'The identity service reported an internal error.', next: 'Try again in a moment.' },
  temporarily_unavailable: { title: 'Service unavailable', sentence: 'The identity service is temporarily unavailable.', next: 'Try again in a moment.' },
  invalid_request_uri: { title: 'Request expired', sentence: 'The pushed request was unknown, expired or already used.', next: retry },
  invalid_request_object: { title: 'Request object refused', sentence: 'The service did not accept our signed request object.', next: 'Check the signing key registration.' },
  login_required: { title: 'Login required', sentence: 'The service needs the person to authenticate.', next: retry },
  consent_required: { title: 'Consent required', sentence: 'The person did not give consent.', next: retry },
  interaction_required: { title: 'Interaction required', sentence: 'The service needs the person to interact.', next: retry },
  unknown_oauth_error: { title: 'Error from the service', sentence: 'The service returned an error code this app does not know.', next: 'See the service’s own words below.' },
  insecure_url: { title: 'Insecure address', sentence: 'An endpoint of the service is not https, so we did not call it.', next: 'Use an https IDV_BASE_URL; plain http is accepted only on localhost.' },
  network_error: { title: 'Service unreachable', sentence: 'We could not connect to the identity service.', next: 'Check IDV_BASE_URL and the network, then try again.' },
  timeout: { title: 'Service too slow', sentence: 'The identity service did not answer in time.', next: 'Try again in a moment.' },
  invalid_response: { title: 'Unexpected response', sentence: 'The service answered with something that does not follow the specification.', next: 'Try again; if it persists, report it to the provider.' },
  discovery_failed: { title: 'Discovery failed', sentence: 'The service’s discovery document could not be loaded or lacks an endpoint we need.', next: 'Check IDV_BASE_URL.' },
  discovery_issuer_mismatch: { title: 'Issuer mismatch', sentence: 'The discovery document names a different issuer than IDV_BASE_URL.', next: 'Set IDV_BASE_URL to exactly the issuer the service publishes.' },
  invalid_selection: { title: 'Invalid selection', sentence: 'The request you picked cannot be sent as it is.', next: 'Adjust the selection and start again.' },
  invalid_preference: { title: 'Unknown setting', sentence: 'The setting sent is not one this app knows.', next: 'Use the switches at the top of the page.' },
  invalid_client_key: { title: 'Unusable client key', sentence: 'Our own signing or encryption key cannot be used.', next: 'Generate keys with `npm run keys` and set IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY.' },
  par_failed: { title: 'Pushed request failed', sentence: 'The PAR endpoint answered with an unexpected status.', next: 'Try again; see the details below.' },
  callback_issuer_mismatch: { title: 'Response from another issuer', sentence: 'The authorization response names a different issuer (a possible mix-up attack).', next: retry },
  state_missing: { title: 'No state', sentence: 'The authorization response has no state, so it cannot be matched to a request of ours.', next: retry },
  state_mismatch: { title: 'Unknown response', sentence: 'The response does not belong to a verification started in this browser, or it was already used or expired.', next: retry },
  code_missing: { title: 'No authorization code', sentence: 'The authorization response has neither a code nor an error.', next: retry },
  token_failed: { title: 'Token request failed', sentence: 'The token endpoint answered with an unexpected status.', next: 'Try again; see the details below.' },
  jwks_fetch_failed: { title: 'Signing keys unavailable', sentence: 'The service’s signing keys could not be loaded.', next: 'Try again in a moment.' },
  id_token_missing: { title: 'No ID token', sentence: 'The token response has no ID token.', next: retry },
  id_token_not_encrypted: { title: 'ID token not encrypted', sentence: 'The ID token arrived as a bare signed token; the service must encrypt it to our key.', next: 'Report it to the provider; we never accept unencrypted identity data.' },
  id_token_unsupported_encryption: { title: 'Wrong encryption', sentence: 'The ID token is not encrypted with RSA-OAEP-256 and A256GCM.', next: 'Report it to the provider.' },
  id_token_decryption_failed: { title: 'ID token cannot be decrypted', sentence: 'The ID token is not encrypted to our registered encryption key.', next: 'Check that the public key of IDV_ENCRYPTION_KEY is the one registered.' },
  id_token_malformed: { title: 'Malformed ID token', sentence: 'The ID token is not a well-formed token.', next: retry },
  id_token_unsupported_algorithm: { title: 'Wrong signature algorithm', sentence: 'The ID token is not signed with ES256 (for example alg “none”).', next: 'Report it to the provider.' },
  id_token_key_not_found: { title: 'Unknown signing key', sentence: 'The ID token is signed with a key the service does not publish.', next: retry },
  id_token_signature_invalid: { title: 'Invalid signature', sentence: 'The ID token’s signature does not verify with the service’s key.', next: retry },
  id_token_issuer_mismatch: { title: 'Wrong issuer', sentence: 'The ID token was issued by someone other than the service.', next: retry },
  id_token_audience_mismatch: { title: 'Wrong audience', sentence: 'The ID token was issued for another client.', next: retry },
  id_token_expired: { title: 'ID token expired', sentence: 'The ID token has expired.', next: 'Check this machine’s clock, then start again.' },
  id_token_issued_in_future: { title: 'ID token from the future', sentence: 'The ID token claims to be issued in the future.', next: 'Check this machine’s clock, then start again.' },
  id_token_nonce_mismatch: { title: 'Nonce mismatch', sentence: 'The ID token does not answer the request we sent (a possible replay).', next: retry },
  id_token_subject_missing: { title: 'No subject', sentence: 'The ID token has no subject identifier.', next: retry },
  forbidden_origin: { title: 'Blocked cross-site request', sentence: 'The request came from another site, so it was refused.', next: 'Start from this app’s own home page.' },
  rate_limited: { title: 'Too many verifications', sentence: 'Too many verifications were started from this address, or from everywhere at once, in the last minute.', next: 'Wait a minute, then start again.' },
  store_full: { title: 'Busy: try again shortly', sentence: 'This instance is holding as many verifications as its memory budget allows, so it did not start another; nothing in progress was lost.', next: 'Try again in half a minute. To hold more, run several instances on a shared Redis (REDIS_URL).' },
  store_unavailable: { title: 'State store unavailable', sentence: 'The shared store (Redis) that keeps verifications in progress did not answer.', next: 'Try again in a few seconds; if it persists, check that Redis at REDIS_URL is running.' },
  internal_error: { title: 'Something went wrong', sentence: 'The app failed unexpectedly; the details are in the server log.', next: retry },
};

/** The code as a known failure code, or undefined (a query parameter may say anything). */
export function knownFailureCode(value: unknown): FailureCode | undefined {
  return typeof value === 'string' && Object.hasOwn(FAILURE_EXPLANATIONS, value) ? (value as FailureCode) : undefined;
}
