/**
 * The emulator's ID token signing keys (spec 2.7, 4.4, 5.6): ES256 keys on P-256, each with a
 * certificate issued by the emulator's own root CA. The `kid` is the certificate serial number,
 * and the JWKS entry carries the chain in `x5c`.
 *
 * Keys live in a ring with one root CA: one `current` key signs, every key in the ring is
 * published. Rotation adds a key and makes it current at once (OpenID Connect Core §10.1.1: the
 * new `kid` tells verifiers to fetch the JWKS again); the old key stays published until every
 * token it signed has expired, then it is dropped.
 * @see spec 2.7, 4.4, 5.6
 */
import { exportJWK, type JWK } from 'jose';
import { ID_TOKEN_SIGNING_ALGORITHM, LIFETIMES } from '../config';
import { loadX509 } from './x509';

/** One ES256 signing key with its certificate. @see spec 2.7 */
export interface SigningKey {
  /** the certificate serial number, lowercase hex (spec 2.7: "Key ID; the certificate serial number") */
  kid: string;
  privateKey: CryptoKey;
  /** the JWKS entry: kty, crv, x, y, use, alg, kid, x5c */
  publicJwk: JWK & { kid: string };
  /** ms since the epoch */
  createdAt: number;
}

/** A key of the ring and where it stands in its life. @see spec 2.7, 4.4 */
export interface SigningKeyStatus {
  kid: string;
  /** ms since the epoch */
  createdAt: number;
  /** true for the one key that signs new ID tokens */
  current: boolean;
  /** ms since the epoch at which a retired key leaves the JWKS; undefined for the current key */
  retiresAt?: number;
}

/** The published keys and the one that signs. @see spec 2.7, 4.4 */
export interface SigningKeyRing {
  current(): SigningKey;
  /** every key whose tokens may still be presented, current first; clients select by `kid` (4.4) */
  published(): readonly SigningKey[];
  /** the published keys with their status, current first */
  status(): readonly SigningKeyStatus[];
  /**
   * Issues a new key from the ring's CA and makes it current. The previous key stays published
   * for `RETIRED_KEY_PUBLICATION_SECONDS`, so tokens it signed still verify until they expire.
   * @returns the new current key
   */
  rotate(): Promise<SigningKey>;
}

/**
 * A retired key stays in the JWKS as long as the last ID token it signed can be valid: that
 * token was issued at the latest at rotation time and lives `LIFETIMES.idToken` (2.5: 3600 s).
 */
export const RETIRED_KEY_PUBLICATION_SECONDS = LIFETIMES.idToken;

/**
 * Upper bound for published keys (the current one included), so rotating in a loop cannot grow
 * the JWKS without limit. Past it, the oldest retired key is dropped early, and tokens it signed
 * stop verifying: a visible consequence of rotating faster than tokens expire.
 */
export const MAX_PUBLISHED_SIGNING_KEYS = 3;

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const CA_NAME = 'CN=IDV Emulator Root CA';
const SIGNING_CERTIFICATE_NAME = 'CN=IDV Emulator ID Token Signing';
const DAY_MS = 86_400_000;

type X509Module = Awaited<ReturnType<typeof loadX509>>;

interface CertificateAuthority {
  keys: CryptoKeyPair;
  certificate: InstanceType<X509Module['X509Certificate']>;
}

interface RingEntry {
  key: SigningKey;
  /** set when a newer key became current; ms since the epoch */
  retiresAt?: number;
}

/**
 * Creates the ring: its root CA and a first signing key issued by it.
 * @param now clock in ms; certificates are valid from a minute before their creation
 * @see spec 2.7
 */
export async function createSigningKeyRing(now: () => number): Promise<SigningKeyRing> {
  const x509 = await loadX509();
  const authority = await createCertificateAuthority(x509, now());
  // Newest first: entries[0] is the current key.
  let entries: RingEntry[] = [{ key: await issueSigningKey(x509, authority, now()) }];

  /** Drops retired keys whose publication period is over. */
  const live = (): RingEntry[] => {
    const at = now();
    entries = entries.filter((entry) => entry.retiresAt === undefined || entry.retiresAt > at);
    return entries;
  };

  return {
    current: () => entries[0]!.key,
    published: () => live().map((entry) => entry.key),
    status: () =>
      live().map((entry, index) => ({
        kid: entry.key.kid,
        createdAt: entry.key.createdAt,
        current: index === 0,
        ...(entry.retiresAt === undefined ? {} : { retiresAt: entry.retiresAt }),
      })),
    async rotate() {
      const key = await issueSigningKey(x509, authority, now());
      // No await from here on: the ring changes in one step, even with rotations in parallel.
      const retiresAt = now() + RETIRED_KEY_PUBLICATION_SECONDS * 1000;
      const retired = live().map((entry) => ({ key: entry.key, retiresAt: entry.retiresAt ?? retiresAt }));
      entries = [{ key }, ...retired].slice(0, MAX_PUBLISHED_SIGNING_KEYS);
      return key;
    },
  };
}

/**
 * A key pair that is never published, for the fault injection of qa/faults.ts: a token signed with
 * it fails verification whichever `kid` it names. The `kid` is shaped like a real one (a random
 * serial number) but belongs to no certificate.
 */
export async function createUnpublishedSigningKey(): Promise<{ kid: string; privateKey: CryptoKey }> {
  const keys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  return { kid: randomSerialNumber(), privateKey: keys.privateKey };
}

/** The self-signed root CA (P-256, pathLen 0) that issues every signing certificate of a ring. */
async function createCertificateAuthority(x509: X509Module, now: number): Promise<CertificateAuthority> {
  const keys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerialNumber(),
    name: CA_NAME,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 10 * 365 * DAY_MS),
    signingAlgorithm: EC_P256,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { keys, certificate };
}

/** A new ES256 key with a one-year certificate from `authority`, and its JWKS entry. @see spec 2.7 */
async function issueSigningKey(x509: X509Module, authority: CertificateAuthority, now: number): Promise<SigningKey> {
  const keys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: SIGNING_CERTIFICATE_NAME,
    issuer: authority.certificate.subject,
    notBefore: new Date(now - 60_000),
    // RFC 5280 §6.1.3: a certificate outliving its issuer would not validate.
    notAfter: new Date(Math.min(now + 365 * DAY_MS, authority.certificate.notAfter.getTime())),
    signingAlgorithm: EC_P256,
    publicKey: keys.publicKey,
    signingKey: authority.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(authority.keys.publicKey),
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
    x5c: [certificate.toString('base64'), authority.certificate.toString('base64')],
  };
  return { kid, privateKey: keys.privateKey, publicJwk, createdAt: now };
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
