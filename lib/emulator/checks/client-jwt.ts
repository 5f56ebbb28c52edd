/**
 * JWTs signed by a client: the client assertion (2.1) and the request object (2.2) share one
 * header shape and are verified against the client's registered keys the same way. Only the
 * error differs (`invalid_client` for the assertion, `invalid_request` for the request object),
 * so the caller passes the error to raise.
 * @see spec 2.1, 2.2, 5.2, 5.4, 5.5; RFC 7515; RFC 7519 §7.2
 */
import { base64url, compactVerify, importJWK } from 'jose';
import { findSigningKey, type ClientSigningKey, type RegisteredClient } from '../clients';
import { CLIENT_SIGNING_ALGORITHMS, type ClientSigningAlgorithm } from '../config';
import { describeValue, type OAuthError } from '../errors';

/** 2.1: the header has exactly these three members. */
const HEADER_MEMBERS = ['alg', 'kid', 'typ'] as const;

/** A client-signed JWT whose header and signature have been verified. @see spec 2.1, 2.2 */
export interface VerifiedClientJwt {
  header: { alg: ClientSigningAlgorithm; kid: string; typ: 'JWT' };
  /** the decoded payload: a JSON object, members not yet checked */
  payload: Record<string, unknown>;
  /** the JWS signing input and decoded signature, from which replay is detected */
  signingInput: string;
  signature: Uint8Array;
}

/** Which JWT is being verified, for error descriptions, and which error to raise. */
export interface ClientJwtRole {
  /** e.g. "client_assertion", "request" (the form parameter carrying it) */
  parameter: string;
  reject: (description: string) => OAuthError;
}

/**
 * Verifies structure, header and signature of a compact JWS signed with one of the client's
 * registered keys: header exactly {alg, kid, typ: "JWT"}, alg ES256 | PS256 | EdDSA and equal
 * to the key's registered alg, a valid signature, and a JSON object payload.
 * @see spec 2.1 (header), 5.2, 5.5
 */
export async function verifyClientJwt(jwt: string, client: RegisteredClient, { parameter, reject }: ClientJwtRole): Promise<VerifiedClientJwt> {
  const parts = jwt.split('.');
  if (parts.length === 5) {
    throw reject(`${parameter} must be a signed JWT (compact JWS); encrypted JWTs are not accepted`);
  }
  if (parts.length !== 3 || parts.some((part) => !/^[A-Za-z0-9_-]*$/.test(part))) {
    throw reject(`${parameter} is not a compact JWS (three base64url parts separated by dots)`);
  }
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];

  const header = decodeJsonObject(encodedHeader);
  if (!header) throw reject(`${parameter} header is not a base64url-encoded JSON object`);
  const alg = checkAlgorithm(header.alg, parameter, reject);

  const members = describeMemberMismatch(header, HEADER_MEMBERS);
  if (members) throw reject(`${parameter} header must have exactly alg, kid and typ: ${members}`);
  if (header.typ !== 'JWT') throw reject(`${parameter} header typ must be 'JWT', not ${describeValue(header.typ)}`);
  if (typeof header.kid !== 'string' || header.kid === '') {
    throw reject(`${parameter} header kid must be a non-empty string`);
  }
  const kid = header.kid;

  const key = findSigningKey(client, kid);
  if (!key) {
    throw reject(`${parameter} header kid ${describeValue(kid)} is not a registered signing key of client '${client.clientId}'`);
  }
  if (key.alg !== alg) {
    throw reject(`${parameter} header alg '${alg}' does not match the alg '${key.alg}' registered for kid ${describeValue(kid)}`);
  }

  const verificationKey = await importClientKey(key).catch(() => undefined);
  if (!verificationKey) {
    throw reject(`the key registered as kid ${describeValue(kid)} for client '${client.clientId}' cannot be used`);
  }
  try {
    await compactVerify(jwt, verificationKey, { algorithms: [alg] });
  } catch {
    throw reject(`${parameter} signature is invalid for kid ${describeValue(kid)}`);
  }

  const payload = decodeJsonObject(encodedPayload);
  if (!payload) throw reject(`${parameter} payload is not a JSON object`);

  return {
    header: { alg, kid, typ: 'JWT' },
    payload,
    signingInput: `${encodedHeader}.${encodedPayload}`,
    signature: base64url.decode(encodedSignature),
  };
}

function checkAlgorithm(alg: unknown, parameter: string, reject: ClientJwtRole['reject']): ClientSigningAlgorithm {
  if (typeof alg !== 'string') throw reject(`${parameter} header alg must be a string`);
  if (alg.toLowerCase() === 'none') {
    throw reject(`${parameter} header alg 'none' is not allowed: the JWT must be signed`);
  }
  if (!(CLIENT_SIGNING_ALGORITHMS as readonly string[]).includes(alg)) {
    throw reject(`${parameter} header alg ${describeValue(alg)} is not supported; use one of ${CLIENT_SIGNING_ALGORITHMS.join(', ')}`);
  }
  return alg as ClientSigningAlgorithm;
}

/**
 * "missing 'kid'; unexpected 'jku'", or undefined when the object has exactly `expected`.
 * Used for the exact member sets of 2.1 and part 8.
 */
export function describeMemberMismatch(object: Record<string, unknown>, expected: readonly string[]): string | undefined {
  const missing = expected.filter((name) => !Object.hasOwn(object, name));
  const unexpected = Object.keys(object).filter((name) => !expected.includes(name));
  const problems = [
    ...(missing.length ? [`missing ${missing.map((name) => describeValue(name)).join(', ')}`] : []),
    ...(unexpected.length ? [`unexpected ${unexpected.map((name) => describeValue(name)).join(', ')}`] : []),
  ];
  return problems.length ? problems.join('; ') : undefined;
}

/** A base64url segment holding a UTF-8 JSON object, or undefined. */
function decodeJsonObject(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(base64url.decode(segment)));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Imported once per registered key object (keys are fixed for the emulator's lifetime). */
const importedKeys = new WeakMap<ClientSigningKey, Promise<CryptoKey>>();

function importClientKey(key: ClientSigningKey): Promise<CryptoKey> {
  let imported = importedKeys.get(key);
  if (!imported) {
    imported = importJWK(key, key.alg) as Promise<CryptoKey>;
    importedKeys.set(key, imported);
  }
  return imported;
}
