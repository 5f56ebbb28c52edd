import 'reflect-metadata';
import { generateKeyPairSync } from 'node:crypto';
import { BasicConstraintsExtension, PublicKey, X509Certificate, X509CertificateGenerator } from '@peculiar/x509';
import type { JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { TEST_BASE_URL, createTestEmulator } from '@/test/support/emulator';
import { certificateKeyThumbprint, checkSigningCertificate, describeCertificate } from './signing-certificate';

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const YEAR_MS = 365 * 86_400_000;

async function selfSigned(name: string): Promise<string> {
  const keys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const certificate = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '0a1b2c',
    name: `CN=${name}`,
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2027-01-01T00:00:00Z'),
    signingAlgorithm: EC_P256,
    keys,
  });
  return Buffer.from(certificate.rawData).toString('base64');
}

type PublishedKey = JWK & { kid: string; x5c: [signing: string, ca: string] };

/**
 * The JWKS of a fresh embedded emulator (spec 2.7: x5c = [signing certificate, its CA]), after
 * `rotations` key rotations: its keys, current first, all issued by one CA of its own.
 */
async function emulatorJwks(rotations = 0): Promise<PublishedKey[]> {
  const emulator = createTestEmulator({ clients: [], rateLimits: false });
  for (let i = 0; i < rotations; i += 1) await emulator.control.rotateSigningKeys();
  const response = await emulator.handle(new Request(`${TEST_BASE_URL}/jwks`));
  expect(response.status).toBe(200);
  return ((await response.json()) as { keys: PublishedKey[] }).keys;
}

/** root CA → issuing certificate (a CA unless `notCa`) → leaf, as base64 DER. */
async function threeLevelChain(options: { notCa?: boolean } = {}) {
  const now = Date.now();
  const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + YEAR_MS) };
  const rootKeys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const root = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Test Root',
    ...validity,
    signingAlgorithm: EC_P256,
    keys: rootKeys,
    extensions: [new BasicConstraintsExtension(true, undefined, true)],
  });
  const middleKeys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const middle = await X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=Test Issuing',
    issuer: root.subject,
    ...validity,
    signingAlgorithm: EC_P256,
    publicKey: middleKeys.publicKey,
    signingKey: rootKeys.privateKey,
    extensions: [new BasicConstraintsExtension(!options.notCa, undefined, true)],
  });
  const leafKeys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const leaf = await X509CertificateGenerator.create({
    serialNumber: '03',
    subject: 'CN=Test Signing',
    issuer: middle.subject,
    ...validity,
    signingAlgorithm: EC_P256,
    publicKey: leafKeys.publicKey,
    signingKey: middleKeys.privateKey,
  });
  const der = (certificate: X509Certificate) => certificate.toString('base64');
  const jwk = { ...((await crypto.subtle.exportKey('jwk', leafKeys.publicKey)) as JWK), kid: '03', x5c: [der(leaf), der(middle)] };
  return { jwk, root: der(root) };
}

describe('describeCertificate', () => {
  it('reads the names, serial, validity and SHA-256 fingerprint of a base64 DER certificate', async () => {
    const der = await selfSigned('IDV Test Signing');
    const summary = await describeCertificate(der);
    expect(summary).toMatchObject({
      subject: 'CN=IDV Test Signing',
      issuer: 'CN=IDV Test Signing',
      serialNumber: '0a1b2c',
      notBefore: '2026-01-01T00:00:00.000Z',
      notAfter: '2027-01-01T00:00:00.000Z',
    });
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', Buffer.from(der, 'base64')));
    expect(summary!.sha256Fingerprint).toBe(Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join(':'));
  });

  it('parses a certificate once, and answers undefined for one that does not parse', async () => {
    const der = await selfSigned('Once');
    expect(describeCertificate(der)).toBe(describeCertificate(der));
    expect(await describeCertificate('bm90IGEgY2VydGlmaWNhdGU=')).toBeUndefined();
  });
});

