/**
 * The request object (2.2; RFC 9101): the signed authorization request pushed to PAR.
 * Part 7 lists no `invalid_request_object`, so every failure is `invalid_request` (400), except
 * a wrong `scope` (`invalid_scope`) and population-register evidence requested by a client that
 * is not entitled to it (`unauthorized_client`, 403).
 * At the default level, claims beyond the thirteen of 2.2 are ignored, except that an `nbf` is
 * honoured (RFC 7519 §4.1.5) and a `ui_locales` (OpenID Connect Core §3.1.2.1) chooses the
 * language of the pages. At the strict level (checks/levels.ts) they are refused, and `exp` must
 * be in whole seconds. A `login_hint` (OpenID Connect Core §3.1.2.1) is taken at both levels: it
 * suggests a test persona (checks/login-hint.ts).
 * @see spec 2.2, 2.3, 5.5, part 7
 */
import type { RegisteredClient } from '../clients';
import { CLOCK_SKEW_SECONDS, LIFETIMES, MAX_STATE_OR_NONCE_LENGTH } from '../config';
import { nowSeconds, type EmulatorContext } from '../context';
import { InvalidRequest, InvalidScope, UnauthorizedClient, describeValue } from '../errors';
import type { AuthorizationRequest } from '../state';
import { parseClaimsRequest } from './claims-request';
import { verifyClientJwt } from './client-jwt';
import { describeUnlisted, rulesAt, type Levelled } from './levels';
import { LOGIN_HINT, checkLoginHint } from './login-hint';
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

/** What a rule may look at besides the thirteen claims: the authenticated client, the emulator, and the whole payload. */
interface RuleInput {
  client: RegisteredClient;
  context: EmulatorContext;
  payload: Readonly<Record<string, unknown>>;
}

/** One rule of 2.2 over the request object's claims; throws the error part 7 gives for it. */
type RequestObjectRule = (claims: RequestObjectClaims, input: RuleInput) => void;

/**
 * Strict level: exactly the thirteen claims of the 2.2 table; `nbf`, `iat`, `jti`, `ui_locales` and
 * any other are refused. `login_hint` is the one exception: a standard parameter the demo relying
 * party sends in emulator mode only (DECISIONS.md "A persona suggested by the relying party").
 */
const onlyTheThirteenClaims: RequestObjectRule = (_claims, { payload }) => {
  const unlisted = describeUnlisted(Object.keys(payload), [...Object.keys(REQUIRED_CLAIMS), LOGIN_HINT]);
  if (unlisted) {
    throw new InvalidRequest(`request object has claim(s) ${unlisted} that spec 2.2 does not list; it has exactly the thirteen of its table (strict level)`);
  }
};

/** 5.5: "binds iss and sub to the client_id" (and `client_id` is the client's own). */
const boundToClient: RequestObjectRule = (claims, { client: { clientId } }) => {
  for (const name of ['iss', 'sub', 'client_id'] as const) {
    if (claims[name] !== clientId) {
      throw new InvalidRequest(`request object claim '${name}' must be the client_id '${clientId}', not ${describeValue(claims[name])}`);
    }
  }
};

/** 2.2 `aud`: the issuer (the base URL), as a string. */
const audienceIsIssuer: RequestObjectRule = (claims, { context }) => {
  if (claims.aud !== context.issuer) {
    throw new InvalidRequest(`request object claim 'aud' must be the issuer '${context.issuer}', not ${describeValue(claims.aud)}`);
  }
};

/** Strict level: `exp` in whole seconds, as a "Unix timestamp" (2.2) is; the default level takes any number (RFC 7519 §2 NumericDate). */
const expInWholeSeconds: RequestObjectRule = ({ exp }) => {
  if (!Number.isInteger(exp)) {
    throw new InvalidRequest(
      `request object claim 'exp' must be a whole number of seconds (spec 2.2: Unix timestamp), not ${describeValue(exp)} (strict level)`,
    );
  }
};

/** `exp` in the future and at most an hour ahead (FAPI 2.0 §5.3.1.1); `nbf`, when present, reached (RFC 7519 §4.1.5). */
const withinLifetime: RequestObjectRule = (claims, { context, payload: { nbf } }) => {
  const now = nowSeconds(context);
  const { exp } = claims;
  if (exp <= now - CLOCK_SKEW_SECONDS) throw new InvalidRequest("request object has expired (claim 'exp' is in the past)");
  if (exp > now + LIFETIMES.maxRequestObject + CLOCK_SKEW_SECONDS) {
    throw new InvalidRequest(`request object claim 'exp' is more than ${LIFETIMES.maxRequestObject} seconds in the future`);
  }
  if (nbf === undefined) return;
  if (typeof nbf !== 'number' || !Number.isFinite(nbf)) {
    throw new InvalidRequest(`request object claim 'nbf' must be a number, not ${describeValue(nbf)}`);
  }
  if (nbf > now + CLOCK_SKEW_SECONDS) throw new InvalidRequest("request object is not valid yet (claim 'nbf' is in the future)");
};

