import 'server-only';
/** Reads the signing certificate of the service's JWKS entry (`x5c[0]`, spec 2.7) for display. */
import 'reflect-metadata';
import { X509Certificate } from '@peculiar/x509';
import type { CertificateSummary } from '@/lib/view/trace-view';

/**
 * Parsed certificates by their base64 DER: a service signs with one key for months, so each
 * verification would otherwise parse the same certificate again. A handful is plenty (a
 * rotation publishes two); the oldest goes first.
 */
const described = new Map<string, Promise<CertificateSummary | undefined>>();
const MAX_DESCRIBED = 16;

/** The certificate's names, serial, validity and fingerprint; undefined if it cannot be parsed. */
export function describeCertificate(base64Der: string): Promise<CertificateSummary | undefined> {
  let summary = described.get(base64Der);
  if (!summary) {
    summary = parse(base64Der);
    described.set(base64Der, summary);
    if (described.size > MAX_DESCRIBED) described.delete(described.keys().next().value!);
  }
  return summary;
}

async function parse(base64Der: string): Promise<CertificateSummary | undefined> {
  try {
    const certificate = new X509Certificate(base64Der);
    const fingerprint = new Uint8Array(await crypto.subtle.digest('SHA-256', certificate.rawData));
    return {
      subject: certificate.subject,
      issuer: certificate.issuer,
      serialNumber: certificate.serialNumber.toLowerCase(),
      notBefore: certificate.notBefore.toISOString(),
      notAfter: certificate.notAfter.toISOString(),
      sha256Fingerprint: Array.from(fingerprint, (b) => b.toString(16).padStart(2, '0')).join(':'),
    };
  } catch {
    return undefined;
  }
}
