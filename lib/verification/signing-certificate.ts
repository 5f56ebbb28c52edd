/**
 * The signing certificate of the service's JWKS entry (`x5c`, spec 2.7), in one place: described
 * for display, compared with the key that verified the ID token signature, and its chain
 * validated up to a configured trust anchor (IDV_TRUST_ANCHOR), once the token is accepted. The
 * spec does not make a client check `x5c`; the token is accepted on the JWK alone (never refused
 * for what is found here), the result page says what these checks found, and the verdict's
 * `signing_certificate` rule judges it.
 */
import 'reflect-metadata';
import { createPublicKey } from 'node:crypto';
import { BasicConstraintsExtension, X509Certificate } from '@peculiar/x509';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { ValidatedIdToken } from '@/lib/oidc';

/** A certificate as the result page and the trace name it. */
export interface CertificateSummary {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  sha256Fingerprint: string;
}

/** The chain of the signing certificate, validated up to IDV_TRUST_ANCHOR when one is configured. */
export type ChainValidation =
  | { state: 'validated'; /** the subject of the trust anchor the chain ends at */ anchor: string }
  | { state: 'not_valid'; reason: string }
  | { state: 'not_validated' };

/**
 * What was checked of the signing key's certificate when the result was made. `key`: x5c[0]'s
 * public key compared with the JWK that verified the signature (`no_certificate`: the entry has
 * no x5c; `unreadable`: x5c[0] or its key cannot be read).
 */
export interface SigningCertificateCheck {
  key: 'matches' | 'differs' | 'no_certificate' | 'unreadable';
  chain: ChainValidation;
}

/**
 * Parsed certificates by their base64 DER: a service signs with one key for months, so each
 * verification would otherwise parse the same certificate again. A handful is plenty (a
 * rotation publishes two, each with its CA; a trust anchor or two); the oldest goes first.
 */
const described = new Map<string, Promise<CertificateSummary | undefined>>();
const parsed = new Map<string, X509Certificate | undefined>();
const MAX_CACHED = 16;

function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  cache.set(key, value);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  return value;
}

/** A base64 DER certificate, parsed once; undefined if it cannot be parsed. */
function certificateOf(base64Der: string): X509Certificate | undefined {
  if (parsed.has(base64Der)) return parsed.get(base64Der);
  let certificate: X509Certificate | undefined;
  try {
    certificate = new X509Certificate(base64Der);
  } catch {
    certificate = undefined;
  }
  return remember(parsed, base64Der, certificate);
}

/** The certificate's names, serial, validity and fingerprint; undefined if it cannot be parsed. */
export function describeCertificate(base64Der: string): Promise<CertificateSummary | undefined> {
  return described.get(base64Der) ?? remember(described, base64Der, summary(base64Der));
}

async function summary(base64Der: string): Promise<CertificateSummary | undefined> {
  const certificate = certificateOf(base64Der);
  if (!certificate) return undefined;
  const fingerprint = new Uint8Array(await crypto.subtle.digest('SHA-256', certificate.rawData));
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber.toLowerCase(),
    notBefore: certificate.notBefore.toISOString(),
    notAfter: certificate.notAfter.toISOString(),
    sha256Fingerprint: Array.from(fingerprint, (b) => b.toString(16).padStart(2, '0')).join(':'),
  };
}

/** The `x5c` of a JWKS entry (RFC 7517 §4.7), if it is an array of strings. */
function x5cOf(jwk: JWK): string[] | undefined {
  const x5c: unknown = jwk.x5c;
  return Array.isArray(x5c) && x5c.length > 0 && x5c.every((entry) => typeof entry === 'string') ? x5c : undefined;
}

/**
 * The RFC 7638 thumbprint of the key a certificate holds, read once per certificate (a service
 * signs every token with the same one): undefined when the certificate or its key cannot be read
 * as a JWK (a kind of key JWK does not describe).
 */
const keyThumbprints = new Map<string, Promise<string | undefined>>();

