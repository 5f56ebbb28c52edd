/**
 * PKCE (RFC 7636, S256 only) and the state and nonce values (2.2).
 */
import { base64url } from 'jose';

/** 32 random bytes, base64url: 43 characters, inside 2.2's 43 to 128. */
export function randomToken(bytes = 32): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** RFC 7636 §4.1: a high-entropy verifier of 43 to 128 unreserved characters (DESIGN.md: from 32 random bytes). */
export function generateCodeVerifier(): string {
  return randomToken(32);
}

/** RFC 7636 §4.2: BASE64URL(SHA-256(ASCII(code_verifier))). */
export async function codeChallengeS256(codeVerifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier));
  return base64url.encode(new Uint8Array(digest));
}

/** 2.2: state and nonce are 32+ random characters; 32 bytes give 43. */
export function generateState(): string {
  return randomToken(32);
}

export function generateNonce(): string {
  return randomToken(32);
}
