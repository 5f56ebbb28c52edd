/**
 * A client key pair made for one test run: the private signing (ES256) and encryption
 * (RSA-OAEP-256) JWKs an app takes as IDV_SIGNING_KEY and IDV_ENCRYPTION_KEY, and the public JWKS
 * an emulator registers for it (EMULATOR_CLIENTS).
 */
import { generateKeyPairSync } from 'node:crypto';

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi'];

export function clientKeys(name: string) {
  const signing = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }), kid: `${name}-sig`, alg: 'ES256', use: 'sig' };
  const encryption = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: `${name}-enc`,
    alg: 'RSA-OAEP-256',
    use: 'enc',
  };
  const publicOf = (jwk: Record<string, unknown>) => Object.fromEntries(Object.entries(jwk).filter(([member]) => !PRIVATE_MEMBERS.includes(member)));
  return { signing, encryption, jwks: { keys: [publicOf(signing), publicOf(encryption)] } };
}
