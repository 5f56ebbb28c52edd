/**
 * The whole authorization code flow of part 1, as two calls around the browser redirect:
 * `startAuthorization` (steps 1-3) and `completeAuthorization` (steps 6-9). Each step is its own
 * module; this file only puts them in order. Framework-free: the caller keeps `PendingAuthorization`
 * (in a session) between the two.
 *
 * Copy with: authorization-url.ts, callback.ts, checks.ts, claims-request.ts, client-assertion.ts, client-keys.ts, discovery.ts, errors.ts, http.ts, id-token-encryption.ts, id-token.ts, jwks.ts, par.ts, pkce.ts, request-object.ts, token.ts, trace.ts, types.ts, verified-claims.ts.
 */
import { validateAuthorizationResponse } from './callback.ts';
import { IdvError } from './errors.ts';
import { buildClaimsRequest } from './claims-request.ts';
import { clockTolerance, processIdToken, type ValidatedIdToken } from './id-token.ts';
import { acceptedIdTokenEncryption, checkIdTokenEncryption, type IdTokenEncryption } from './id-token-encryption.ts';
import type { ExpAllocator } from './client-assertion.ts';
import type { JwksCache } from './jwks.ts';
import { pushAuthorizationRequest, processParResponse, type ParResult } from './par.ts';
import { codeChallengeS256, generateCodeVerifier, generateNonce, generateState } from './pkce.ts';
import { createRequestObject } from './request-object.ts';
import { processTokenResponse, requestToken, type TokenResult } from './token.ts';
import type { ClientConfig, HttpOptions, PendingAuthorization, ProviderMetadata, Selection } from './types.ts';
import { buildAuthorizationUrl } from './authorization-url.ts';
import { readVerifiedClaims, type VerifiedClaims } from './verified-claims.ts';
import { discoveryUrl, type DiscoveryCache } from './discovery.ts';
import type { ProtocolTrace, TraceStep } from './trace.ts';

/**
 * Everything the relying party needs to talk to one service. Build it once and share it: the
 * discovery and JWKS caches live in it.
 * @see Interface specification 1 "What the service does"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 */
export interface RelyingParty {
  /** the service's base URL = its issuer, exactly as the service names itself */
  issuer: string;
  client: ClientConfig;
  discovery: DiscoveryCache;
  jwks: JwksCache;
  http: HttpOptions;
  /** seconds of clock skew allowed on the ID token's `exp` and `iat`: 0 to 60, default 30 */
  clockToleranceSeconds?: number;
  /**
   * The ID token encryptions to accept, pinned: by default those of our family the discovery
   * document advertises, else RSA-OAEP-256 / A256GCM (id-token-encryption.ts)
   */
  idTokenEncryption?: readonly IdTokenEncryption[];
  /** the population register's name in register evidence requests (2.3); default 'Folkeregisteret' */
  populationRegisterName?: string;
  /**
   * Where an EdDSA signing key's client assertions claim their `exp` seconds, each once
   * (client-assertion.ts): by default in this process. Instances that share an EdDSA key share
   * one, over a store they share.
   */
  expAllocator?: ExpAllocator;
  /** ms clock, for tests */
  now?: () => number;
}

/** Per-flow options. */
export interface FlowOptions {
  /** records every exchange of this flow (see trace.ts) */
  trace?: ProtocolTrace;
  /** `ui_locales` for the request object: the languages the person reads, e.g. `nb en` (request-object.ts) */
  uiLocales?: string;
  /**
   * `login_hint` for the request object: who is expected to sign in, e.g. a test persona's id at
   * an emulator that pre-selects it (OpenID Connect Core §3.1.2.1; request-object.ts). Spec 2.2
   * does not list it: send it only to a service that reads it.
   */
  loginHint?: string;
}

/** The fetch for one step: the relying party's own, recorded when the flow is traced. */
function fetchFor(rp: RelyingParty, step: TraceStep, trace: ProtocolTrace | undefined) {
  return trace ? trace.fetchFor(step, rp.http.fetch) : rp.http.fetch;
}

