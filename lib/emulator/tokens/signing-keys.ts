/**
 * The emulator's ID token signing keys (spec 2.7, 4.4, 5.6): ES256 keys on P-256, each with a
 * certificate issued by the emulator's own root CA. The `kid` is the certificate serial number,
 * and the JWKS entry carries the chain in `x5c`.
 *
 * Keys live in a ring with one root CA, kept in the emulator's state store (so instances sharing
 * it share the ring): one `current` key signs, and the ring also holds a `next` key, published
 * ahead of its use as real providers pre-publish. Rotation makes the next key current at once
 * and publishes a new next one (OpenID Connect Core §10.1.1); the old key stays published until
 * every token it signed has expired, then it is dropped. The JWKS lists them in no fixed order
 * (endpoints/jwks.ts): spec 4.4 tells clients never to rely on order or count.
 * @see spec 2.7, 4.4, 5.6
 */
import { exportJWK, importJWK, type JWK } from 'jose';
import type { Store } from '../../store/store';
import { ID_TOKEN_SIGNING_ALGORITHM, LIFETIMES } from '../config';
import { loadX509 } from './x509';

/** One ES256 signing key with its certificate. @see spec 2.7 */
export interface SigningKey {
  /** the certificate serial number, lowercase hex (spec 2.7: "Key ID; the certificate serial number") */
  kid: string;
  /** imported on first use, once per instance */
  privateKey(): Promise<CryptoKey>;
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
  /** true for the key published ahead, which the next rotation makes current */
  next?: true;
  /** ms since the epoch at which a retired key leaves the JWKS; undefined for the current key */
  retiresAt?: number;
}

/** The published keys and the one that signs. @see spec 2.7, 4.4 */
export interface SigningKeyRing {
  current(): SigningKey;
  /**
   * every key whose tokens may still be presented, current first, then the next key; the JWKS
   * shuffles them (clients select by `kid`, 4.4)
   */
  published(): readonly SigningKey[];
  /** the published keys with their status, current first, next last */
  status(): readonly SigningKeyStatus[];
  /**
   * Makes the next key current and issues a new next key from the ring's CA. The previous key
   * stays published for `RETIRED_KEY_PUBLICATION_SECONDS`, so tokens it signed still verify until
   * they expire.
   * @returns the new current key
   */
  rotate(): Promise<SigningKey>;
  /**
   * An unannounced rotation, as a provider makes in an emergency: a fresh key from the ring's CA,
   * never published ahead, becomes current (the key published ahead stays next). The previous
   * key retires as in `rotate`. For the `key_rotated_unpublished` variant (answer-faults.ts).
   * @returns the new current key
   */
  rotateUnannounced(): Promise<SigningKey>;
}

/**
 * A retired key stays in the JWKS as long as the last ID token it signed can be valid: that
 * token was issued at the latest at rotation time and lives `LIFETIMES.idToken` (2.5: 3600 s).
 */
export const RETIRED_KEY_PUBLICATION_SECONDS = LIFETIMES.idToken;

/**
 * Upper bound for the current and retired keys (the next key comes on top), so rotating in a loop cannot grow
 * the JWKS without limit. Past it, the oldest retired key is dropped early, and tokens it signed
 * stop verifying: a visible consequence of rotating faster than tokens expire.
 */
export const MAX_PUBLISHED_SIGNING_KEYS = 3;

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const CA_NAME = 'CN=IDV Emulator Root CA';
const SIGNING_CERTIFICATE_NAME = 'CN=IDV Emulator ID Token Signing';
const DAY_MS = 86_400_000;

type X509Module = Awaited<ReturnType<typeof loadX509>>;

/** The root CA as the ring keeps it: what issuing a signing certificate needs. */
interface StoredAuthority {
  privateJwk: JWK;
  publicJwk: JWK;
  /** the CA certificate, DER in standard base64 (the second entry of every `x5c`) */
  certificate: string;
  subject: string;
  /** ms since the epoch */
  notAfter: number;
}