/** 2.2 `response_type`: `code`. */
const responseTypeCode: RequestObjectRule = (claims) => {
  if (claims.response_type !== 'code') {
    throw new InvalidRequest(`request object claim 'response_type' must be 'code', not ${describeValue(claims.response_type)}`);
  }
};

/** A registered redirect URI, compared as an exact string (RFC 9700 §2.1). */
const registeredRedirectUri: RequestObjectRule = (claims, { client }) => {
  if (!client.redirectUris.includes(claims.redirect_uri)) {
    throw new InvalidRequest(`request object claim 'redirect_uri' ${describeValue(claims.redirect_uri)} is not registered for client '${client.clientId}'`);
  }
};

/** 2.2 `scope`: `openid`, else `invalid_scope` (part 7). */
const scopeOpenid: RequestObjectRule = (claims) => {
  if (claims.scope !== 'openid') {
    throw new InvalidScope(`request object claim 'scope' must be 'openid', not ${describeValue(claims.scope)}`);
  }
};

/** `state` and `nonce` present and bounded: both are echoed into URLs and tokens. */
const stateAndNonce: RequestObjectRule = (claims) => {
  for (const name of ['state', 'nonce'] as const) {
    if (claims[name] === '' || claims[name].length > MAX_STATE_OR_NONCE_LENGTH) {
      throw new InvalidRequest(`request object claim '${name}' must be 1 to ${MAX_STATE_OR_NONCE_LENGTH} characters`);
    }
  }
};

/** 2.2 PKCE: an S256 `code_challenge` (RFC 7636 §4.2); `plain` is refused. */
const s256CodeChallenge: RequestObjectRule = (claims) => {
  if (!isCodeChallenge(claims.code_challenge)) {
    throw new InvalidRequest("request object claim 'code_challenge' must be 43 base64url characters (BASE64URL(SHA-256(code_verifier)))");
  }
  if (claims.code_challenge_method !== 'S256') {
    throw new InvalidRequest(`request object claim 'code_challenge_method' must be 'S256', not ${describeValue(claims.code_challenge_method)}`);
  }
};

/**
 * The rules over the request object's claims, in the order they are checked (the first failure
 * is the one reported), each with the level it applies at (checks/levels.ts). Presence and JSON
 * types of the thirteen are checked before these; the `claims` parameter and the client's
 * entitlement to what it asks for after them, by checks/claims-request.ts and `verifyRequestObject`.
 */
const REQUEST_OBJECT_RULES: readonly Levelled<RequestObjectRule>[] = [
  ['strict', onlyTheThirteenClaims],
  ['every', boundToClient],
  ['every', audienceIsIssuer],
  ['strict', expInWholeSeconds],
  ['every', withinLifetime],
  ['every', responseTypeCode],
  ['every', registeredRedirectUri],
  ['every', scopeOpenid],
  ['every', stateAndNonce],
  ['every', s256CodeChallenge],
];

/**
 * Verifies the request object pushed by an authenticated client and returns the request it
 * carries. The client is the one authenticated by the PAR request's client assertion.
 * @param strict the level of this request (checks/levels.ts), read once by the endpoint
 * @see spec 2.2, 2.3, 5.5
 */
export async function verifyRequestObject(
  requestObject: string,
  client: RegisteredClient,
  context: EmulatorContext,
  strict = false,
): Promise<AuthorizationRequest> {
  const { payload } = await verifyClientJwt(requestObject, client, {
    parameter: 'request',
    reject: (description) => new InvalidRequest(`request object: ${description}`),
  });
  const claims = checkClaimTypes(payload);
  for (const rule of rulesAt(REQUEST_OBJECT_RULES, strict)) rule(claims, { client, context, payload });

  const claimsRequest = parseClaimsRequest(claims.claims, { populationRegisterName: context.populationRegisterName, strict });
  // 2.3: population register evidence is "enabled per client" (as registered, or as set since).
  if (claimsRequest.evidence.some((evidence) => evidence.type === 'electronic_record') && !(await context.populationRegisterEnabled(client.clientId))) {
    throw new UnauthorizedClient(`client '${client.clientId}' is not entitled to electronic_record evidence from the population register`);
  }

  const uiLocales = optionalUiLocales(payload.ui_locales);
  const loginHint = checkLoginHint(payload[LOGIN_HINT], 'request object claim');
  return {
    redirectUri: claims.redirect_uri,
    state: claims.state,
    nonce: claims.nonce,
    codeChallenge: claims.code_challenge,
    claims: claimsRequest,
    ...(uiLocales === undefined ? {} : { uiLocales }),
    ...(loginHint === undefined ? {} : { loginHint }),
  };
}

/**
 * `ui_locales` (OpenID Connect Core §3.1.2.1), optional: the languages the person reads, as BCP 47
 * tags separated by spaces, in order of preference. Tags the emulator does not speak are ignored,
 * as §3.1.2.1 allows; a value that is not a string is refused like any other malformed claim.
 * @see views/language.ts (how a page's language is chosen)
 */
function optionalUiLocales(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    throw new InvalidRequest(`request object claim 'ui_locales' must be a JSON string, not ${describeValue(value)}`);
  }
  return value === '' ? undefined : value;
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