describe('checkSigningCertificate: the key (spec 2.7, x5c[0] against the JWK that verified)', () => {
  it('says the key matches when x5c[0] holds the JWK’s public key', async () => {
    const [key] = await emulatorJwks();
    expect((await checkSigningCertificate(key!, [], new Date())).key).toBe('matches');
  });

  it('says the key differs when x5c[0] is another key’s certificate, even one of the same CA', async () => {
    const [current, previous] = await emulatorJwks(1);
    const swapped = { ...current!, x5c: previous!.x5c };
    expect((await checkSigningCertificate(swapped, [], new Date())).key).toBe('differs');
    // The chain of that certificate is fine: only the key comparison catches the swap.
    expect((await checkSigningCertificate(swapped, [previous!.x5c[1]], new Date())).chain.state).toBe('validated');
  });

  it('reads a certificate’s key once, and still compares it with each JWK that comes with it', async () => {
    const [current, previous] = await emulatorJwks(1);
    expect(certificateKeyThumbprint(current!.x5c[0])).toBe(certificateKeyThumbprint(current!.x5c[0]));
    // The same certificate, its key read before: the key it came with matches, another does not.
    expect((await checkSigningCertificate(current!, [], new Date())).key).toBe('matches');
    expect((await checkSigningCertificate({ ...previous!, x5c: current!.x5c }, [], new Date())).key).toBe('differs');
    expect((await checkSigningCertificate(current!, [], new Date())).key).toBe('matches');
    expect(await certificateKeyThumbprint('bm90IGEgY2VydGlmaWNhdGU=')).toBeUndefined();
  });

  it('says there is no certificate when x5c is empty, not an array, or holds anything but strings', async () => {
    const [key] = await emulatorJwks();
    for (const x5c of [[], 'MIIB', [42], [key!.x5c[0], 42], { 0: key!.x5c[0] }]) {
      expect((await checkSigningCertificate({ ...key!, x5c } as JWK, [key!.x5c[1]], new Date())).key, JSON.stringify(x5c).slice(0, 20)).toBe('no_certificate');
    }
  });

  it('says x5c[0] is unreadable when it parses but holds a key JWK cannot describe (RSASSA-PSS)', async () => {
    const [key] = await emulatorJwks();
    const spki = generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' });
    const issuer = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
    const certificate = await X509CertificateGenerator.create({
      serialNumber: '01',
      subject: 'CN=PSS',
      issuer: 'CN=Some CA',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
      signingAlgorithm: EC_P256,
      publicKey: new PublicKey(spki),
      signingKey: issuer.privateKey,
    });
    const der = Buffer.from(certificate.rawData).toString('base64');
    expect(await describeCertificate(der)).toMatchObject({ subject: 'CN=PSS' });
    expect((await checkSigningCertificate({ ...key!, x5c: [der] }, [], new Date())).key).toBe('unreadable');
  });

  it('says the key differs when the JWK lacks a member its thumbprint needs, never that it matches', async () => {
    const [key] = await emulatorJwks();
    const pointless: JWK = { ...key! };
    delete pointless.x;
    expect((await checkSigningCertificate(pointless, [], new Date())).key).toBe('differs');
  });

  it('says there is no certificate without x5c, and that x5c[0] is unreadable when it does not parse', async () => {
    const [key] = await emulatorJwks();
    const bare: JWK = { ...key! };
    delete bare.x5c;
    expect(await checkSigningCertificate(bare, [], new Date())).toEqual({ key: 'no_certificate', chain: { state: 'not_validated' } });
    expect((await checkSigningCertificate({ ...key!, x5c: ['bm90IGEgY2VydGlmaWNhdGU='] }, [], new Date())).key).toBe('unreadable');
  });
});

