/**
 * panva's openid-client v6, made to speak the identity verification service's interface
 * specification. openid-client follows the RFCs and FAPI 2.0; where the specification departs
 * from them, each adaptation below names the section that forces it ("interface spec 2.1" is
 * section 2.1 of the specification), and README.md beside this file explains each.
 *
 * Only openid-client's documented hooks are used: `PrivateKeyJwt(key, { [modifyAssertion] })`
 * and `buildAuthorizationUrlWithJAR(…, { [modifyAssertion] })` for the JWTs we sign,
 * `enableDecryptingResponses` and `getDecryptedResponses` for the encrypted ID token,
 * `enableNonRepudiationChecks` for its signature, and `customFetch` for the one response
 * openid-client cannot read as the service sends it (the token response, interface spec 2.5).
 *
 *   const service = await connectToService({ issuer, clientId, redirectUri, signingKey, encryptionKey });
 *   const { authorizationUrl, pending } = await startAuthorization(service, claimsRequest);
 *   … the browser goes to authorizationUrl and comes back to redirectUri …
 *   const idToken = await completeAuthorization(service, callbackUrl, pending);
 */
import { webcrypto } from 'node:crypto';
import * as client from 'openid-client';

/** A private JWK as `npm run keys` prints it: `kid` and `alg` are always there. */
export type PrivateJwk = webcrypto.JsonWebKey & { kid: string; alg: string };

export interface ServiceClientOptions {
  /** the service's base URL, which is its issuer (interface spec 2.1: the assertions' `aud`) */
  issuer: string;
  clientId: string;
  /** the registered redirect URI (interface spec 5.3), compared by the service as an exact string */
  redirectUri: string;
  /** the client's signing key: ES256, PS256 or EdDSA (interface spec 5.2) */
  signingKey: PrivateJwk;
  /** the client's RSA key for ID token encryption (interface spec 1, 2.5) */
  encryptionKey: PrivateJwk;
  /**
   * Plain http to the service. openid-client refuses it unless asked by name
   * (`allowInsecureRequests`); only for an emulator on this machine.
   */
  allowInsecureRequests?: boolean;
}

export interface ServiceClient {
  readonly config: client.Configuration;
  readonly redirectUri: string;
  readonly signingKey: client.PrivateKey;
  /** reshapes openid-client's request object before it is signed (interface spec 2.2) */
  readonly requestObject: client.ModifyAssertionFunction;
}

