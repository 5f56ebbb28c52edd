/**
 * The whole authorization code flow of part 1, as two calls around the browser redirect:
 * `startAuthorization` (steps 1-3) and `completeAuthorization` (steps 6-9). Each step is its own
 * module; this file only puts them in order. Framework-free: the caller keeps `PendingAuthorization`
 * (in a session) between the two.
 */
import { validateAuthorizationResponse } from './callback';
import { IdvError } from './errors';
import { buildClaimsRequest } from './claims-request';
import { processIdToken, type ValidatedIdToken } from './id-token';
import type { JwksCache } from './jwks';
import { pushAuthorizationRequest, processParResponse, type ParResult } from './par';
import { codeChallengeS256, generateCodeVerifier, generateNonce, generateState } from './pkce';
import { createRequestObject } from './request-object';
import { processTokenResponse, requestToken, type TokenResult } from './token';
import type { ClientConfig, HttpOptions, PendingAuthorization, ProviderMetadata, Selection } from './types';
import { buildAuthorizationUrl } from './authorization-url';
import { parseVerifiedClaims, type VerifiedClaims } from './verified-claims';
import { discoveryUrl, type DiscoveryCache } from './discovery';
import type { ProtocolTrace, TraceStep } from './trace';

/** Everything the relying party needs to talk to one service. */
export interface RelyingParty {
  /** the service's base URL = its issuer (DESIGN.md: IDV_BASE_URL) */
  issuer: string;
  client: ClientConfig;
  discovery: DiscoveryCache;
  jwks: JwksCache;
  http: HttpOptions;
  clockToleranceSeconds?: number;
  /** ms clock, for tests */
  now?: () => number;
}

/** Per-flow options. */
export interface FlowOptions {
  /** records every exchange of this flow (see trace.ts) */
  trace?: ProtocolTrace;
}

/** The fetch for one step: the relying party's own, recorded when the flow is traced. */
function fetchFor(rp: RelyingParty, step: TraceStep, trace: ProtocolTrace | undefined) {
  return trace ? trace.fetchFor(step, rp.http.fetch) : rp.http.fetch;
}

/** Discovery, from the cache or the network; a cache hit is noted in the trace. */
async function metadataFor(rp: RelyingParty, trace: ProtocolTrace | undefined): Promise<ProviderMetadata> {
  const since = trace?.events.length ?? 0;
  const metadata = await rp.discovery.get(rp.issuer, { fetch: fetchFor(rp, 'discovery', trace) });
  if (trace && !trace.recordedSince(since, 'discovery')) {
    trace.note('discovery', { fromCache: true, url: discoveryUrl(rp.issuer) });
  }
  return metadata;
}

export interface StartedAuthorization {
  authorizationUrl: string;
  pending: PendingAuthorization;
  par: ParResult;
  metadata: ProviderMetadata;
}

/** Steps 1-3: PKCE, state, nonce, the signed request object, PAR, and the URL to send the browser to. */
export async function startAuthorization(
  rp: RelyingParty,
  selection: Selection,
  { trace }: FlowOptions = {},
): Promise<StartedAuthorization> {
  const now = (rp.now ?? Date.now)();
  const metadata = await metadataFor(rp, trace);
  const state = generateState();
  const nonce = generateNonce();
  const codeVerifier = generateCodeVerifier();
  const requestObject = await createRequestObject({
    client: rp.client,
    audience: metadata.issuer,
    state,
    nonce,
    codeChallenge: await codeChallengeS256(codeVerifier),
    claims: buildClaimsRequest(selection),
    now,
  });
  const par = await processParResponse(
    await pushAuthorizationRequest(metadata, rp.client, requestObject, { ...rp.http, fetch: fetchFor(rp, 'par', trace), now }),
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

export interface CompletedAuthorization {
  idToken: ValidatedIdToken;
  verifiedClaims: VerifiedClaims[];
  token: TokenResult;
}

/**
 * Steps 6-9: check the authorization response against the pending authorization (which the caller
 * looked up by the response's `state`, and must delete whatever happens), exchange the code, and
 * decrypt, verify and validate the ID token.
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
    await requestToken(metadata, rp.client, { code, codeVerifier }, { ...rp.http, fetch: fetchFor(rp, 'token', trace), now: (rp.now ?? Date.now)() }),
  );
  const since = trace?.events.length ?? 0;
  const idToken = await processIdToken(token.idToken, {
    issuer: metadata.issuer,
    clientId: rp.client.clientId,
    nonce,
    now: (rp.now ?? Date.now)(),
    clockToleranceSeconds: rp.clockToleranceSeconds,
    encryptionKey: rp.client.encryptionKey,
    jwks: rp.jwks,
    jwksUri: metadata.jwks_uri,
    fetch: fetchFor(rp, 'jwks', trace),
  });
  if (trace && !trace.recordedSince(since, 'jwks')) trace.note('jwks', { fromCache: true, url: metadata.jwks_uri });
  trace?.note('id_token', {
    detail: { jweHeader: idToken.jweHeader, jwsHeader: idToken.jwsHeader, payload: idToken.claims, signingKey: idToken.signingKey },
  });
  return { idToken, verifiedClaims: parseVerifiedClaims(idToken.claims.verified_claims), token };
}
