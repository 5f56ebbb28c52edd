/**
 * PKCE with S256 only (spec 2.2, 4.3; RFC 7636): the request object carries the challenge, the
 * token request the verifier.
 * @see spec 2.2 `code_challenge`, 4.3 `code_verifier`, part 8; RFC 7636 §4.1, §4.6
 */
import { base64url } from 'jose';

/** RFC 7636 §4.2: BASE64URL(SHA-256(...)) is always 43 characters without padding. */
const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] / [a-z] / [0-9] / "-" / "." / "_" / "~". */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Whether a `code_challenge` has the shape of an S256 challenge. @see spec 2.2 */
export function isCodeChallenge(value: string): boolean {
  return CODE_CHALLENGE.test(value);
}

/** Whether a `code_verifier` has the syntax RFC 7636 allows. @see spec 4.3, part 8 */
export function isCodeVerifier(value: string): boolean {
  return CODE_VERIFIER.test(value);
}

/** BASE64URL(SHA-256(ASCII(code_verifier))). @see RFC 7636 §4.2 */
export async function s256CodeChallenge(codeVerifier: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(codeVerifier))));
}

/**
 * Whether the verifier hashes to the challenge. Compared in constant time, although the
 * challenge is not secret, so that no comparison in the token endpoint leaks by timing.
 * @see spec 4.3; RFC 7636 §4.6
 */
export async function verifyCodeVerifier(codeVerifier: string, codeChallenge: string): Promise<boolean> {
  const expected = new TextEncoder().encode(codeChallenge);
  const actual = new TextEncoder().encode(await s256CodeChallenge(codeVerifier));
  if (expected.length !== actual.length) return false;
  let difference = 0;
  for (let index = 0; index < expected.length; index += 1) difference |= expected[index]! ^ actual[index]!;
  return difference === 0;
}
