import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { clientPublicJwks, ENCRYPTION_ALGORITHM, generateClientKeys, importPrivateKey, signWithClientKey, toPublicJwk } from './client-keys.ts';

describe('generateClientKeys', () => {
  it.each(['ES256', 'PS256', 'EdDSA'] as const)('makes a %s signing key and an RSA-OAEP-256 encryption key, kid = RFC 7638 thumbprint', async (alg) => {
    const { signingKey, encryptionKey } = await generateClientKeys(alg);
    expect(signingKey).toMatchObject({ alg, use: 'sig' });
    expect(signingKey.d).toBeTypeOf('string');
    expect(signingKey.kid).toBe(await calculateJwkThumbprint(signingKey));
    expect(encryptionKey).toMatchObject({ kty: 'RSA', alg: ENCRYPTION_ALGORITHM, use: 'enc' });
    expect(encryptionKey.kid).toBe(await calculateJwkThumbprint(encryptionKey));
    // 2048-bit modulus: 256 bytes, 342 base64url characters.
    expect(encryptionKey.n).toHaveLength(342);
  });

  it('defaults to ES256 on P-256, and makes new keys each time', async () => {
    const [one, two] = [await generateClientKeys(), await generateClientKeys()];
    expect(one.signingKey).toMatchObject({ alg: 'ES256', kty: 'EC', crv: 'P-256' });
    expect(one.signingKey.kid).not.toBe(two.signingKey.kid);
  });
});

describe('toPublicJwk and clientPublicJwks (5.3)', () => {
  it('removes every private member, and keeps kid, alg and use', async () => {
    const { signingKey, encryptionKey } = await generateClientKeys('PS256');
    for (const key of [signingKey, encryptionKey]) {
      const publicKey = toPublicJwk({ ...key, key_ops: ['sign'], ext: true });
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'key_ops', 'ext']) expect(publicKey).not.toHaveProperty(member);
      expect(publicKey).toMatchObject({ kid: key.kid, alg: key.alg, use: key.use, n: key.n });
    }
    expect(signingKey.d).toBeTypeOf('string');
  });

  it('registers the signing key and the encryption key, public halves only', async () => {
    const keys = await generateClientKeys('EdDSA');
    const jwks = clientPublicJwks(keys);
    expect(jwks.keys.map((key) => key.kid)).toEqual([keys.signingKey.kid, keys.encryptionKey.kid]);
    expect(JSON.stringify(jwks)).not.toMatch(/"d":|"p":|"q":/);
  });
});

describe('importPrivateKey', () => {
  it('imports a key once per JWK object', async () => {
    const { signingKey } = await generateClientKeys();
    expect(await importPrivateKey(signingKey, 'ES256')).toBe(await importPrivateKey(signingKey, 'ES256'));
  });

  it('imports one JWK object for each algorithm it is asked for', async () => {
    const { encryptionKey } = await generateClientKeys();
    const forSigning = await importPrivateKey(encryptionKey, 'PS256');
    const forDecryption = await importPrivateKey(encryptionKey, 'RSA-OAEP-256');
    expect(forSigning.algorithm.name).toBe('RSA-PSS');
    expect(forDecryption.algorithm.name).toBe('RSA-OAEP');
  });

  it('refuses a broken key with invalid_client_key, and tries again next time', async () => {
    const { signingKey } = await generateClientKeys();
    const broken = { ...signingKey, d: 'not-base64url!' };
    await expect(importPrivateKey(broken, 'ES256')).rejects.toMatchObject({ code: 'invalid_client_key' });
    await expect(importPrivateKey(broken, 'ES256')).rejects.toMatchObject({ code: 'invalid_client_key' });
  });
});

describe('signWithClientKey (2.1, 2.2)', () => {
  it('signs exactly the payload, header exactly alg, kid and typ JWT', async () => {
    const { signingKey } = await generateClientKeys('EdDSA');
    const payload = { iss: 'client-1', aud: 'https://idv.example', exp: 2_000_000_000 };
    const jwt = await signWithClientKey(payload, signingKey);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'EdDSA', kid: signingKey.kid, typ: 'JWT' });
    const verified = await jwtVerify(jwt, await importJWK(toPublicJwk(signingKey), 'EdDSA'), { currentDate: new Date(1_900_000_000_000) });
    expect(verified.payload).toEqual(payload);
  });

  it.each(['RS256', 'HS256', 'none'])('refuses a key whose alg is %s', async (alg) => {
    const { signingKey } = await generateClientKeys();
    await expect(signWithClientKey({}, { ...signingKey, alg: alg as 'ES256' })).rejects.toMatchObject({ code: 'invalid_client_key' });
  });
});
