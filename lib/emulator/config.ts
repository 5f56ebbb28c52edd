/**
 * The emulator's fixed protocol parameters: endpoint paths, algorithms, lifetimes and limits.
 * Values the spec leaves open ("not shown") are chosen here and listed in DECISIONS.md.
 * @see spec parts 4, 5 and 8
 */

/** Paths relative to the base URL (= the issuer). @see spec part 4 */
export const ENDPOINT_PATHS = {
  discovery: '/.well-known/openid-configuration',
  jwks: '/jwks',
  par: '/par',
  authorization: '/auth',
  token: '/token',
  /** the personas' portraits, shown by the simulated identity app */
  portraits: '/portraits',
  /** the simulated identity app's screens: `/app/<interaction id>` */
  app: '/app',
  /** the authorization page asks whether the app finished on another device (JSON) */
  authorizationStatus: '/auth/status',
  /** the authorization page continues to the client after the app finished on another device */
  authorizationContinue: '/auth/continue',
  /** the authorization page of an open interaction again (reload, and the language switch's way back) */
  authorizationPage: '/auth/page',
  /** the language switch of every page posts here (views/language.ts) */
  language: '/language',
  /** the authorization page's one script (the pages allow no inline script) */
  authorizationPageScript: '/assets/auth-page.js',
} as const;

/** The one client authentication method. @see spec 5.1; RFC 7523 §2.2 */
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** 2.4: `urn:ietf:params:oauth:request_uri:<uuid>` (RFC 9126 §2.2). */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** Algorithms accepted on client-signed JWTs (assertions and request objects). @see spec 5.2 */
export const CLIENT_SIGNING_ALGORITHMS = ['ES256', 'PS256', 'EdDSA'] as const;
export type ClientSigningAlgorithm = (typeof CLIENT_SIGNING_ALGORITHMS)[number];

/** ID tokens: signed, then encrypted to the client. @see spec 2.5, 5.6 */
export const ID_TOKEN_SIGNING_ALGORITHM = 'ES256';

/**
 * Key management algorithms an ID token may be encrypted with (a client's
 * `id_token_encrypted_response_alg`, OpenID Connect Dynamic Client Registration 1.0 §2). Spec 2.5
 * shows RSA-OAEP-256 only as "the example JWE header"; RSA-OAEP (SHA-1 in OAEP) is its sibling
 * in RFC 7518 §4.3. RSA1_5 (§4.2) is not one of them: RFC 8725 §3.2 and FAPI 2.0 refuse it.
 */
export const ID_TOKEN_ENCRYPTION_ALGORITHMS = ['RSA-OAEP-256', 'RSA-OAEP'] as const;
export type IdTokenEncryptionAlgorithm = (typeof ID_TOKEN_ENCRYPTION_ALGORITHMS)[number];

/** Content encryption an ID token may use (`id_token_encrypted_response_enc`): every AEAD of RFC 7518 §5.1. */
export const ID_TOKEN_CONTENT_ENCRYPTIONS = ['A128GCM', 'A192GCM', 'A256GCM', 'A128CBC-HS256', 'A192CBC-HS384', 'A256CBC-HS512'] as const;
export type IdTokenContentEncryption = (typeof ID_TOKEN_CONTENT_ENCRYPTIONS)[number];

/** The variant of a client that names none: the example JWE header of spec 2.5. */
export const ID_TOKEN_ENCRYPTION_ALGORITHM = 'RSA-OAEP-256' satisfies IdTokenEncryptionAlgorithm;
export const ID_TOKEN_CONTENT_ENCRYPTION = 'A256GCM' satisfies IdTokenContentEncryption;

/** How one client's ID tokens are encrypted: the JWE header's `alg` and `enc`. @see spec 2.5 */
export interface IdTokenEncryption {
  alg: IdTokenEncryptionAlgorithm;
  enc: IdTokenContentEncryption;
}

/** @see spec 2.6 `acr` ("urn:<vendor>:idcheck") and `amr` (the example's values) */
export const ACR = 'urn:idv-emulator:idcheck';
export const AMR = ['face', 'user'] as const;

/** Lifetimes in seconds. */
export const LIFETIMES = {
  /** spec 2.4 and part 8: "typically 600" */
  requestUri: 600,
  /** the time a user has in the simulated identity app; as long as the request_uri it replaces */
  interaction: 600,
  /** RFC 6749 §4.1.2 recommends at most 10 minutes; a redirect needs seconds */
  authorizationCode: 60,
  /** spec 2.5 and part 8 */
  idToken: 3600,
  /** spec 5.7 leaves the bound open; an assertion is built per request, so minutes are plenty */
  maxClientAssertion: 300,
  /** FAPI 2.0 Security Profile §5.3.1.1: a request object lives at most 60 minutes */
  maxRequestObject: 3600,
} as const;

/** Tolerance for clocks of client and emulator disagreeing, applied to every time check. */
export const CLOCK_SKEW_SECONDS = 30;

/** Upper bound for form bodies (part 8 leaves size limits open); a request object is a few KiB. */
export const MAX_FORM_BYTES = 64 * 1024;

/** Upper bound for `state` and `nonce`, which are echoed into URLs and tokens. */
export const MAX_STATE_OR_NONCE_LENGTH = 512;
