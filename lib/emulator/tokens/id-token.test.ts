import { compactDecrypt, decodeJwt, decodeProtectedHeader, importJWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorize, createTestClient, createTestEmulator, redeemCode, type TestClient } from '@/test/support/emulator';
import { ID_TOKEN_CONTENT_ENCRYPTIONS, ID_TOKEN_ENCRYPTION_ALGORITHMS, type Emulator, type IdTokenEncryption } from '..';
import type { ClaimsRequest } from '../checks/claims-request';
import { findPersona } from '../personas/personas';
import { verifiedClaimsFor } from './id-token';

let client: TestClient;
let registeredVariant: TestClient;

beforeAll(async () => {
  client = await createTestClient();
  registeredVariant = await createTestClient({ clientId: 'cbc-client', idTokenEncryption: { alg: 'RSA-OAEP', enc: 'A256CBC-HS512' } });
});

/** One flow for `as`; the ID token as the token endpoint returned it. */
async function idTokenFor(emulator: Emulator, as: TestClient): Promise<string> {
  const authorized = await authorize(emulator, as);
  const response = await redeemCode(emulator, as, authorized);
  expect(response.status).toBe(200);
  return ((await response.json()) as { id_token: string }).id_token;
}

/** Decrypts with the client's private key, allowing only `alg` and `enc` (as a relying party pinned to them would). */
async function decryptAs(idToken: string, as: TestClient, { alg, enc }: IdTokenEncryption) {
  const key = await importJWK({ ...as.encryptionKey.privateJwk, alg }, alg);
  const { plaintext } = await compactDecrypt(idToken, key, { keyManagementAlgorithms: [alg], contentEncryptionAlgorithms: [enc] });
  return decodeJwt(new TextDecoder().decode(plaintext));
}

describe('ID token encryption variants, per client (spec 2.5; Dynamic Client Registration §2)', () => {
  const variants = ID_TOKEN_ENCRYPTION_ALGORITHMS.flatMap((alg) => ID_TOKEN_CONTENT_ENCRYPTIONS.map((enc) => ({ alg, enc })));

  it('offers RSA-OAEP-256 and RSA-OAEP with the six AEAD content encryptions', () => {
    expect(variants).toHaveLength(12);
  });

  it.each(variants)('encrypts to the client’s key with $alg / $enc once QA sets it', async (variant) => {
    const emulator = createTestEmulator({ clients: [client] });
    await emulator.control.setIdTokenEncryption(client.clientId, variant);
    const idToken = await idTokenFor(emulator, client);
    expect(decodeProtectedHeader(idToken)).toEqual({ ...variant, kid: client.encryptionKey.kid, cty: 'JWT' });
    expect((await decryptAs(idToken, client, variant)).aud).toBe(client.clientId);
  });

  it('uses RSA-OAEP-256 / A256GCM, the example of 2.5, for a client that registered no variant', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    expect(decodeProtectedHeader(await idTokenFor(emulator, client))).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
  });

  it('uses the variant a client registered, and each client its own', async () => {
    const emulator = createTestEmulator({ clients: [client, registeredVariant] });
    const idToken = await idTokenFor(emulator, registeredVariant);
    expect(decodeProtectedHeader(idToken)).toMatchObject({ alg: 'RSA-OAEP', enc: 'A256CBC-HS512' });
    expect((await decryptAs(idToken, registeredVariant, { alg: 'RSA-OAEP', enc: 'A256CBC-HS512' })).aud).toBe(registeredVariant.clientId);
    expect(decodeProtectedHeader(await idTokenFor(emulator, client))).toMatchObject({ alg: 'RSA-OAEP-256', enc: 'A256GCM' });
  });
});

describe('verifiedClaimsFor: a document element none of whose requested details the persona has (spec 2.6, part 1 "Data minimisation")', () => {
  const jonas = findPersona('jonas-weber')!;
  /** jonas-weber's German passport has neither a personal number nor an issuer check. */
  const request: ClaimsRequest = {
    trustFramework: 'standard',
    claims: [{ name: 'family_name', essential: true }],
    evidence: [{ type: 'document', details: ['personal_number', 'issuer_check'] }],
  };

  it('is left out at the strict level, and `evidence` with it when nothing else is in it', async () => {
    expect(await verifiedClaimsFor(jonas, request, { strict: true })).toEqual({
      verification: { trust_framework: 'standard' },
      claims: { family_name: 'Weber' },
    });
  });

  it('stays, as `document_details: {}`, at the default level', async () => {
    expect(await verifiedClaimsFor(jonas, request)).toEqual({
      verification: { trust_framework: 'standard', evidence: [{ type: 'document', document_details: {} }] },
      claims: { family_name: 'Weber' },
    });
  });

  it('is kept at the strict level when one requested detail exists', async () => {
    const withNumber: ClaimsRequest = { ...request, evidence: [{ type: 'document', details: ['personal_number', 'document_number'] }] };
    expect((await verifiedClaimsFor(jonas, withNumber, { strict: true })).verification.evidence).toEqual([
      { type: 'document', document_details: { document_number: jonas.document.document_number } },
    ]);
  });
});
