/**
 * The client's own keys (1. "Prerequisites for a client"): a signing key (ES256, PS256 or EdDSA)
 * for client assertions and request objects, and an RSA key for ID token decryption.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { IdvError } from './errors';
import { CLIENT_SIGNING_ALGORITHMS, type ClientConfig, type ClientSigningAlgorithm } from './types';

/** 4.5 / 5.6: the only key management algorithm we decrypt with. */
export const ENCRYPTION_ALGORITHM = 'RSA-OAEP-256';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/** The public half of a JWK: every private member removed. */
export function toPublicJwk(jwk: JWK): JWK {
  const copy: Record<string, unknown> = { ...jwk };
  for (const member of PRIVATE_MEMBERS) delete copy[member];
  delete copy.key_ops;
  delete copy.ext;
  return copy as JWK;
}

/** 5.3: the JWKS the client registers with the service: its signing key and its encryption key. */
export function clientPublicJwks(client: Pick<ClientConfig, 'signingKey' | 'encryptionKey'>): { keys: JWK[] } {
  return { keys: [toPublicJwk(client.signingKey), toPublicJwk(client.encryptionKey)] };
}

export interface GeneratedClientKeys {
  signingKey: ClientConfig['signingKey'];
  encryptionKey: ClientConfig['encryptionKey'];
}

/** A fresh key pair of each kind, `kid` = the RFC 7638 thumbprint of the public key. */
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

const importedKeys = new WeakMap<JWK, Promise<CryptoKey>>();

/** Imports a private JWK once per object. */
export function importPrivateKey(jwk: JWK, alg: string): Promise<CryptoKey> {
  let imported = importedKeys.get(jwk);
  if (!imported) {
    imported = (importJWK(jwk, alg) as Promise<CryptoKey>).catch((error: unknown) => {
      importedKeys.delete(jwk);
      throw new IdvError('invalid_client_key', `The ${alg} key "${jwk.kid}" cannot be used: ${(error as Error).message}`);
    });
    importedKeys.set(jwk, imported);
  }
  return imported;
}

/**
 * Signs a client JWT (2.1, 2.2): header exactly `alg`, `kid`, `typ: JWT`, payload exactly as given.
 */
export async function signWithClientKey(
  payload: Record<string, unknown>,
  signingKey: ClientConfig['signingKey'],
): Promise<string> {
  if (!(CLIENT_SIGNING_ALGORITHMS as readonly string[]).includes(signingKey.alg)) {
    throw new IdvError('invalid_client_key', `The signing key's alg must be one of ${CLIENT_SIGNING_ALGORITHMS.join(', ')}`, {
      claim: 'alg',
      actual: signingKey.alg,
    });
  }
  const key = await importPrivateKey(signingKey, signingKey.alg);
  return new SignJWT(payload).setProtectedHeader({ alg: signingKey.alg, kid: signingKey.kid, typ: 'JWT' }).sign(key);
}
