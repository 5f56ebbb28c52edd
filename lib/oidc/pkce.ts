/**
 * PKCE (RFC 7636, S256 only) and the state and nonce values (2.2).
 *
 * Depends on: jose.
 * Copy with: nothing (imports only jose).
 */
import { base64url } from 'jose';

/**
 * 32 random bytes, base64url: 43 characters, inside 2.2's 43 to 128.
 * @param bytes how many random bytes; the result has ceil(bytes * 4 / 3) characters
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-7.1
 */
export function randomToken(bytes = 32): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * A high-entropy verifier of 43 to 128 unreserved characters (RFC 7636 §4.1). We make it from 32
 * random bytes, as RFC 7636 recommends: 43 characters, 256 bits of entropy.
 * @see Interface specification 2.2 "Request object JWT"
 * @see Interface specification 8 "Limits"
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.1
 */
export function generateCodeVerifier(): string {
  return randomToken(32);
}

/**
 * The S256 challenge, BASE64URL(SHA-256(ASCII(code_verifier))) (RFC 7636 §4.2), sent as
 * `code_challenge` in the request object.
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.2
 */
export async function codeChallengeS256(codeVerifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64url.encode(new Uint8Array(digest));
}

/**
 * A fresh `state` (CSRF protection, compared at the callback). 2.2: state and nonce are 32+
 * random characters; 32 bytes give 43.
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-10.12
 */
export function generateState(): string {
  return randomToken(32);
}

/**
 * A fresh `nonce` (replay protection: the ID token must carry it back, 4.5). 43 characters, as
 * the state.
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#NonceNotes
 */
export function generateNonce(): string {
  return randomToken(32);
}
