/**
 * The request object (2.2; RFC 9101, RFC 9126 §3): every authorization parameter inside a JWT
 * signed with the client's key, pushed to PAR.
 */
import { signWithClientKey } from './client-keys';
import type { ClaimsRequest } from './claims-request';
import type { ClientConfig } from './types';

/** Request objects are pushed at once; five minutes leaves room for a slow network, no more. */
export const REQUEST_OBJECT_LIFETIME_SECONDS = 300;

export interface RequestObjectInput {
  client: Pick<ClientConfig, 'clientId' | 'signingKey' | 'redirectUri'>;
  /** the service base URL = its issuer */
  audience: string;
  state: string;
  nonce: string;
  codeChallenge: string;
  claims: ClaimsRequest;
  /** ms since the epoch; defaults to now */
  now?: number;
}

/** The thirteen claims of 2.2, in the spec's order (no key needed: the picker previews them). */
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
  };
}

/**
 * Signs the request object with the same header shape as the client assertion.
 * @see spec 2.2, 5.5
 */
export function createRequestObject(input: RequestObjectInput): Promise<string> {
  return signWithClientKey(requestObjectClaims(input), input.client.signingKey);
}
