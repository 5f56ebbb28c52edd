import { compactDecrypt, createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, authorize, createTestClient, redeemCode, type TestClient } from '@/test/support/emulator';
import { createEmulator, type Emulator } from '..';
import { loadX509 } from './x509';

type PublishedKey = JWK & { kid: string; x5c: string[] };

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

/** An emulator whose clock the test moves. */
function emulatorWithClock(start = Date.UTC(2026, 0, 15, 12)) {
  const clock = { now: start };
  const emulator = createEmulator({ baseUrl: TEST_BASE_URL, clients: [client.registered], now: () => clock.now });
  return { emulator, clock };
}

async function publishedKeys(emulator: Emulator): Promise<PublishedKey[]> {
  const response = await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`));
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: PublishedKey[] }).keys;
}

/** Runs a flow and returns the inner JWS of the ID token. */
async function issueIdToken(emulator: Emulator, now?: number): Promise<string> {
  const response = await redeemCode(emulator, client, await authorize(emulator, client, { now }), { now });
  expect(response.status).toBe(200);
  const { id_token: idToken } = (await response.json()) as { id_token: string };
  const { plaintext } = await compactDecrypt(idToken, client.encryptionKey.privateKey);
  return new TextDecoder().decode(plaintext);
}

/** Checks the x5c chain of a JWKS entry: the signing certificate is issued by the CA, kid = serial, key = JWK. */
async function checkChain(key: PublishedKey) {
  const x509 = await loadX509();
  const [signing, ca] = key.x5c.map((der) => new x509.X509Certificate(der)) as [
    InstanceType<typeof x509.X509Certificate>,
    InstanceType<typeof x509.X509Certificate>,
  ];
  expect(key.kid).toBe(signing.serialNumber.toLowerCase());
  expect(await signing.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
  expect(await ca.verify({ publicKey: ca.publicKey, signatureOnly: true })).toBe(true);
  // The certificate holds the very key the JWK publishes.
  const certificateKey = await signing.publicKey.export({ name: 'ECDSA', namedCurve: 'P-256' }, ['verify']);
  const certificateJwk = await crypto.subtle.exportKey('jwk', certificateKey);
  expect([certificateJwk.x, certificateJwk.y]).toEqual([key.x, key.y]);
  return { ca };
}

describe('signing key rotation (spec 2.7, 4.4)', () => {
  it('publishes the new and the old key after a rotation, both with valid x5c chains from the same CA', async () => {
    const { emulator } = emulatorWithClock();
    const [before] = await publishedKeys(emulator);

    const status = await emulator.control.rotateSigningKeys();

    const keys = await publishedKeys(emulator);
    expect(keys).toHaveLength(2);
    const [current, previous] = keys as [PublishedKey, PublishedKey];
    expect(previous.kid).toBe(before!.kid);
    expect(current.kid).not.toBe(before!.kid);
    expect(status.map((key) => [key.kid, key.current])).toEqual([
      [current.kid, true],
      [previous.kid, false],
    ]);
    const chains = await Promise.all(keys.map(checkChain));
    // One CA per instance: both chains end in the very same certificate.
    expect(chains[0]!.ca.toString('base64')).toBe(chains[1]!.ca.toString('base64'));
    expect(current.x5c[1]).toBe(previous.x5c[1]);
  });

  it('signs new ID tokens with the new key, and tokens signed before still verify against the JWKS', async () => {
    const { emulator } = emulatorWithClock(Date.now());
    const before = await issueIdToken(emulator);
    const newKid = (await emulator.control.rotateSigningKeys())[0]!.kid;
    const after = await issueIdToken(emulator);

    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    expect(decodeProtectedHeader(before).kid).not.toBe(newKid);
    const jwks = createLocalJWKSet({ keys: await publishedKeys(emulator) });
    for (const token of [before, after]) {
      await expect(jwtVerify(token, jwks, { issuer: TEST_BASE_URL, audience: client.clientId })).resolves.toBeTruthy();
    }
  });

  it('drops the old key once the ID token lifetime (3600 s) has passed since the rotation', async () => {
    const { emulator, clock } = emulatorWithClock();
    const oldKid = (await publishedKeys(emulator))[0]!.kid;
    const rotatedAt = clock.now;
    const [current, retiring] = await emulator.control.rotateSigningKeys();
    expect(retiring).toMatchObject({ kid: oldKid, current: false, retiresAt: rotatedAt + 3_600_000 });
    expect(current).toMatchObject({ current: true });
    expect(current!.retiresAt).toBeUndefined();

    clock.now = rotatedAt + 3_599_999;
    expect((await publishedKeys(emulator)).map((key) => key.kid)).toEqual([current!.kid, oldKid]);

    clock.now = rotatedAt + 3_600_000;
    expect((await publishedKeys(emulator)).map((key) => key.kid)).toEqual([current!.kid]);
    expect((await emulator.control.signingKeys()).map((key) => key.kid)).toEqual([current!.kid]);
  });

  it('publishes at most three keys: rotating faster than tokens expire drops the oldest retired key early', async () => {
    const { emulator } = emulatorWithClock();
    const first = (await publishedKeys(emulator))[0]!.kid;
    await emulator.control.rotateSigningKeys();
    await emulator.control.rotateSigningKeys();
    const afterTwo = (await publishedKeys(emulator)).map((key) => key.kid);
    expect(afterTwo).toHaveLength(3);
    expect(afterTwo[2]).toBe(first);

    await emulator.control.rotateSigningKeys();
    const afterThree = (await publishedKeys(emulator)).map((key) => key.kid);
    expect(afterThree).toHaveLength(3);
    expect(afterThree).not.toContain(first);
    expect(afterThree.slice(1)).toEqual(afterTwo.slice(0, 2));
  });

  it('keeps kids unique across rotations, and each instance has its own CA', async () => {
    const { emulator: one } = emulatorWithClock();
    const { emulator: two } = emulatorWithClock();
    await one.control.rotateSigningKeys();
    const kids = (await publishedKeys(one)).map((key) => key.kid);
    expect(new Set(kids).size).toBe(kids.length);
    const [a] = await publishedKeys(one);
    const [b] = await publishedKeys(two);
    expect(a!.x5c[1]).not.toBe(b!.x5c[1]);
  });
});
