import { compactDecrypt, decodeProtectedHeader } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, decryptRsa1_5Jwe, type TestClient } from '@/test/support/emulator';
import { encryptionKeyOf } from '../clients';
import { encryptWithRsa1_5 } from './rsa1_5-jwe';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

describe('encryptWithRsa1_5 (the wrong_jwe_algorithm fault; RFC 7518 §4.2, §5.2)', () => {
  it('makes a compact JWE with header {alg: RSA1_5, enc: A128CBC-HS256, kid, cty: JWT} that the client’s key opens', () => {
    const jwe = encryptWithRsa1_5(new TextEncoder().encode('the signed ID token'), encryptionKeyOf(client.registered));
    expect(jwe.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(jwe)).toEqual({ alg: 'RSA1_5', enc: 'A128CBC-HS256', kid: client.encryptionKey.kid, cty: 'JWT' });
    // PKCS #1 v1.5 padding of a 32-byte content key, and the AES-CBC / HMAC-SHA-256 tag over the header.
    expect(decryptRsa1_5Jwe(jwe, client.encryptionKey.privateJwk).plaintext).toBe('the signed ID token');
  });

  it('binds the header: a changed header fails the tag check', () => {
    const [, ...rest] = encryptWithRsa1_5(new TextEncoder().encode('x'), encryptionKeyOf(client.registered)).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RSA1_5', enc: 'A128CBC-HS256', kid: 'other', cty: 'JWT' })).toString('base64url');
    expect(() => decryptRsa1_5Jwe([header, ...rest].join('.'), client.encryptionKey.privateJwk)).toThrow(/tag does not match/);
  });

  it('is refused by a JOSE library that allows only the algorithms of the spec', async () => {
    const jwe = encryptWithRsa1_5(new TextEncoder().encode('x'), encryptionKeyOf(client.registered));
    await expect(compactDecrypt(jwe, client.encryptionKey.privateKey, { keyManagementAlgorithms: ['RSA-OAEP-256'] })).rejects.toMatchObject({
      code: 'ERR_JOSE_ALG_NOT_ALLOWED',
    });
  });
});
