import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestClient, createTestEmulator, type TestClient } from '@/test/support/emulator';
import { loadX509 } from '../tokens/x509';

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

describe('GET /jwks (spec 2.7, 4.4)', () => {
  it('publishes the ES256 signing key with kid = certificate serial and an x5c chain that verifies', async () => {
    const emulator = createTestEmulator({ clients: [client] });
    const response = await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');

    const { keys } = (await response.json()) as { keys: Array<JWK & { x5c: string[] }> };
    // The current key and the next one, published ahead; the current one is checked here.
    expect(keys).toHaveLength(2);
    const current = (await emulator.control.signingKeys()).find((status) => status.current)!.kid;
    const key = keys.find((candidate) => candidate.kid === current)!;
    expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'x5c', 'y']);
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' });
    expect(key.x5c).toHaveLength(2);
    for (const certificate of key.x5c) expect(certificate).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);

    const x509 = await loadX509();
    const [signing, ca] = key.x5c.map((der) => new x509.X509Certificate(der)) as [
      InstanceType<typeof x509.X509Certificate>,
      InstanceType<typeof x509.X509Certificate>,
    ];
    expect(key.kid).toBe(signing.serialNumber.toLowerCase());
    expect(key.kid).toMatch(/^[0-7][0-9a-f]{31}$/);
    expect(signing.subject).toBe('CN=IDV Emulator ID Token Signing');
    expect(signing.issuer).toBe('CN=IDV Emulator Root CA');
    expect(ca.subject).toBe('CN=IDV Emulator Root CA');

    // The chain: the CA is self-signed, and it signed the signing certificate.
    expect(await ca.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
    expect(await signing.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
    expect(await signing.verify({ publicKey: signing.publicKey, signatureOnly: true })).toBe(false);
    const basicConstraints = ca.getExtension(x509.BasicConstraintsExtension);
    expect(basicConstraints?.ca).toBe(true);
    const keyUsage = signing.getExtension(x509.KeyUsagesExtension);
    expect(keyUsage?.usages).toBe(x509.KeyUsageFlags.digitalSignature);

    // The certificate's public key is the JWK.
    const certificateJwk = await exportJWK(await signing.publicKey.export({ name: 'ECDSA', namedCurve: 'P-256' }, ['verify']));
    expect(await calculateJwkThumbprint(certificateJwk)).toBe(await calculateJwkThumbprint(key));
  });

  it('keeps the same keys for the instance lifetime, and a new instance has its own', async () => {
    const first = createTestEmulator({ clients: [client] });
    const second = createTestEmulator({ clients: [client] });
    const kid = async (emulator: typeof first) =>
      ((await (await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`))).json()) as { keys: JWK[] }).keys
        .map((key) => key.kid)
        .sort()
        .join();
    const [a, b] = await Promise.all([kid(first), kid(first)]);
    expect(a).toBe(b);
    expect(await kid(second)).not.toBe(a);
  });
});
