/**
 * A JWE with RSA1_5 key transport (RSAES-PKCS1-v1_5, RFC 7518 §4.2) and A128CBC-HS256 content
 * encryption (RFC 7518 §5.2.3), for the `wrong_jwe_algorithm` fault only: RFC 8725 §3.2 and FAPI
 * 2.0 refuse RSA1_5 (it invites padding-oracle attacks), so a relying party must not decrypt it.
 * jose no longer makes such tokens, so this one is built by hand with node:crypto, following
 * RFC 7516 §5.1 (compact serialization) and RFC 7518 §5.2.2.1 (AES_CBC_HMAC_SHA2).
 * @see answer-faults.ts `wrong_jwe_algorithm`
 */
import { constants, createCipheriv, createHmac, createPublicKey, publicEncrypt, randomBytes, type JsonWebKey } from 'node:crypto';
import type { ClientEncryptionKey } from '../clients';

/** The header of such a token: the nested-JWT header of every ID token (RFC 7519 §5.2), with the refused algorithm. */
export const RSA1_5_JWE_HEADER = { alg: 'RSA1_5', enc: 'A128CBC-HS256' } as const;

/**
 * Encrypts `plaintext` to the client's RSA key with RSA1_5 / A128CBC-HS256, header
 * `{alg, enc, kid, cty: "JWT"}`; returns the compact JWE.
 */
export function encryptWithRsa1_5(plaintext: Uint8Array, key: ClientEncryptionKey): string {
  const header = { ...RSA1_5_JWE_HEADER, kid: key.kid, cty: 'JWT' };
  const encodedHeader = Buffer.from(JSON.stringify(header)).toString('base64url');

  // RFC 7518 §5.2.3: a 32-byte key, MAC_KEY its first 16 bytes, ENC_KEY its last 16.
  const contentKey = randomBytes(32);
  const macKey = contentKey.subarray(0, 16);
  const encKey = contentKey.subarray(16);
  // RFC 7518 §4.2: the content key, encrypted with RSAES-PKCS1-v1_5.
  const encryptedKey = publicEncrypt({ key: createPublicKey({ key: key as JsonWebKey, format: 'jwk' }), padding: constants.RSA_PKCS1_PADDING }, contentKey);

  // RFC 7518 §5.2.2.1: AES-128-CBC with PKCS #7 padding, then HMAC-SHA-256 over
  // AAD || IV || ciphertext || AL (AL: the AAD's length in bits, 64-bit big-endian), first 16 bytes.
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-cbc', encKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  const aad = Buffer.from(encodedHeader, 'ascii');
  const al = Buffer.alloc(8);
  al.writeBigUInt64BE(BigInt(aad.length * 8));
  const tag = createHmac('sha256', macKey)
    .update(Buffer.concat([aad, iv, ciphertext, al]))
    .digest()
    .subarray(0, 16);

  return [encodedHeader, ...[encryptedKey, iv, ciphertext, tag].map((part) => part.toString('base64url'))].join('.');
}