export function certificateKeyThumbprint(base64Der: string): Promise<string | undefined> {
  return keyThumbprints.get(base64Der) ?? remember(keyThumbprints, base64Der, thumbprintOfKey(certificateOf(base64Der)));
}

async function thumbprintOfKey(certificate: X509Certificate | undefined): Promise<string | undefined> {
  if (!certificate) return undefined;
  try {
    const certificateKey = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' }).export({ format: 'jwk' }) as JWK;
    return await calculateJwkThumbprint(certificateKey);
  } catch {
    return undefined;
  }
}

/**
 * Whether the certificate `x5c[0]` holds the very key that verified the signature: both as JWK
 * thumbprints (RFC 7638), so an EC point compressed in the certificate still compares equal.
 * Undefined when the certificate's key cannot be read.
 * @see https://www.rfc-editor.org/rfc/rfc7638
 */
async function holdsKey(base64Der: string, jwk: JWK): Promise<boolean | undefined> {
  const certificateKey = await certificateKeyThumbprint(base64Der);
  if (certificateKey === undefined) return undefined;
  try {
    return certificateKey === (await calculateJwkThumbprint(jwk));
  } catch {
    // The JWK lacks a member its thumbprint needs: it cannot be this certificate's key.
    return false;
  }
}

async function signedBy(certificate: X509Certificate, issuer: X509Certificate): Promise<boolean> {
  try {
    return await certificate.verify({ publicKey: issuer.publicKey, signatureOnly: true });
  } catch {
    return false;
  }
}

function validityProblem(certificate: X509Certificate, at: Date): string | undefined {
  if (at < certificate.notBefore) return `${certificate.subject} is not valid before ${certificate.notBefore.toISOString()}`;
  if (at > certificate.notAfter) return `${certificate.subject} expired on ${certificate.notAfter.toISOString()}`;
  return undefined;
}

function isCertificateAuthority(certificate: X509Certificate): boolean {
  return certificate.getExtension(BasicConstraintsExtension)?.ca === true;
}

/** The first of `candidates` named as the certificate's issuer whose key verifies its signature. */
async function issuerAmong(certificate: X509Certificate, candidates: readonly X509Certificate[]): Promise<X509Certificate | undefined> {
  for (const candidate of candidates) {
    if (candidate.subject === certificate.issuer && (await signedBy(certificate, candidate))) return candidate;
  }
  return undefined;
}

/**
 * Builds and validates the path x5c[0] → x5c[1..] → a trust anchor: each certificate signed by
 * the next, each within its validity period at `at`, each issuer taken from `x5c` a CA
 * (basicConstraints). The anchors are trusted as configured, but must be valid at `at` too; an
 * anchor may also be x5c[0] itself (a pinned certificate). Not checked: revocation, key usage,
 * name and path-length constraints (RFC 5280 §6.1 does more).
 * @see https://www.rfc-editor.org/rfc/rfc5280#section-6.1
 */