/**
 * Discovery, from the cache or the network; a cache hit is noted in the trace, and so are
 * endpoints the document left out (where each came from instead: discovery.ts).
 */
async function metadataFor(rp: RelyingParty, trace: ProtocolTrace | undefined): Promise<ProviderMetadata> {
  const since = trace?.events.length ?? 0;
  // The relying party's http options reach the caches too: its allowInsecureRequests is the one switch.
  const metadata = await rp.discovery.get(rp.issuer, { ...rp.http, fetch: fetchFor(rp, 'discovery', trace) });
  if (trace && !trace.recordedSince(since, 'discovery')) {
    trace.note('discovery', { fromCache: true, url: discoveryUrl(rp.issuer) });
  }
  // Once per flow: the start and the completion use the same document.
  const noted = trace?.events.some((event) => event.type === 'note' && event.step === 'discovery' && event.detail?.endpoints !== undefined);
  if (trace && metadata.endpoint_sources && !noted) {
    const endpoints = Object.fromEntries(Object.entries(metadata.endpoint_sources).map(([name, source]) => [name, { url: metadata[name], from: source }]));
    trace.note('discovery', { detail: { endpoints } });
  }
  return metadata;
}

/**
 * What `startAuthorization` returns: where to send the browser, and what to keep until the
 * callback (`pending`). The PAR result and the metadata are there for display.
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-4
 */
export interface StartedAuthorization {
  authorizationUrl: string;
  pending: PendingAuthorization;
  par: ParResult;
  metadata: ProviderMetadata;
}

/**
 * Steps 1-3: PKCE, state, nonce, the signed request object, PAR, and the URL to send the browser to.
 * @param selection what to request; check it first with `selectionProblems`
 * @throws IdvError with a discovery code (`discovery_failed`, `discovery_issuer_mismatch`, ...),
 *   `invalid_client_key`, a PAR code (the service's OAuth code, `par_failed`, `invalid_response`)
 *   or a transport code (`timeout`, `network_error`, `insecure_url`)
 * @see Interface specification 1 "What the service does"
 * @see Interface specification 4.1 "POST /par"
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.1
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.3.3.2
 */
export async function startAuthorization(
  rp: RelyingParty,
  selection: Selection,
  { trace, uiLocales, loginHint }: FlowOptions = {},
): Promise<StartedAuthorization> {
  // A bad tolerance or pinned encryption is refused here, before a person goes through the
  // identity app for nothing.
  clockTolerance(rp.clockToleranceSeconds);
  if (rp.idTokenEncryption !== undefined) checkIdTokenEncryption(rp.idTokenEncryption);
  const now = (rp.now ?? Date.now)();
  const metadata = await metadataFor(rp, trace);
  const state = generateState();
  if (trace) trace.state = state;
  const nonce = generateNonce();
  const codeVerifier = generateCodeVerifier();
  const requestObject = await createRequestObject({
    client: rp.client,
    audience: metadata.issuer,
    state,
    nonce,
    codeChallenge: await codeChallengeS256(codeVerifier),
    claims: buildClaimsRequest(selection, { populationRegisterName: rp.populationRegisterName }),
    ...(uiLocales ? { uiLocales } : {}),
    ...(loginHint ? { loginHint } : {}),
    now,
  });
  const par = await processParResponse(
    await pushAuthorizationRequest(metadata, rp.client, requestObject, { ...rp.http, fetch: fetchFor(rp, 'par', trace), now, expAllocator: rp.expAllocator }),
  );
  const authorizationUrl = buildAuthorizationUrl(metadata, rp.client.clientId, par.requestUri);
  trace?.note('authorization_redirect', { url: authorizationUrl });
  return {
    authorizationUrl,
    pending: { state, nonce, codeVerifier, issuer: metadata.issuer, createdAt: now, selection },
    par,
    metadata,
  };
}