describe('checkSigningCertificate: the chain (x5c[0] → x5c[1..] → IDV_TRUST_ANCHOR)', () => {
  it('is not validated without a trust anchor', async () => {
    const [key] = await emulatorJwks();
    expect((await checkSigningCertificate(key!, [], new Date())).chain).toEqual({ state: 'not_validated' });
  });

  it('is validated to the emulator’s CA when that CA is the trust anchor, with or without the CA in x5c', async () => {
    const [key] = await emulatorJwks();
    const ca = key!.x5c[1];
    expect((await checkSigningCertificate(key!, [ca], new Date())).chain).toEqual({ state: 'validated', anchor: 'CN=IDV Emulator Root CA' });
    const leafOnly = { ...key!, x5c: [key!.x5c[0]] };
    expect((await checkSigningCertificate(leafOnly, [ca], new Date())).chain).toEqual({ state: 'validated', anchor: 'CN=IDV Emulator Root CA' });
    // Among several anchors (a bundle), and with x5c[0] itself pinned as the anchor.
    const [other] = await emulatorJwks();
    expect((await checkSigningCertificate(key!, [other!.x5c[1], ca], new Date())).chain.state).toBe('validated');
    expect((await checkSigningCertificate(key!, [key!.x5c[0]], new Date())).chain).toEqual({ state: 'validated', anchor: 'CN=IDV Emulator ID Token Signing' });
  });

  it('is NOT valid with another CA as the trust anchor, even one of the same name', async () => {
    const [key] = await emulatorJwks();
    const [otherEmulator] = await emulatorJwks();
    const sameNameOtherKey = otherEmulator!.x5c[1];
    expect((await checkSigningCertificate(key!, [sameNameOtherKey], new Date())).chain).toEqual({
      state: 'not_valid',
      reason: 'it ends at CN=IDV Emulator Root CA, which is not an IDV_TRUST_ANCHOR certificate',
    });
    const leafOnly = { ...key!, x5c: [key!.x5c[0]] };
    expect((await checkSigningCertificate(leafOnly, [sameNameOtherKey], new Date())).chain).toEqual({
      state: 'not_valid',
      reason:
        'the signature of CN=IDV Emulator ID Token Signing does not verify with the key of any certificate named CN=IDV Emulator Root CA in x5c or IDV_TRUST_ANCHOR',
    });
    const unrelated = await selfSigned('Unrelated CA');
    expect((await checkSigningCertificate(leafOnly, [unrelated], new Date())).chain).toEqual({
      state: 'not_valid',
      reason: 'CN=IDV Emulator ID Token Signing is issued by CN=IDV Emulator Root CA, which is neither in x5c nor an IDV_TRUST_ANCHOR certificate',
    });
  });

  it('is NOT valid outside the certificates’ validity periods at the time given', async () => {
    const [key] = await emulatorJwks();
    const check = await checkSigningCertificate(key!, [key!.x5c[1]], new Date(Date.now() + 2 * YEAR_MS));
    expect(check.chain).toMatchObject({ state: 'not_valid', reason: expect.stringMatching(/^CN=IDV Emulator ID Token Signing expired on \d{4}-/) });
    const early = await checkSigningCertificate(key!, [key!.x5c[1]], new Date(Date.now() - 86_400_000));
    expect(early.chain).toMatchObject({ state: 'not_valid', reason: expect.stringMatching(/^CN=IDV Emulator ID Token Signing is not valid before /) });
  });

  it('follows an intermediate CA in x5c, and refuses an issuer in x5c that is not a CA', async () => {
    const valid = await threeLevelChain();
    expect(await checkSigningCertificate(valid.jwk, [valid.root], new Date())).toEqual({
      key: 'matches',
      chain: { state: 'validated', anchor: 'CN=Test Root' },
    });
    const notCa = await threeLevelChain({ notCa: true });
    expect((await checkSigningCertificate(notCa.jwk, [notCa.root], new Date())).chain).toEqual({
      state: 'not_valid',
      reason: 'CN=Test Issuing signed CN=Test Signing but is not a CA (basicConstraints)',
    });
  });

  it('is NOT valid when an anchor is configured but the JWKS entry has no certificate, or x5c holds garbage', async () => {
    const [key] = await emulatorJwks();
    const bare: JWK = { ...key! };
    delete bare.x5c;
    expect((await checkSigningCertificate(bare, [key!.x5c[1]], new Date())).chain).toEqual({
      state: 'not_valid',
      reason: 'the JWKS entry has no x5c certificate to validate',
    });
    expect((await checkSigningCertificate({ ...key!, x5c: [key!.x5c[0], 'Z2FyYmFnZQ=='] }, [key!.x5c[1]], new Date())).chain).toEqual({
      state: 'not_valid',
      reason: 'x5c[1] is not a readable X.509 certificate',
    });
  });

  it('is NOT valid when the trust anchor itself is outside its validity period, the chain below it within theirs', async () => {
    const caKeys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
    const ca = await X509CertificateGenerator.createSelfSigned({
      serialNumber: '0a',
      name: 'CN=Short CA',
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2026-06-01T00:00:00Z'),
      signingAlgorithm: EC_P256,
      keys: caKeys,
      extensions: [new BasicConstraintsExtension(true, undefined, true)],
    });
    const leafKeys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
    const leaf = await X509CertificateGenerator.create({
      serialNumber: '0b',
      subject: 'CN=Long Leaf',
      issuer: ca.subject,
      notBefore: new Date('2026-01-01T00:00:00Z'),
      notAfter: new Date('2027-01-01T00:00:00Z'),
      signingAlgorithm: EC_P256,
      publicKey: leafKeys.publicKey,
      signingKey: caKeys.privateKey,
    });
    const jwk = { ...((await crypto.subtle.exportKey('jwk', leafKeys.publicKey)) as JWK), x5c: [leaf.toString('base64')] };
    expect((await checkSigningCertificate(jwk, [ca.toString('base64')], new Date('2026-03-01T00:00:00Z'))).chain).toEqual({
      state: 'validated',
      anchor: 'CN=Short CA',
    });
    expect((await checkSigningCertificate(jwk, [ca.toString('base64')], new Date('2026-09-01T00:00:00Z'))).chain).toEqual({
      state: 'not_valid',
      reason: 'the trust anchor CN=Short CA expired on 2026-06-01T00:00:00.000Z',
    });
  });

  it('is NOT valid with an anchor of the issuer’s name whose key is of another kind (RSA), and says which anchor cannot be read', async () => {
    const [key] = await emulatorJwks();
    const rsaKeys = await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    const impostor = await X509CertificateGenerator.createSelfSigned({
      serialNumber: '0c',
      name: 'CN=IDV Emulator Root CA',
      notBefore: new Date(Date.now() - YEAR_MS),
      notAfter: new Date(Date.now() + YEAR_MS),
      signingAlgorithm: { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      keys: rsaKeys,
      extensions: [new BasicConstraintsExtension(true, undefined, true)],
    });
    const leafOnly = { ...key!, x5c: [key!.x5c[0]] };
    expect((await checkSigningCertificate(leafOnly, [impostor.toString('base64')], new Date())).chain).toMatchObject({ state: 'not_valid' });
    expect((await checkSigningCertificate(key!, [key!.x5c[1], 'bm90IGEgY2VydGlmaWNhdGU='], new Date())).chain).toEqual({
      state: 'not_valid',
      reason: 'IDV_TRUST_ANCHOR certificate 2 cannot be read',
    });
  });
});
