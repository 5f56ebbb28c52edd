/**
 * GET /.well-known/openid-configuration. The spec leaves the body "not shown"; it follows OpenID
 * Connect Discovery 1.0 §3, RFC 8414, RFC 9126 §5, RFC 9101 §10.5, RFC 9207 §3 and OpenID Connect
 * for Identity Assurance §8, and states exactly what the emulator enforces.
 * @see spec part 4 (discovery endpoint)
 */
import { CLAIM_NAMES, DOCUMENT_TYPES, ELECTRONIC_RECORD_TYPES, EVIDENCE_TYPES, TRUST_FRAMEWORKS } from '../checks/claims-request';
import { ACR, CLIENT_SIGNING_ALGORITHMS, ID_TOKEN_CONTENT_ENCRYPTIONS, ID_TOKEN_ENCRYPTION_ALGORITHMS, ID_TOKEN_SIGNING_ALGORITHM } from '../config';
import { isStoreError } from '../../store/store';
import { ENDPOINT_PATHS } from '../config';
import { endpointUrl, type EmulatorContext } from '../context';

/**
 * The minimal document (QA panel: "discovery"): the members OpenID Connect Discovery 1.0 §3
 * requires besides endpoints, and no endpoint at all, as a sparse real document might be. A
 * relying party must then take PAR, token and JWKS from part 4's paths and the authorization
 * endpoint from its configured flow URL. It advertises no RFC 9207 `iss` either.
 * @see spec part 4; DECISIONS.md "Discovery"
 */
export function minimalProviderMetadata(context: EmulatorContext): Record<string, unknown> {
  return {
    issuer: context.issuer,
    response_types_supported: ['code'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: [ID_TOKEN_SIGNING_ALGORITHM],
  };
}

/**
 * The provider metadata. Every encryption variant a client may be given is advertised (spec 2.5
 * shows one as "the example"); `authorization_response_iss_parameter_supported` only while the
 * redirect carries `iss` (RFC 9207 §3; left out, it means false).
 * @param options.redirectIss whether the redirect carries `iss` (context.ts `redirectIss`)
 * @see spec part 4; OpenID Connect Discovery 1.0 §3
 */
export function providerMetadata(context: EmulatorContext, { redirectIss = true }: { redirectIss?: boolean } = {}): Record<string, unknown> {
  return {
    issuer: context.issuer,
    // part 4: the authorization endpoint lives on `{flow_url}`, which may be another origin.
    authorization_endpoint: `${context.flowBaseUrl}${ENDPOINT_PATHS.authorization}`,
    pushed_authorization_request_endpoint: endpointUrl(context, 'par'),
    token_endpoint: endpointUrl(context, 'token'),
    jwks_uri: endpointUrl(context, 'jwks'),
    require_pushed_authorization_requests: true,
    require_signed_request_object: true,
    request_object_signing_alg_values_supported: [...CLIENT_SIGNING_ALGORITHMS],
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...CLIENT_SIGNING_ALGORITHMS],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['openid'],
    subject_types_supported: ['pairwise'],
    acr_values_supported: [ACR],
    id_token_signing_alg_values_supported: [ID_TOKEN_SIGNING_ALGORITHM],
    id_token_encryption_alg_values_supported: [...ID_TOKEN_ENCRYPTION_ALGORITHMS],
    id_token_encryption_enc_values_supported: [...ID_TOKEN_CONTENT_ENCRYPTIONS],
    claims_parameter_supported: true,
    // Left out while iss is off, as a document that does not send it usually is.
    ...(redirectIss ? { authorization_response_iss_parameter_supported: true } : {}),
    verified_claims_supported: true,
    trust_frameworks_supported: [...TRUST_FRAMEWORKS],
    evidence_supported: [...EVIDENCE_TYPES],
    documents_supported: [...DOCUMENT_TYPES],
    electronic_records_supported: [...ELECTRONIC_RECORD_TYPES],
    claims_in_verified_claims_supported: [...CLAIM_NAMES],
  };
}

/**
 * Handles GET /.well-known/openid-configuration: the full document, or the minimal one while QA
 * has switched to it; cacheable for an hour either way (a switch reaches a relying party that
 * cached the other within that hour).
 * @see spec part 4
 */
export async function discoveryEndpoint(_request: Request, context: EmulatorContext): Promise<Response> {
  // QA switches, read from the state store: while the store is out, the full document is served,
  // as before the switch existed, rather than a 503 that would stop every relying party (and
  // `redirectIss` falls back to its option by itself).
  const [shape, redirectIss] = await Promise.all([
    context.discoveryShape().catch((error: unknown) => {
      if (isStoreError(error)) return 'full' as const;
      throw error;
    }),
    context.redirectIss(),
  ]);
  const minimal = shape === 'minimal';
  return Response.json(minimal ? minimalProviderMetadata(context) : providerMetadata(context, { redirectIss }), {
    headers: { 'Cache-Control': 'public, max-age=3600' },
  });
}
