/**
 * Protocol types shared by the relying-party core. Everything else infers from these.
 * @see ../../../shared/spec/identity-verification-service.md (sections cited per type)
 */
import type { JWK } from 'jose';

/** 2.3: the two trust framework values the service documents. */
export const TRUST_FRAMEWORKS = ['standard', 'standard_etsi'] as const;
export type KnownTrustFramework = (typeof TRUST_FRAMEWORKS)[number];

/** 2.3 "Verified claims fields": the claims a client may request inside verified_claims. */
export const CLAIM_NAMES = [
  'name',
  'given_name',
  'family_name',
  'picture',
  'gender',
  'birthdate',
  'nationalities',
] as const;
export type ClaimName = (typeof CLAIM_NAMES)[number];

/** 2.3 "Document evidence element": the document details a client may request, `issuer.*` as paths. */
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
export type DocumentDetail = (typeof DOCUMENT_DETAILS)[number];

/** 2.3: the name the population register evidence must carry in `record.source.name`. */
export const POPULATION_REGISTER_NAME = 'Folkeregisteret';

/**
 * What the user chose to request. The claims request (2.3) is derived from it by
 * `buildClaimsRequest`; the picker and the start route only ever deal in selections.
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

/** Discovery metadata (OpenID Connect Discovery 1.0 §3, RFC 8414, RFC 9126 §5): the members we use. */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  pushed_authorization_request_endpoint: string;
  trust_frameworks_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  [member: string]: unknown;
}

/** Our registration with the service (1. "Prerequisites for a client"). */
export interface ClientConfig {
  clientId: string;
  /** the registered redirect URI, `APP_URL/auth/callback` */
  redirectUri: string;
  /** private signing key as a JWK with `kid` and `alg` (ES256, PS256 or EdDSA) */
  signingKey: JWK & { kid: string; alg: ClientSigningAlgorithm };
  /** private RSA key as a JWK with `kid`, for ID token decryption (RSA-OAEP-256) */
  encryptionKey: JWK & { kid: string };
}

/** 5.2: algorithms the service accepts for client-signed JWTs. */
export const CLIENT_SIGNING_ALGORITHMS = ['ES256', 'PS256', 'EdDSA'] as const;
export type ClientSigningAlgorithm = (typeof CLIENT_SIGNING_ALGORITHMS)[number];

/** A fetch implementation; injectable so tests (and the protocol trace) can stand in for the network. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Transport options every network step accepts. */
export interface HttpOptions {
  fetch?: FetchLike;
  /** milliseconds before an outbound call is aborted (default 10 000) */
  timeoutMs?: number;
  /**
   * Plain http is refused unless this is set. Named so that turning it on is a visible choice
   * (the embedded emulator on localhost sets it).
   */
  allowInsecureRequests?: boolean;
}

/** What the client keeps between the redirect and the callback (in the session, keyed by state). */
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
