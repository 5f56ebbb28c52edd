/**
 * Protocol types shared by the relying-party core. Everything else infers from these. Each type
 * cites its section of the Identity Verification Service Interface Specification.
 *
 * Depends on: jose (its JWK type only).
 * Copy with: nothing (imports only jose).
 */
import type { JWK } from 'jose';

/**
 * The two trust framework values the service documents (2.3). `standard_etsi` validates more
 * strictly and requires `given_name` and `family_name` to be requested.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-12
 */
export const TRUST_FRAMEWORKS = ['standard', 'standard_etsi'] as const;
/**
 * One of {@link TRUST_FRAMEWORKS}.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-12
 */
export type KnownTrustFramework = (typeof TRUST_FRAMEWORKS)[number];

/**
 * The claims a client may request inside `verified_claims` (2.3 "Verified claims fields"), in
 * the order the claims request lists them.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.3
 * @see https://openid.net/specs/openid-connect-core-1_0.html#StandardClaims
 */
export const CLAIM_NAMES = ['name', 'given_name', 'family_name', 'picture', 'gender', 'birthdate', 'nationalities'] as const;
/**
 * One of {@link CLAIM_NAMES}.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.3
 */
export type ClaimName = (typeof CLAIM_NAMES)[number];

/**
 * The document details a client may request (2.3 "Document evidence element"), `issuer.*` as
 * paths. The claims request turns `issuer.name` into `{ issuer: { name: null } }`.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.4
 */
export const DOCUMENT_DETAILS = [
  'type',
  'document_number',
  'date_of_issuance',
  'date_of_expiry',
  'issuer.country_code',
  'issuer.name',
  'personal_number',
  'active_authentication_result',
  'issuer_check',
] as const;
/**
 * One of {@link DOCUMENT_DETAILS}.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.4
 */
export type DocumentDetail = (typeof DOCUMENT_DETAILS)[number];

/**
 * The name the population register evidence must carry in `record.source.name` (2.3 "Electronic
 * record evidence element"). That evidence is enabled per client, by contract.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.4
 */
export const POPULATION_REGISTER_NAME = 'Folkeregisteret';

/**
 * What the user chose to request. The claims request (2.3) is derived from it by
 * `buildClaimsRequest`, so a claim picker and the code that starts a flow only ever deal in
 * selections. Only what is chosen is requested (data minimisation, part 1).
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.3
 */
export interface Selection {
  trustFramework: string;
  /** requested claims, each with its `essential` flag */
  claims: Partial<Record<ClaimName, { essential: boolean }>>;
  /** document evidence with the details to return; absent = not requested */
  document?: { details: DocumentDetail[] };
  /** electronic_record evidence from the population register; absent = not requested */
  populationRegister?: { personalNumber?: string };
}

/**
 * Discovery metadata (OpenID Connect Discovery 1.0 §3, RFC 8414, RFC 9126 §5): the members we use.
 * `authorization_response_iss_parameter_supported` is RFC 9207 §3; `trust_frameworks_supported`
 * is OpenID Connect for Identity Assurance §8.
 * @see Interface specification 4 "Endpoints"
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderMetadata
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-2
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-5
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-3
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-8
 */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  pushed_authorization_request_endpoint: string;
  /**
   * Set by `processDiscoveryResponse` (not by the service) when an endpoint was not in the
   * document: where each endpoint came from ('discovery', 'part_4_path', 'flow_url').
   */
  endpoint_sources?: Partial<Record<'authorization_endpoint' | 'token_endpoint' | 'jwks_uri' | 'pushed_authorization_request_endpoint', string>>;
  trust_frameworks_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  /** the JWE `alg` values the service may encrypt ID tokens with (OpenID Connect Discovery §3) */
  id_token_encryption_alg_values_supported?: string[];
  /** the JWE `enc` values the service may encrypt ID tokens with (OpenID Connect Discovery §3) */
  id_token_encryption_enc_values_supported?: string[];
  [member: string]: unknown;
}

/**
 * Our registration with the service (1. "Prerequisites for a client"): the client identifier, the
 * registered redirect URI, a signing key for private-key JWT authentication and request objects,
 * and an RSA key for ID token decryption. Both keys are private JWKs; never log them.
 * @see Interface specification 1 "What the service does"
 * @see Interface specification 5 "Authentication"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#ClientAuthentication
 * @see https://openid.net/specs/openid-connect-core-1_0.html#Encryption
 */
export interface ClientConfig {
  clientId: string;
  /** the registered redirect URI, for instance `https://rp.example/auth/callback` */
  redirectUri: string;
  /** private signing key as a JWK with `kid` and `alg` (ES256, PS256 or EdDSA) */
  signingKey: JWK & { kid: string; alg: ClientSigningAlgorithm };
  /** private RSA key as a JWK with `kid`, for ID token decryption (RSA-OAEP-256) */
  encryptionKey: JWK & { kid: string };
}

/**
 * Algorithms the service accepts for client-signed JWTs (part 5, item 2).
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.1
 * @see https://www.rfc-editor.org/rfc/rfc8037#section-3.1
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.4.1
 */
export const CLIENT_SIGNING_ALGORITHMS = ['ES256', 'PS256', 'EdDSA'] as const;
/**
 * One of {@link CLIENT_SIGNING_ALGORITHMS}.
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-3.1
 */
export type ClientSigningAlgorithm = (typeof CLIENT_SIGNING_ALGORITHMS)[number];

/** A fetch implementation; injectable so tests (and the protocol trace) can stand in for the network. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Transport options every network step accepts.
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.2.1
 */
export interface HttpOptions {
  fetch?: FetchLike;
  /** milliseconds before an outbound call is aborted (default 10 000) */
  timeoutMs?: number;
  /**
   * Plain http is refused unless this is set. Named so that turning it on is a visible choice
   * (for a test provider on http://localhost, say; never in production).
   */
  allowInsecureRequests?: boolean;
}

/**
 * What the client keeps between the redirect and the callback (in the session, keyed by state):
 * the `state` to compare (4.2), the `nonce` the ID token must carry (4.5) and the PKCE verifier
 * for the token request (4.3). Keep it server-side and bound to the browser that started the flow.
 * @see Interface specification 2.2 "Request object JWT"
 * @see Interface specification 4.2 "GET {flow_url}/auth"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.1
 * @see https://openid.net/specs/openid-connect-core-1_0.html#NonceNotes
 */
export interface PendingAuthorization {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** the issuer the request was pushed to */
  issuer: string;
  /** ms since the epoch */
  createdAt: number;
  selection: Selection;
}
