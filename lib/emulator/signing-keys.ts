/**
 * The emulator's ID token signing keys (spec 2.7, 4.4, 5.6): ES256 keys on P-256, each with a
 * certificate issued by the emulator's own root CA. The `kid` is the certificate serial number,
 * and the JWKS entry carries the chain in `x5c`.
 *
 * Keys live in a ring: one `current` key signs, every key in the ring is published. Rotation is
 * then "add a key, make it current, drop the old one after the last token it signed expired",
 * without changing any caller. The emulator has a single key, generated on first use and kept
 * for the instance's lifetime.
 * @see spec 2.7, 4.4, 5.6
 */
import { exportJWK, type JWK } from 'jose';
import { ID_TOKEN_SIGNING_ALGORITHM } from './config';
import { loadX509 } from './x509';

/** One ES256 signing key with its certificate. @see spec 2.7 */
export interface SigningKey {
  /** the certificate serial number, lowercase hex (spec 2.7: "Key ID; the certificate serial number") */
  kid: string;
  privateKey: CryptoKey;
  /** the JWKS entry: kty, crv, x, y, use, alg, kid, x5c */
  publicJwk: JWK & { kid: string };
}

/** The published keys and the one that signs. @see spec 2.7, 4.4 */
export interface SigningKeyRing {
  current(): SigningKey;
  /** every key whose tokens may still be presented; clients select by `kid` (4.4) */
  published(): readonly SigningKey[];
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const CA_NAME = 'CN=IDV Emulator Root CA';
const SIGNING_CERTIFICATE_NAME = 'CN=IDV Emulator ID Token Signing';
const DAY_MS = 86_400_000;

/**
 * Creates the root CA and one signing key with a certificate issued by it.
 * @param now clock in ms; certificates are valid from a minute before it
 * @see spec 2.7
 */
export async function createSigningKeyRing(now: number): Promise<SigningKeyRing> {
  const x509 = await loadX509();
  const notBefore = new Date(now - 60_000);

  const caKeys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const caCertificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: CA_NAME,
    notBefore,
    notAfter: new Date(now + 10 * 365 * DAY_MS),
    signingAlgorithm: EC_P256,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const keys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: SIGNING_CERTIFICATE_NAME,
    issuer: caCertificate.subject,
    notBefore,
    notAfter: new Date(now + 365 * DAY_MS),
    signingAlgorithm: EC_P256,
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  // Read back from the certificate rather than reuse the generated value, so `kid` is exactly
  // what a client sees when it parses `x5c[0]`.
  const kid = certificate.serialNumber.toLowerCase();
  const publicJwk = {
    ...(await exportJWK(keys.publicKey)),
    kid,
    use: 'sig',
    alg: ID_TOKEN_SIGNING_ALGORITHM,
    // RFC 7517 §4.7: standard base64 DER, the key's own certificate first.
    x5c: [certificate.toString('base64'), caCertificate.toString('base64')],
  };

  const key: SigningKey = { kid, privateKey: keys.privateKey, publicJwk };
  const ring = [key];
  return { current: () => key, published: () => ring };
}

/**
 * RFC 5280 §4.1.2.2: a positive integer of at most 20 octets, unpredictable (CA/B Forum asks for
 * 64 random bits). 16 random bytes with the top bit cleared (positive) and a non-zero first byte
 * (so DER encoding does not shorten it).
 */
function randomSerialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) || 0x01;
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
