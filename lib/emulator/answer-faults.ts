/**
 * The faults each answer of the emulator can be made with, by name, and the values they put in
 * it. The handler of an answer makes its faults (endpoints/par.ts, identity-app/decision.ts,
 * endpoints/token.ts, tokens/id-token.ts, endpoints/jwks.ts) when a listener of its `…answering`
 * event asks for them (events.ts). Which faults QA offers, what they are called and what a relying
 * party must answer to each is the catalogue's (qa/faults.ts), which tsc holds to these names.
 * @see DECISIONS.md "Faults", "Refusals and acceptance variants"
 */
import type { IdTokenEncryption } from './config';

/** The pushed authorization request's answer: an error instead of the request_uri. */
export type ParFault = 'par_server_error' | 'par_temporarily_unavailable' | 'par_invalid_request' | 'par_invalid_client';

/** The redirect back with a code: its `state` or its `iss`. */
export type AuthorizationResponseFault = 'wrong_state' | 'missing_state' | 'wrong_response_issuer' | 'missing_response_issuer';

/** The token response: an error, a held answer, another body, or no `expires_in`. */
export type TokenResponseFault =
  'token_error' | 'token_timeout' | 'token_invalid_grant' | 'token_invalid_client' | 'token_not_json' | 'token_missing_id_token' | 'no_expires_in';

/**
 * The encryption variants: the ID token encrypted with exactly this `alg` and `enc`, whatever the
 * client's variant (spec 2.5 shows RSA-OAEP-256 / A256GCM only as an example).
 */
export const ID_TOKEN_ENCRYPTION_VARIANTS = {
  encrypted_rsa_oaep_256_a128gcm: { alg: 'RSA-OAEP-256', enc: 'A128GCM' },
  encrypted_rsa_oaep_256_a192gcm: { alg: 'RSA-OAEP-256', enc: 'A192GCM' },
  encrypted_rsa_oaep_256_a256gcm: { alg: 'RSA-OAEP-256', enc: 'A256GCM' },
  encrypted_rsa_oaep_256_a128cbc_hs256: { alg: 'RSA-OAEP-256', enc: 'A128CBC-HS256' },
  encrypted_rsa_oaep_256_a192cbc_hs384: { alg: 'RSA-OAEP-256', enc: 'A192CBC-HS384' },
  encrypted_rsa_oaep_256_a256cbc_hs512: { alg: 'RSA-OAEP-256', enc: 'A256CBC-HS512' },
  encrypted_rsa_oaep_a128gcm: { alg: 'RSA-OAEP', enc: 'A128GCM' },
  encrypted_rsa_oaep_a192gcm: { alg: 'RSA-OAEP', enc: 'A192GCM' },
  encrypted_rsa_oaep_a256gcm: { alg: 'RSA-OAEP', enc: 'A256GCM' },
  encrypted_rsa_oaep_a128cbc_hs256: { alg: 'RSA-OAEP', enc: 'A128CBC-HS256' },
  encrypted_rsa_oaep_a192cbc_hs384: { alg: 'RSA-OAEP', enc: 'A192CBC-HS384' },
  encrypted_rsa_oaep_a256cbc_hs512: { alg: 'RSA-OAEP', enc: 'A256CBC-HS512' },
} as const satisfies Record<string, IdTokenEncryption>;

export type IdTokenEncryptionVariant = keyof typeof ID_TOKEN_ENCRYPTION_VARIANTS;

/** The ID token: one claim, the claims set, the signature or the encryption. */
export type IdTokenFault =
  | 'wrong_nonce'
  | 'missing_nonce'
  | 'wrong_issuer'
  | 'missing_issuer'
  | 'wrong_audience'
  | 'missing_audience'
  | 'extra_audience'
  | 'missing_subject'
  | 'expired'
  | 'issued_in_future'
  | 'missing_expiry'
  | 'unknown_signing_key'
  | 'unknown_kid'
  | 'signed_ps256'
  | 'signed_es384'
  | 'alg_none'
  | 'hs256_public_key'
  | 'unencrypted'
  | 'wrong_jwe_algorithm'
  | 'wrong_encryption_key'
  | 'jwe_tag_tampered'
  | 'key_rotated_unpublished'
  | 'aud_array'
  | 'clock_skew_within_tolerance'
  | 'unknown_verified_claims_members'
  | 'minimal_token'
  | 'picture_not_image'
  | IdTokenEncryptionVariant;

/** The JWKS responses: the order of the keys, or keys nobody can use added. */
export type JwksFault = 'jwks_keys_shuffled' | 'jwks_unparseable_extra_keys';

/**
 * The JWKS endpoint's answer: an outage, an error instead of the keys or an answer held too long
 * (the JWKS variants above change which keys a good answer lists).
 */
export type JwksEndpointFault = 'jwks_error' | 'jwks_timeout';

/** How long `token_timeout` holds the token response: longer than the 10 s the relying-party core waits by default. */
export const TOKEN_TIMEOUT_DELAY_MS = 15_000;
/** How long `jwks_timeout` holds the JWKS response: longer than the 10 s the relying-party core waits by default. */
export const JWKS_TIMEOUT_DELAY_MS = 15_000;

/** `wrong_issuer`, `wrong_response_issuer`: a name that cannot be anyone's issuer (RFC 2606 reserves `.invalid`). */
export const FAULTY_ISSUER = 'https://impostor.invalid';
/** `wrong_audience`: a client_id other than the one the token goes to. */
export const FAULTY_AUDIENCE = 'another-client';
/** `expired`: how long ago `exp` passed; well beyond any relying party's clock tolerance (60 s at most). */
export const EXPIRED_SECONDS_AGO = 600;
/** `issued_in_future`: how far ahead `iat` lies; well beyond any clock tolerance. */
export const ISSUED_SECONDS_AHEAD = 600;
/**
 * `clock_skew_within_tolerance`: how far ahead `iat` lies; within the 30 s our core tolerates by
 * default (and the 60 s jose and openid-client allow at most).
 */
export const SKEWED_SECONDS_AHEAD = 20;
/**
 * `picture_not_image`: a remote URL where a base64 JPEG data URI belongs (spec 2.3). Under
 * `.invalid` (RFC 2606), so a relying party that fetches it reaches nobody.
 */
export const NOT_AN_IMAGE_PICTURE = 'https://portrait.invalid/portrait.jpg';
