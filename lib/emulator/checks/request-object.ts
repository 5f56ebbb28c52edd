/**
 * The request object (2.2; RFC 9101): the signed authorization request pushed to PAR.
 * Part 7 lists no `invalid_request_object`, so every failure is `invalid_request` (400), except
 * a wrong `scope` (`invalid_scope`) and population-register evidence requested by a client that
 * is not entitled to it (`unauthorized_client`, 403).
 * Claims beyond the thirteen of 2.2 are ignored, except that an `nbf` is honoured (RFC 7519 §4.1.5).
 * @see spec 2.2, 2.3, 5.5, part 7
 */
import { parseClaimsRequest } from './claims-request';
import { verifyClientJwt } from './client-jwt';
import type { RegisteredClient } from '../clients';
import { CLOCK_SKEW_SECONDS, LIFETIMES, MAX_STATE_OR_NONCE_LENGTH } from '../config';
import { nowSeconds, type EmulatorContext } from '../context';
import { InvalidRequest, InvalidScope, UnauthorizedClient, describeValue } from '../errors';
import type { AuthorizationRequest } from '../state';
import { isCodeChallenge } from './pkce';

/** 2.2: the thirteen required claims, in the spec's order, with their JSON types. */
const REQUIRED_CLAIMS = {
  iss: 'string',
  sub: 'string',
  aud: 'string',
  exp: 'number',
  client_id: 'string',
  response_type: 'string',
  redirect_uri: 'string',
  scope: 'string',
  state: 'string',
  nonce: 'string',
  code_challenge: 'string',
  code_challenge_method: 'string',
  claims: 'object',
} as const;

type RequestObjectClaims = {
  [Name in keyof typeof REQUIRED_CLAIMS]: (typeof REQUIRED_CLAIMS)[Name] extends 'number'
    ? number
    : (typeof REQUIRED_CLAIMS)[Name] extends 'object'
      ? Record<string, unknown>
      : string;
};

/**
 * Verifies the request object pushed by an authenticated client and returns the request it
 * carries. The client is the one authenticated by the PAR request's client assertion.
 * @see spec 2.2, 2.3, 5.5
 */
export async function verifyRequestObject(
  requestObject: string,
  client: RegisteredClient,
  context: EmulatorContext,
): Promise<AuthorizationRequest> {
  const { payload } = await verifyClientJwt(requestObject, client, {
    parameter: 'request',
    reject: (description) => new InvalidRequest(`request object: ${description}`),
  });
  const claims = checkClaimTypes(payload);
  const { clientId } = client;

  // 5.5: "binds iss and sub to the client_id".
  for (const name of ['iss', 'sub', 'client_id'] as const) {
    if (claims[name] !== clientId) {
      throw new InvalidRequest(`request object claim '${name}' must be the client_id '${clientId}', not ${describeValue(claims[name])}`);
    }
  }
  if (claims.aud !== context.issuer) {
    throw new InvalidRequest(`request object claim 'aud' must be the issuer '${context.issuer}', not ${describeValue(claims.aud)}`);
  }
  checkLifetime(claims.exp, payload.nbf, context);

  if (claims.response_type !== 'code') {
    throw new InvalidRequest(`request object claim 'response_type' must be 'code', not ${describeValue(claims.response_type)}`);
  }
  // RFC 9700 §2.1: redirect URIs are compared as exact strings.
  if (!client.redirectUris.includes(claims.redirect_uri)) {
    throw new InvalidRequest(`request object claim 'redirect_uri' ${describeValue(claims.redirect_uri)} is not registered for client '${clientId}'`);
  }
  if (claims.scope !== 'openid') {
    throw new InvalidScope(`request object claim 'scope' must be 'openid', not ${describeValue(claims.scope)}`);
  }
  for (const name of ['state', 'nonce'] as const) {
    if (claims[name] === '' || claims[name].length > MAX_STATE_OR_NONCE_LENGTH) {
      throw new InvalidRequest(`request object claim '${name}' must be 1 to ${MAX_STATE_OR_NONCE_LENGTH} characters`);
    }
  }
  if (!isCodeChallenge(claims.code_challenge)) {
    throw new InvalidRequest("request object claim 'code_challenge' must be 43 base64url characters (BASE64URL(SHA-256(code_verifier)))");
  }
  if (claims.code_challenge_method !== 'S256') {
    throw new InvalidRequest(`request object claim 'code_challenge_method' must be 'S256', not ${describeValue(claims.code_challenge_method)}`);
  }

  const claimsRequest = parseClaimsRequest(claims.claims);
  // 2.3: population register evidence is "enabled per client" (as registered, or as set since).
  if (
    claimsRequest.evidence.some((evidence) => evidence.type === 'electronic_record') &&
    !context.populationRegisterEnabled(clientId)
  ) {
    throw new UnauthorizedClient(`client '${clientId}' is not entitled to electronic_record evidence from the population register`);
  }

  return {
    redirectUri: claims.redirect_uri,
    state: claims.state,
    nonce: claims.nonce,
    codeChallenge: claims.code_challenge,
    claims: claimsRequest,
  };
}

function checkClaimTypes(payload: Record<string, unknown>): RequestObjectClaims {
  const missing = Object.keys(REQUIRED_CLAIMS).filter((name) => !Object.hasOwn(payload, name));
  if (missing.length > 0) {
    throw new InvalidRequest(`request object is missing required claim(s) ${missing.map((name) => `'${name}'`).join(', ')}`);
  }
  for (const [name, type] of Object.entries(REQUIRED_CLAIMS)) {
    const value = payload[name];
    const ok =
      type === 'object'
        ? typeof value === 'object' && value !== null && !Array.isArray(value)
        : type === 'number'
          ? typeof value === 'number' && Number.isFinite(value)
          : typeof value === 'string';
    if (!ok) throw new InvalidRequest(`request object claim '${name}' must be a JSON ${type}, not ${describeValue(value)}`);
  }
  return payload as RequestObjectClaims;
}

/** `exp` in the future and at most an hour ahead (FAPI 2.0 §5.3.1.1); `nbf`, when present, reached. */
function checkLifetime(exp: number, nbf: unknown, context: EmulatorContext): void {
  const now = nowSeconds(context);
  if (exp <= now - CLOCK_SKEW_SECONDS) throw new InvalidRequest("request object has expired (claim 'exp' is in the past)");
  if (exp > now + LIFETIMES.maxRequestObject + CLOCK_SKEW_SECONDS) {
    throw new InvalidRequest(`request object claim 'exp' is more than ${LIFETIMES.maxRequestObject} seconds in the future`);
  }
  if (nbf === undefined) return;
  if (typeof nbf !== 'number' || !Number.isFinite(nbf)) {
    throw new InvalidRequest(`request object claim 'nbf' must be a number, not ${describeValue(nbf)}`);
  }
  if (nbf > now + CLOCK_SKEW_SECONDS) throw new InvalidRequest("request object is not valid yet (claim 'nbf' is in the future)");
}