/**
 * What `completeAuthorization` returns: the validated ID token, its verified claims as read by
 * `parseVerifiedClaims`, and the token response.
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export interface CompletedAuthorization {
  idToken: ValidatedIdToken;
  verifiedClaims: VerifiedClaims[];
  token: TokenResult;
}

/**
 * Steps 6-9: check the authorization response against the pending authorization (which the caller
 * looked up by the response's `state`, and must delete whatever happens), exchange the code, and
 * decrypt, verify and validate the ID token.
 * @param callbackParams the query parameters the browser brought to the redirect URI
 * @param pending the pending authorization found for the response's `state`; undefined if none
 * @throws IdvError with `callback_issuer_mismatch` (the flow was started with another issuer, or
 *   `iss` differs), a callback code (`state_missing`, `state_mismatch`, `code_missing`, the
 *   service's `error`), a discovery, token or transport code, or an ID token code (`id_token_*`,
 *   `jwks_fetch_failed`, `invalid_client_key`)
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see Interface specification 4.3 "POST /token"
 * @see Interface specification 4.5 "Client checks on the decrypted ID token"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#AuthResponseValidation
 * @see https://openid.net/specs/openid-connect-core-1_0.html#IDTokenValidation
 */
export async function completeAuthorization(
  rp: RelyingParty,
  callbackParams: URLSearchParams,
  pending: PendingAuthorization | undefined,
  { trace }: FlowOptions = {},
): Promise<CompletedAuthorization> {
  // A forged callback must not get its text onto our pages: unless the state is ours, only the
  // parameter names are recorded.
  const ours = pending !== undefined && callbackParams.get('state') === pending.state;
  trace?.note('callback', {
    detail: ours ? { parameters: Object.fromEntries(callbackParams) } : { parameterNames: [...new Set(callbackParams.keys())] },
  });
  // Mix-up defence for integrators with several issuers: a flow is completed only with the
  // issuer it was started with, so its code and verifier never reach another token endpoint.
  if (pending && pending.issuer !== rp.issuer) {
    throw new IdvError('callback_issuer_mismatch', 'This flow was started with another issuer', {
      claim: 'iss',
      expected: pending.issuer,
      actual: rp.issuer,
    });
  }
  const metadata = await metadataFor(rp, trace);
  const { code } = validateAuthorizationResponse(callbackParams, {
    issuer: metadata.issuer,
    expectedState: pending?.state,
    requireIss: metadata.authorization_response_iss_parameter_supported === true,
  });
  // validateAuthorizationResponse throws when there is no pending authorization for this state.
  const { nonce, codeVerifier } = pending!;
  const token = await processTokenResponse(
    await requestToken(
      metadata,
      rp.client,
      { code, codeVerifier },
      { ...rp.http, fetch: fetchFor(rp, 'token', trace), now: (rp.now ?? Date.now)(), expAllocator: rp.expAllocator },
    ),
  );
  const since = trace?.events.length ?? 0;
  const idToken = await processIdToken(token.idToken, {
    issuer: metadata.issuer,
    clientId: rp.client.clientId,
    nonce,
    now: (rp.now ?? Date.now)(),
    clockToleranceSeconds: rp.clockToleranceSeconds,
    encryptionKey: rp.client.encryptionKey,
    encryption: acceptedIdTokenEncryption(metadata, rp.idTokenEncryption),
    jwks: rp.jwks,
    jwksUri: metadata.jwks_uri,
    http: { ...rp.http, fetch: fetchFor(rp, 'jwks', trace) },
    ...(trace ? { onCheck: (check) => trace.check(check) } : {}),
  });
  if (trace && !trace.recordedSince(since, 'jwks')) trace.note('jwks', { fromCache: true, url: metadata.jwks_uri });
  const { verifiedClaims, dropped } = readVerifiedClaims(idToken.claims.verified_claims);
  // Dropping is tolerance, not failure (OIDC4IDA lets a provider send more): the check passes,
  // and names what it dropped.
  trace?.check({ check: 'verified_claims', passed: true, detail: { elements: verifiedClaims.length, dropped } });
  trace?.note('id_token', {
    detail: { jweHeader: idToken.jweHeader, jwsHeader: idToken.jwsHeader, payload: idToken.claims, signingKey: idToken.signingKey },
  });
  return { idToken, verifiedClaims, token };
}