/** A signing key as the ring keeps it. */
interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK & { kid: string };
  /** ms since the epoch */
  createdAt: number;
  /** set when a newer key became current; ms since the epoch */
  retiresAt?: number;
}

/** The whole ring, as one stored value: its CA, its keys, newest (current) first, and the next key. */
interface StoredRing {
  authority: StoredAuthority;
  keys: StoredKey[];
  /** published ahead of use; absent from rings stored before it existed (the next rotation adds it) */
  next?: StoredKey;
}

const RING_KEY = 'signing-keys';
const ROTATION_LOCK_KEY = 'signing-keys-rotation';
/** The ring lives as long as its CA certificate. */
const RING_TTL_SECONDS = 10 * 365 * 24 * 3600;

/** Imported private keys by kid, per emulator instance, so a stored ring is imported once. */
export type SigningKeyCache = Map<string, Promise<CryptoKey>>;

/**
 * The ring kept in `store`: created by the first instance that needs it (the others read that
 * one), so every instance sharing the store publishes the same JWKS and signs with the same
 * current key. Each call reads the stored ring afresh (a rotation on another instance shows at
 * once); private keys are imported once per instance (`cache`).
 * @param now clock in ms; certificates are valid from a minute before their creation
 * @see spec 2.7, 4.4
 */
export async function openSigningKeyRing(store: Store, now: () => number, cache: SigningKeyCache): Promise<SigningKeyRing> {
  const stored = (await store.get<StoredRing>(RING_KEY)) ?? (await createStoredRing(store, now));
  return ringOf(stored, store, now, cache);
}

/** Creates a ring with its CA and a first key, unless another instance stored one first. */
async function createStoredRing(store: Store, now: () => number): Promise<StoredRing> {
  const x509 = await loadX509();
  const authority = await createCertificateAuthority(x509, now());
  const ring: StoredRing = { authority, keys: [await issueSigningKey(x509, authority, now())], next: await issueSigningKey(x509, authority, now()) };
  if (await store.setIfAbsent(RING_KEY, ring, RING_TTL_SECONDS)) return ring;
  const winner = await store.get<StoredRing>(RING_KEY);
  if (!winner) throw new Error('the signing key ring vanished from the store');
  return winner;
}

function ringOf(stored: StoredRing, store: Store, now: () => number, cache: SigningKeyCache): SigningKeyRing {
  const at = now();
  const live = stored.keys.filter((key) => key.retiresAt === undefined || key.retiresAt > at);
  const signingKey = (key: StoredKey): SigningKey => ({
    kid: key.kid,
    publicJwk: key.publicJwk,
    createdAt: key.createdAt,
    privateKey: () => importPrivateKey(cache, key),
  });
  return {
    current: () => signingKey(stored.keys[0]!),
    published: () => [...live, ...(stored.next ? [stored.next] : [])].map(signingKey),
    status: () => [
      ...live.map((key, index) => ({
        kid: key.kid,
        createdAt: key.createdAt,
        current: index === 0,
        ...(key.retiresAt === undefined ? {} : { retiresAt: key.retiresAt }),
      })),
      ...(stored.next ? [{ kid: stored.next.kid, createdAt: stored.next.createdAt, current: false, next: true as const }] : []),
    ],
    rotate: () => rotateStoredRing(store, now, cache),
    rotateUnannounced: () => rotateStoredRing(store, now, cache, { announced: false }),
  };
}

function importPrivateKey(cache: SigningKeyCache, key: StoredKey): Promise<CryptoKey> {
  let imported = cache.get(key.kid);
  if (!imported) {
    imported = importJWK(key.privateJwk, ID_TOKEN_SIGNING_ALGORITHM) as Promise<CryptoKey>;
    cache.set(key.kid, imported);
  }
  return imported;
}

/**
 * Issues a new key from the ring's CA and makes it current; the previous keys stay published
 * until their tokens have expired (at most MAX_PUBLISHED_SIGNING_KEYS in all). Rotations are
 * serialised across instances by a short lock in the store, so none is lost.
 */
