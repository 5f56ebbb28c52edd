import 'reflect-metadata';
import { X509CertificateGenerator } from '@peculiar/x509';
import { describe, expect, it } from 'vitest';
import { describeCertificate } from './certificate';

async function selfSigned(name: string): Promise<string> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await crypto.subtle.generateKey(algorithm, false, ['sign', 'verify']);
  const certificate = await X509CertificateGenerator.createSelfSigned({
    serialNumber: '0a1b2c',
    name: `CN=${name}`,
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2027-01-01T00:00:00Z'),
    signingAlgorithm: algorithm,
    keys,
  });
  return Buffer.from(certificate.rawData).toString('base64');
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
