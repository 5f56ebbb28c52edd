import { compactDecrypt, createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_BASE_URL, authorize, createTestClient, createTestEmulator, redeemCode, type TestClient } from '@/test/support/emulator';
import type { Emulator } from '..';
import { loadX509 } from './x509';

type PublishedKey = JWK & { kid: string; x5c: string[] };

let client: TestClient;

beforeAll(async () => {
  client = await createTestClient();
});

/** An emulator whose clock the test moves. */
function emulatorWithClock(start = Date.UTC(2026, 0, 15, 12)) {
  const clock = { now: start };
  const emulator = createTestEmulator({ clients: [client], now: () => clock.now });
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

/** The kids of the JWKS, sorted: its order means nothing (spec 4.4), and it varies. */
async function publishedKids(emulator: Emulator): Promise<string[]> {
  return (await publishedKeys(emulator)).map((key) => key.kid).sort();
}

/** The ring as the control API reports it: current first, then retiring keys, then the next key. */
async function ring(emulator: Emulator) {
  const keys = await emulator.control.signingKeys();
  return {
    current: keys.find((key) => key.current)!.kid,
    retiring: keys.filter((key) => !key.current && !key.next).map((key) => key.kid),
    next: keys.find((key) => key.next)?.kid,
  };
}

describe('signing key rotation (spec 2.7, 4.4)', () => {
  it('publishes the next key ahead of its use, beside the current one, both with valid x5c chains from the same CA', async () => {
    const { emulator } = emulatorWithClock();
    const { current, retiring, next } = await ring(emulator);
    expect(retiring).toEqual([]);
    expect(next).toBeDefined();
    expect(next).not.toBe(current);
    expect(await publishedKids(emulator)).toEqual([current, next].sort());
    const chains = await Promise.all((await publishedKeys(emulator)).map(checkChain));
    expect(chains[0]!.ca.toString('base64')).toBe(chains[1]!.ca.toString('base64'));
  });

  it('rotation makes the published next key current, retires the old one and publishes a new next key', async () => {
    const { emulator } = emulatorWithClock();
    const before = await ring(emulator);
    await emulator.control.rotateSigningKeys();
    const after = await ring(emulator);
    expect(after.current).toBe(before.next);
    expect(after.retiring).toEqual([before.current]);
    expect([before.current, before.next]).not.toContain(after.next);
    expect(await publishedKids(emulator)).toEqual([after.current, before.current, after.next].sort());
    const chains = await Promise.all((await publishedKeys(emulator)).map(checkChain));
    expect(new Set(chains.map((chain) => chain.ca.toString('base64'))).size).toBe(1);
  });

  it('lists the keys in varying order, the current one anywhere', async () => {
    const { emulator } = emulatorWithClock();
    await emulator.control.rotateSigningKeys();
    const { current } = await ring(emulator);
    const positions = new Set<number>();
    for (let attempt = 0; attempt < 60 && positions.size < 3; attempt += 1) {
      positions.add((await publishedKeys(emulator)).findIndex((key) => key.kid === current));
    }
    expect([...positions].sort()).toEqual([0, 1, 2]);
  });

  it('signs new ID tokens with the new key, and tokens signed before still verify against the JWKS', async () => {
    const { emulator } = emulatorWithClock(Date.now());
    const before = await issueIdToken(emulator);
    await emulator.control.rotateSigningKeys();
    const newKid = (await ring(emulator)).current;
    const after = await issueIdToken(emulator);

    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    expect(decodeProtectedHeader(before).kid).not.toBe(newKid);
    const jwks = createLocalJWKSet({ keys: await publishedKeys(emulator) });
    for (const token of [before, after]) {
      await expect(jwtVerify(token, jwks, { issuer: TEST_BASE_URL, audience: client.clientId })).resolves.toBeTruthy();
    }
  });

  it('a relying party that fetched the JWKS before a rotation already holds the key that signs after it', async () => {
    const { emulator } = emulatorWithClock(Date.now());
    const jwksBefore = createLocalJWKSet({ keys: await publishedKeys(emulator) });
    await emulator.control.rotateSigningKeys();
    const after = await issueIdToken(emulator);
    await expect(jwtVerify(after, jwksBefore, { issuer: TEST_BASE_URL, audience: client.clientId })).resolves.toBeTruthy();
  });

  it('drops the old key once the ID token lifetime (3600 s) has passed since the rotation', async () => {
    const { emulator, clock } = emulatorWithClock();
    const { current: oldKid } = await ring(emulator);
    const rotatedAt = clock.now;
    const status = await emulator.control.rotateSigningKeys();
    const retiring = status.find((key) => key.kid === oldKid);
    expect(retiring).toMatchObject({ current: false, retiresAt: rotatedAt + 3_600_000 });
    const { current, next } = await ring(emulator);
    expect(status.find((key) => key.current)!.retiresAt).toBeUndefined();

    clock.now = rotatedAt + 3_599_999;
    expect(await publishedKids(emulator)).toEqual([current, oldKid, next].sort());

    clock.now = rotatedAt + 3_600_000;
    expect(await publishedKids(emulator)).toEqual([current, next].sort());
    expect((await emulator.control.signingKeys()).map((key) => key.kid)).toEqual([current, next]);
  });

  it('publishes at most three current and retired keys (and the next one): rotating faster than tokens expire drops the oldest retired key early', async () => {
    const { emulator } = emulatorWithClock();
    const { current: first } = await ring(emulator);
    await emulator.control.rotateSigningKeys();
    await emulator.control.rotateSigningKeys();
    const afterTwo = await ring(emulator);
    expect(afterTwo.retiring).toHaveLength(2);
    expect(afterTwo.retiring[1]).toBe(first);
    expect(await publishedKids(emulator)).toHaveLength(4);

    await emulator.control.rotateSigningKeys();
    const afterThree = await ring(emulator);
    expect(afterThree.retiring).toEqual([afterTwo.current, afterTwo.retiring[0]]);
    expect(await publishedKids(emulator)).not.toContain(first);
    expect(await publishedKids(emulator)).toHaveLength(4);
  });

  it('keeps kids unique across rotations, and each instance has its own CA', async () => {
    const { emulator: one } = emulatorWithClock();
    const { emulator: two } = emulatorWithClock();
    await one.control.rotateSigningKeys();
    const kids = await publishedKids(one);
    expect(new Set(kids).size).toBe(kids.length);
    const [a] = await publishedKeys(one);
    const [b] = await publishedKeys(two);
    expect(a!.x5c[1]).not.toBe(b!.x5c[1]);
  });
});