async function rotateStoredRing(store: Store, now: () => number, cache: SigningKeyCache, { announced = true } = {}): Promise<SigningKey> {
  await acquireRotationLock(store);
  try {
    const stored = (await store.get<StoredRing>(RING_KEY)) ?? (await createStoredRing(store, now));
    const x509 = await loadX509();
    // The key published ahead becomes current; a new one is published ahead of the next rotation.
    // Unannounced, a fresh key becomes current and the one published ahead stays next.
    const key = (announced ? stored.next : undefined) ?? (await issueSigningKey(x509, stored.authority, now()));
    const next = (announced ? undefined : stored.next) ?? (await issueSigningKey(x509, stored.authority, now()));
    const at = now();
    const retiresAt = at + RETIRED_KEY_PUBLICATION_SECONDS * 1000;
    const retired = stored.keys
      .filter((entry) => entry.retiresAt === undefined || entry.retiresAt > at)
      .map((entry) => ({ ...entry, retiresAt: entry.retiresAt ?? retiresAt }));
    const ring: StoredRing = { authority: stored.authority, keys: [key, ...retired].slice(0, MAX_PUBLISHED_SIGNING_KEYS), next };
    await store.set(RING_KEY, ring, RING_TTL_SECONDS);
    return ringOf(ring, store, now, cache).current();
  } finally {
    await store.delete(ROTATION_LOCK_KEY);
  }
}

async function acquireRotationLock(store: Store): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    // Expires by itself, so an instance that dies mid-rotation cannot block rotations for long.
    if (await store.setIfAbsent(ROTATION_LOCK_KEY, true, 10)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('another rotation of the signing keys is taking too long');
}

/**
 * A key pair that is never published, for the ID token faults (answer-faults.ts): a token signed with
 * it fails verification whichever `kid` it names. The `kid` is shaped like a real one (a random
 * serial number) but belongs to no certificate.
 */
export async function createUnpublishedSigningKey(): Promise<{ kid: string; privateKey: CryptoKey }> {
  const keys = await crypto.subtle.generateKey(EC_P256, false, ['sign', 'verify']);
  return { kid: randomSerialNumber(), privateKey: keys.privateKey };
}

/** The self-signed root CA (P-256, pathLen 0) that issues every signing certificate of a ring. */
async function createCertificateAuthority(x509: X509Module, now: number): Promise<StoredAuthority> {
  // Extractable: the ring is stored (as JWK) so that every instance sharing the store uses it.
  const keys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
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
  return {
    privateJwk: await exportJWK(keys.privateKey),
    publicJwk: await exportJWK(keys.publicKey),
    certificate: certificate.toString('base64'),
    subject: certificate.subject,
    notAfter: certificate.notAfter.getTime(),
  };
}

/** A new ES256 key with a one-year certificate from `authority`, and its JWKS entry. @see spec 2.7 */
async function issueSigningKey(x509: X509Module, authority: StoredAuthority, now: number): Promise<StoredKey> {
  const keys = await crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const authorityPrivateKey = (await importJWK(authority.privateJwk, 'ES256')) as CryptoKey;
  const authorityPublicKey = (await importJWK(authority.publicJwk, 'ES256')) as CryptoKey;
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerialNumber(),
    subject: SIGNING_CERTIFICATE_NAME,
    issuer: authority.subject,
    notBefore: new Date(now - 60_000),
    // RFC 5280 §6.1.3: a certificate outliving its issuer would not validate.
    notAfter: new Date(Math.min(now + 365 * DAY_MS, authority.notAfter)),
    signingAlgorithm: EC_P256,
    publicKey: keys.publicKey,
    signingKey: authorityPrivateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(authorityPublicKey),
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
    x5c: [certificate.toString('base64'), authority.certificate],
  };
  return { kid, privateJwk: await exportJWK(keys.privateKey), publicJwk, createdAt: now };
}

/**
 * RFC 5280 §4.1.2.2: a positive integer of at most 20 octets, unpredictable (CA/B Forum asks for
 * 64 random bits). 16 random bytes with the top bit cleared (positive) and a non-zero first byte
 * (so DER encoding does not shorten it).
 */
function randomSerialNumber(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