async function validateChain(x5c: string[], anchors: readonly X509Certificate[], at: Date): Promise<ChainValidation> {
  const chain = x5c.map(certificateOf);
  const unreadable = chain.findIndex((certificate) => certificate === undefined);
  if (unreadable >= 0) return { state: 'not_valid', reason: `x5c[${unreadable}] is not a readable X.509 certificate` };
  let unused = chain as X509Certificate[];
  let current = unused[0]!;
  // Each step uses up one x5c certificate, so the walk ends.
  for (;;) {
    unused = unused.filter((certificate) => certificate !== current);
    const outside = validityProblem(current, at);
    if (outside) return { state: 'not_valid', reason: outside };
    const pinned = anchors.find((anchor) => Buffer.from(anchor.rawData).equals(Buffer.from(current.rawData)));
    if (pinned) return { state: 'validated', anchor: pinned.subject };
    const anchor = await issuerAmong(current, anchors);
    if (anchor) {
      const anchorOutside = validityProblem(anchor, at);
      return anchorOutside ? { state: 'not_valid', reason: `the trust anchor ${anchorOutside}` } : { state: 'validated', anchor: anchor.subject };
    }
    const issuer = await issuerAmong(current, unused);
    if (issuer && !isCertificateAuthority(issuer)) {
      return { state: 'not_valid', reason: `${issuer.subject} signed ${current.subject} but is not a CA (basicConstraints)` };
    }
    if (issuer) {
      current = issuer;
      continue;
    }
    if (current.subject === current.issuer && (await signedBy(current, current))) {
      return { state: 'not_valid', reason: `it ends at ${current.subject}, which is not an IDV_TRUST_ANCHOR certificate` };
    }
    const named = [...anchors, ...unused].some((certificate) => certificate.subject === current.issuer);
    return {
      state: 'not_valid',
      reason: named
        ? `the signature of ${current.subject} does not verify with the key of any certificate named ${current.issuer} in x5c or IDV_TRUST_ANCHOR`
        : `${current.subject} is issued by ${current.issuer}, which is neither in x5c nor an IDV_TRUST_ANCHOR certificate`,
    };
  }
}

/**
 * What can be said of the signing key's certificate: whether `x5c[0]` holds the key that
 * verified the ID token signature, and whether its chain leads to one of `trustAnchors` (base64
 * DER, from IDV_TRUST_ANCHOR; none configured: not validated). Never throws: a certificate that
 * cannot be read is reported as such.
 * @param jwk the JWKS entry whose key verified the signature
 * @param at the time the validity periods are judged at (the verification)
 * @see spec 2.7 (`kid` = the certificate serial, `x5c` = the signing certificate and its CAs)
 */
export async function checkSigningCertificate(jwk: JWK, trustAnchors: readonly string[], at: Date): Promise<SigningCertificateCheck> {
  const x5c = x5cOf(jwk);
  const signing = x5c && certificateOf(x5c[0]!);
  const matches = signing && (await holdsKey(x5c[0]!, jwk));
  const key: SigningCertificateCheck['key'] = !x5c ? 'no_certificate' : matches === undefined ? 'unreadable' : matches ? 'matches' : 'differs';
  if (trustAnchors.length === 0) return { key, chain: { state: 'not_validated' } };
  if (!x5c) return { key, chain: { state: 'not_valid', reason: 'the JWKS entry has no x5c certificate to validate' } };
  const anchors = trustAnchors.map(certificateOf);
  const unreadable = anchors.findIndex((anchor) => anchor === undefined);
  if (unreadable >= 0) return { key, chain: { state: 'not_valid', reason: `IDV_TRUST_ANCHOR certificate ${unreadable + 1} cannot be read` } };
  try {
    return { key, chain: await validateChain(x5c, anchors as X509Certificate[], at) };
  } catch (error) {
    // A malformed name or extension, read lazily by the parser: a chain that cannot be validated.
    return { key, chain: { state: 'not_valid', reason: `it cannot be read (${(error as Error).message})` } };
  }
}

/**
 * The certificate in the `x5c[0]` of the JWKS entry that verified the signature, if it has one
 * that parses, and what was checked of it: its key against the entry's, its chain against the
 * trust anchors (IDV_TRUST_ANCHOR) at `at`. Shown on the result page, never a reason to refuse
 * the token (the spec does not require `x5c`).
 */
export async function signingCertificateOf(
  signingKey: ValidatedIdToken['signingKey'],
  trustAnchors: readonly string[],
  at: Date,
): Promise<{ signingCertificate: CertificateSummary | undefined; signingCertificateCheck: SigningCertificateCheck }> {
  const x5c: unknown = signingKey.x5c;
  const signingCertificate = Array.isArray(x5c) && typeof x5c[0] === 'string' ? await describeCertificate(x5c[0]) : undefined;
  return { signingCertificate, signingCertificateCheck: await checkSigningCertificate(signingKey, trustAnchors, at) };
}
