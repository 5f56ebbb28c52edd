/**
 * The client's own keys (1. "Prerequisites for a client"): a signing key (ES256, PS256 or EdDSA)
 * for client assertions and request objects, and an RSA key for ID token decryption.
 *
 * Depends on: jose.
 * Copy with: errors.ts, types.ts.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { IdvError } from './errors.ts';
import { CLIENT_SIGNING_ALGORITHMS, type ClientConfig, type ClientSigningAlgorithm } from './types.ts';

/**
 * The algorithm of the encryption key we generate and register: the ID token is encrypted to our
 * RSA key (part 5 item 6), with RSA-OAEP-256 in the spec's example (2.5). The same key decrypts
 * RSA-OAEP too, when the service advertises that (id-token-encryption.ts).
 * @see Interface specification 2.5 "Token response"
 * @see https://www.rfc-editor.org/rfc/rfc7518#section-4.3
 */
export const ENCRYPTION_ALGORITHM = 'RSA-OAEP-256';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/**
 * The public half of a JWK: every private member removed (and `key_ops` and `ext`, which
 * describe the private key's use).
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-4
 */
export function toPublicJwk(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  delete copy.key_ops;
  delete copy.ext;
  return copy as JWK;
}

/**
 * The JWKS the client registers with the service (part 5 item 3): the public halves of its
 * signing key and its encryption key.
 * @see Interface specification 5 "Authentication"
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-5
 */
export function clientPublicJwks(client: Pick<ClientConfig, 'signingKey' | 'encryptionKey'>): { keys: JWK[] } {
  return { keys: [toPublicJwk(client.signingKey), toPublicJwk(client.encryptionKey)] };
}

/**
 * A new signing key and encryption key, private JWKs with `kid`, `alg` and `use` set.
 * @see Interface specification 1 "What the service does"
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-4
 */
export interface GeneratedClientKeys {
  signingKey: ClientConfig['signingKey'];
  encryptionKey: ClientConfig['encryptionKey'];
}

/**
 * A fresh key pair of each kind, `kid` = the RFC 7638 thumbprint of the public key. The RSA key
 * has 2048 bits. Register the public halves (`clientPublicJwks`) before use.
 * @param alg the signing algorithm; EdDSA keys use Ed25519
 * @see Interface specification 1 "What the service does"
 * @see https://www.rfc-editor.org/rfc/rfc7638#section-3
 */
export async function generateClientKeys(alg: ClientSigningAlgorithm = 'ES256'): Promise<GeneratedClientKeys> {
  const signing = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' ? { crv: 'Ed25519' } : {}) });
  const encryption = await generateKeyPair(ENCRYPTION_ALGORITHM, { extractable: true, modulusLength: 2048 });
  const signingJwk = await exportJWK(signing.privateKey);
  const encryptionJwk = await exportJWK(encryption.privateKey);
  return {
    signingKey: { ...signingJwk, kid: await calculateJwkThumbprint(signingJwk), alg, use: 'sig' },
    encryptionKey: {
      ...encryptionJwk,
      kid: await calculateJwkThumbprint(encryptionJwk),
      alg: ENCRYPTION_ALGORITHM,
      use: 'enc',
    },
  };
}

/** Imported keys by JWK object, then by algorithm (one JWK may be imported for two algorithms). */
const importedKeys = new WeakMap<JWK, Map<string, Promise<CryptoKey>>>();

/**
 * Imports a private JWK for `alg` once per object and algorithm (cached by the object, so keep one
 * object per key).
 * @throws IdvError with code `invalid_client_key` when jose cannot import it for `alg`
 * @see https://www.rfc-editor.org/rfc/rfc7517#section-4
 */
export function importPrivateKey(jwk: JWK, alg: string): Promise<CryptoKey> {
  let byAlgorithm = importedKeys.get(jwk);
  if (!byAlgorithm) {
    byAlgorithm = new Map();
    importedKeys.set(jwk, byAlgorithm);
  }
  let imported = byAlgorithm.get(alg);
  if (!imported) {
    const cache = byAlgorithm;
    imported = (importJWK(jwk, alg) as Promise<CryptoKey>).catch((error: unknown) => {
      cache.delete(alg);
      throw new IdvError('invalid_client_key', `The ${alg} key "${jwk.kid}" cannot be used: ${(error as Error).message}`);
    });
    byAlgorithm.set(alg, imported);
  }
  return imported;
}

/**
 * Signs a client JWT (2.1, 2.2): header exactly `alg`, `kid`, `typ: JWT`, payload exactly as given.
 * @throws IdvError with code `invalid_client_key` when the key's `alg` is not ES256, PS256 or
 *   EdDSA, or the key cannot be imported
 * @see Interface specification 2.1 "Client assertion JWT"
 * @see Interface specification 2.2 "Request object JWT"
 * @see https://www.rfc-editor.org/rfc/rfc7515#section-7.1
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-5.1
 */
export async function signWithClientKey(payload: Record<string, unknown>, signingKey: ClientConfig['signingKey']): Promise<string> {
  if (!(CLIENT_SIGNING_ALGORITHMS as readonly string[]).includes(signingKey.alg)) {
    throw new IdvError('invalid_client_key', `The signing key's alg must be one of ${CLIENT_SIGNING_ALGORITHMS.join(', ')}`, {
      claim: 'alg',
      actual: signingKey.alg,
    });
  }
  const key = await importPrivateKey(signingKey, signingKey.alg);
  return new SignJWT(payload).setProtectedHeader({ alg: signingKey.alg, kid: signingKey.kid, typ: 'JWT' }).sign(key);
}