/** What the callback needs, kept by the caller (a session) between the two steps. */
export interface PendingAuthorization {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** A refusal of ours, beyond openid-client's own checks, with a stable code. */
export class ServiceResponseRefused extends Error {
  constructor(
    readonly code: 'id_token_not_encrypted' | 'id_token_issued_in_future' | 'id_token_audience_mismatch',
    message: string,
  ) {
    super(message);
    this.name = 'ServiceResponseRefused';
  }
}

/** Interface spec 5.2: the algorithms of the client's signing keys, with their Web Crypto import. */
const SIGNING_ALGORITHMS = {
  ES256: { name: 'ECDSA', namedCurve: 'P-256' },
  PS256: { name: 'RSA-PSS', hash: 'SHA-256' },
  EdDSA: { name: 'Ed25519' },
} as const;
type SigningAlgorithm = keyof typeof SIGNING_ALGORITHMS;

/** Interface spec 5.6: the service signs ID tokens with ES256 only. */
const ID_TOKEN_SIGNING_ALGORITHM = 'ES256';
/**
 * Interface spec 2.5: the ID token is encrypted to our RSA key; its example JWE header shows
 * RSA-OAEP-256 "as an example", so RSA-OAEP (SHA-1) is accepted too (never RSA1_5). The content
 * encryptions are openid-client's default list: AES-GCM and AES-CBC-HMAC-SHA2 at each key size.
 */
const ID_TOKEN_KEY_MANAGEMENT = { 'RSA-OAEP-256': 'SHA-256', 'RSA-OAEP': 'SHA-1' } as const;
/** openid-client's own tolerance for `exp` (`clockTolerance`, 30 s by default), used for `iat` too. */
const CLOCK_TOLERANCE_SECONDS = 30;
/**
 * How long a request to the service may take, in seconds: openid-client waits 30 s by default,
 * and the spec names no figure. A person is waiting on the callback, so give up after 10 s
 * (this project's core waits as long) and say so (ClientError code OAUTH_TIMEOUT).
 */
const TIMEOUT_SECONDS = 10;

function isSigningAlgorithm(alg: string): alg is SigningAlgorithm {
  return Object.hasOwn(SIGNING_ALGORITHMS, alg);
}

async function importSigningKey(jwk: PrivateJwk): Promise<{ key: client.PrivateKey; alg: SigningAlgorithm }> {
  if (!isSigningAlgorithm(jwk.alg)) {
    throw new TypeError(`the signing key's alg must be ES256, PS256 or EdDSA (interface spec 5.2), not ${jwk.alg}`);
  }
  const key = await webcrypto.subtle.importKey('jwk', jwk, SIGNING_ALGORITHMS[jwk.alg], false, ['sign']);
  return { key: { key, kid: jwk.kid }, alg: jwk.alg };
}

/**
 * Our RSA key, once per key management algorithm: Web Crypto binds an RSA-OAEP key to one hash,
 * and openid-client picks the key whose `alg` the JWE header names.
 */
async function importEncryptionKeys(jwk: PrivateJwk): Promise<client.DecryptionKey[]> {
  // The JWK's own `alg` (RSA-OAEP-256 as `npm run keys` prints it) would refuse the SHA-1 import.
  const material = { ...jwk, alg: undefined };
  return Promise.all(
    Object.entries(ID_TOKEN_KEY_MANAGEMENT).map(async ([alg, hash]) => {
      const key = await webcrypto.subtle.importKey('jwk', material, { name: 'RSA-OAEP', hash }, false, ['decrypt']);
      // The JWE header names our key by `kid`; openid-client skips a key without one when it does.
      return { key, kid: jwk.kid, alg };
    }),
  );
}

/**
 * The header and payload of the JWTs we sign, as the service wants them: openid-client builds
 * them for RFC 7523 and RFC 9101, and this hook reshapes them before they are signed.
 */
function signedJwtShape(alg: SigningAlgorithm) {
  // Interface spec 2.1 allows no `jti`, so a service that refuses a replayed assertion can only
  // compare assertions whole; and two built in the same second are byte for byte the same when
  // signed with EdDSA (deterministic signatures, RFC 8032 §5.1.6). Each EdDSA client assertion of
  // this key gets an `exp` second of its own, within its lifetime (`claimAssertionExp`). A request
  // object carries a fresh state and nonce, so it is never the same as another.
  const used = new Set<number>();

  /** Interface spec 2.1: header exactly {alg, kid, typ: "JWT"}; payload exactly {iss, sub, aud, exp}. */
  const clientAssertion: client.ModifyAssertionFunction = (header, payload) => {
    // Interface spec 2.1 and 5.2: "EdDSA". openid-client names an Ed25519 key's JWS algorithm
    // "Ed25519" (RFC 9864's fully specified name), which the service does not list.
    header.alg = alg;
    // Interface spec 2.1: `typ` = JWT is one of the three header members; openid-client sets none.
    header.typ = 'JWT';
    // Interface spec 2.1 and 5.4: exactly four payload claims. openid-client adds `jti`, `iat`
    // and `nbf` (RFC 7523 §3 allows them), which a service checking the letter refuses.
    delete payload.jti;
    delete payload.iat;
    delete payload.nbf;
    // ES256 and PS256 signatures are randomized: two assertions of the same second still differ.
    if (alg === 'EdDSA') payload.exp = claimAssertionExp(used, Number(payload.exp), Math.floor(Date.now() / 1000));
  };

  /** Interface spec 2.2 and 5.5: the request object, thirteen claims, signed as the assertion. */
  const requestObject: client.ModifyAssertionFunction = (header, payload) => {
    header.alg = alg;
    // Interface spec 2.2: "the same shape as the client assertion header", so `typ` is JWT, not
    // the `oauth-authz-req+jwt` of RFC 9101 §10.8 that openid-client sets.
    header.typ = 'JWT';
    // Interface spec 2.2 and 5.5: `sub` = client_id binds the request to the client;
    // openid-client sends `iss` and `client_id` but no `sub`.
    payload.sub = payload.iss;
    // Interface spec 2.2: the table lists no `jti`, `iat` or `nbf`.
    delete payload.jti;
    delete payload.iat;
    delete payload.nbf;
  };

  return { clientAssertion, requestObject };
}

/** The least time an assertion has left when it is made: for the call and a service clock ahead. */
const MIN_REMAINING_SECONDS = 30;

/**
 * A client assertion's `exp`: the latest whole second at or below `nominal` (openid-client's now +
 * lifetime) that `used` does not hold, more than MIN_REMAINING_SECONDS after `now`, so an
 * assertion never outlives its lifetime however many are made at once. Remembered in `used`,
 * which forgets the seconds that have passed.
 * @throws Error when every such second is used: more assertions at once than this key can sign
 */
export function claimAssertionExp(used: Set<number>, nominal: number, now: number): number {
  for (const second of used) if (second <= now) used.delete(second);
  for (let second = nominal; second > now + MIN_REMAINING_SECONDS; second -= 1) {
    if (!used.has(second)) {
      used.add(second);
      return second;
    }
  }
  throw new Error(`this EdDSA key has made a client assertion for every second it may use until ${nominal}: wait a moment, or use an ES256 or PS256 key`);
}

/**
 * Interface spec 2.5: the token response is exactly `{ id_token, expires_in }`. RFC 6749 §5.1
 * requires `access_token` and `token_type` in every token response, and openid-client refuses one
 * without them before it looks at the ID token (oauth4webapi's processGenericAccessTokenResponse:
 * `assertString(json.access_token, …)`), with no option to skip that check. The service issues no
 * access token, so there is nothing true to give it.
 *
 * This hook, on the token endpoint's successful JSON response only, and only when the service
 * sent neither member, adds them as placeholders that say what they are, as openid-client itself
 * does in implicitAuthentication() to run the same ID token checks on an ID token alone. They
 * never leave this module: completeAuthorization() returns the ID token's claims, not the response.
 * A response that carries an access token of its own passes untouched.
 */
function readTokenResponseWithoutAccessToken(config: client.Configuration): client.CustomFetch {
  const tokenEndpoint = config.serverMetadata().token_endpoint;
  return async (url, options) => {
    // openid-client hands over fetch()'s own options (its body types are a subset of fetch's).
    const response = await fetch(url, options as RequestInit);
    if (url !== tokenEndpoint || response.status !== 200) return response;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    if (typeof body !== 'object' || body === null || Array.isArray(body) || 'access_token' in body || 'token_type' in body) return response;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify({ ...body, access_token: TOKEN_RESPONSE_PLACEHOLDER, token_type: 'bearer' }), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}

/** Never a credential: the service issued none (interface spec 2.5). */
const TOKEN_RESPONSE_PLACEHOLDER = 'none: the service issues no access token (interface spec 2.5)';

/**
 * Discovery, and a Configuration that speaks the service's dialect: private_key_jwt shaped as
 * interface spec 2.1, the encrypted ID token decrypted with our RSA key (2.5, 5.6) and its
 * signature checked against the service's keys (4.4, 5.6).
 */
export async function connectToService(options: ServiceClientOptions): Promise<ServiceClient> {
  const signing = await importSigningKey(options.signingKey);
  const shape = signedJwtShape(signing.alg);
  const config = await client.discovery(
    new URL(options.issuer),
    options.clientId,
    // Interface spec 5.6: ID tokens are signed with ES256; anything else is refused.
    { id_token_signed_response_alg: ID_TOKEN_SIGNING_ALGORITHM },
    // Interface spec part 5 and 2.1: private_key_jwt, with a fresh assertion for each request.
    client.PrivateKeyJwt(signing.key, { [client.modifyAssertion]: shape.clientAssertion }),
    { execute: options.allowInsecureRequests ? [client.allowInsecureRequests] : [], timeout: TIMEOUT_SECONDS },
  );
  config[client.customFetch] = readTokenResponseWithoutAccessToken(config);
  // Interface spec 2.5 and 5.6: the ID token is a JWE to our RSA key around the signed JWT.
  client.enableDecryptingResponses(config, undefined, ...(await importEncryptionKeys(options.encryptionKey)));
  // Interface spec 4.4 and 5.6: verify the inner JWT's signature with the key of the service's
  // JWKS that its `kid` names. Without this, openid-client trusts an ID token from the token
  // endpoint on TLS alone (OpenID Connect Core §3.1.3.7, item 6), and does not check it.
  // The JWKS is cached for 300 s; for a `kid` it does not hold, it is fetched again only when the
  // cached copy is at least 60 s old (oauth4webapi), so a key rotated in within a minute of the
  // last fetch is refused until then (interface spec 4.4 leaves caching to the client).
  client.enableNonRepudiationChecks(config);
  return { config, redirectUri: options.redirectUri, signingKey: signing.key, requestObject: shape.requestObject };
}

/**
 * PAR with a signed request object (interface spec 1, 2.2, 4.1): openid-client signs the
 * authorization parameters as a request object (reshaped as 2.2 wants), pushes it with a client
 * assertion, and returns the authorization endpoint's URL with only `client_id` and `request_uri`
 * (4.2).
 *
 * @param claimsRequest the `claims` parameter (interface spec 2.3)
 */
export async function startAuthorization(
  service: ServiceClient,
  claimsRequest: { id_token: { verified_claims: object } },
): Promise<{ authorizationUrl: URL; pending: PendingAuthorization }> {
  const pending: PendingAuthorization = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
  // Interface spec 2.2: exactly these parameters (openid-client adds client_id and
  // response_type=code, and turns `claims` back into a JSON object in the request object).
  const parameters = {
    redirect_uri: service.redirectUri,
    scope: 'openid',
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(pending.codeVerifier),
    code_challenge_method: 'S256',
    claims: JSON.stringify(claimsRequest),
  };
  const signed = await client.buildAuthorizationUrlWithJAR(service.config, parameters, service.signingKey, {
    [client.modifyAssertion]: service.requestObject,
  });
  // Interface spec 4.1: PAR's form is exactly client_id, client_assertion_type, client_assertion
  // and request; `signed` carries only client_id and request.
  const authorizationUrl = await client.buildAuthorizationUrlWithPAR(service.config, signed.searchParams);
  return { authorizationUrl, pending };
}

/**
 * The callback: the redirect's `state` (and `iss`, when discovery advertises RFC 9207), the code
 * exchange with a fresh client assertion and the PKCE verifier (interface spec 4.3), and the ID
 * token's checks (4.5), which openid-client makes but for three that this function adds.
 *
 * @returns the claims of the decrypted, verified ID token (interface spec 2.6)
 */
export async function completeAuthorization(service: ServiceClient, callbackUrl: URL, pending: PendingAuthorization): Promise<client.IDToken> {
  const tokens = await client.authorizationCodeGrant(service.config, callbackUrl, {
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    pkceCodeVerifier: pending.codeVerifier,
    idTokenExpected: true,
  });
  // Interface spec 2.5 and 5.6: the ID token is always a JWE. openid-client decrypts one when it
  // can, but takes a bare signed JWT as well; getDecryptedResponses() holds the inner JWT only
  // when the token endpoint's ID token was in fact decrypted.
  if (client.getDecryptedResponses(tokens)?.id_token?.token_endpoint === undefined) {
    throw new ServiceResponseRefused('id_token_not_encrypted', 'the ID token is not a JWE, though interface spec 2.5 says it always is');
  }
  const claims = tokens.claims();
  if (!claims) throw new TypeError('openid-client returned no ID token claims'); // idTokenExpected makes this unreachable
  // Interface spec 4.5: `aud` equals the client_id. openid-client also takes an array that names
  // other audiences besides us when `azp` is our client_id; this client trusts no other audience
  // (OpenID Connect Core §3.1.3.7, item 3). A one-element array is the same audience (RFC 7519 §4.1.3).
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (audiences.length !== 1 || audiences[0] !== service.config.clientMetadata().client_id) {
    throw new ServiceResponseRefused('id_token_audience_mismatch', 'the ID token names an audience besides this client (interface spec 4.5)');
  }
  // Interface spec 4.5: `iat` not in the future. openid-client checks `exp`, `nbf`, `iss`, `aud`
  // and `nonce`, but `iat` only for its type.
  if (claims.iat > Math.floor(Date.now() / 1000) + CLOCK_TOLERANCE_SECONDS) {
    throw new ServiceResponseRefused('id_token_issued_in_future', `the ID token's iat (${claims.iat}) is in the future (interface spec 4.5)`);
  }
  return claims;
}
