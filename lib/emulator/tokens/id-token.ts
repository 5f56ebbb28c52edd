/**
 * The ID token (2.6): built from the persona and the claims request with data minimisation,
 * signed with the emulator's ES256 key (kid = certificate serial), then encrypted to the client's
 * registered RSA key (RSA-OAEP-256 / A256GCM).
 * @see spec part 1 "Data minimisation", 2.5, 2.6, 5.6
 */
import { CompactEncrypt, SignJWT, base64url, generateKeyPair, importJWK } from 'jose';
import {
  type ClaimName,
  type ClaimsRequest,
  type DocumentDetail,
  type TrustFramework,
} from '../checks/claims-request';
import { encryptionKeyOf, type ClientEncryptionKey, type RegisteredClient } from '../clients';
import {
  ACR,
  AMR,
  ID_TOKEN_CONTENT_ENCRYPTION,
  ID_TOKEN_ENCRYPTION_ALGORITHM,
  ID_TOKEN_SIGNING_ALGORITHM,
  LIFETIMES,
} from '../config';
import { nowSeconds, type EmulatorContext } from '../context';
import { loadPortrait, populationRegisterMatch, type DocumentData, type Persona } from '../personas/personas';
import { EXPIRED_SECONDS_AGO, FAULTY_AUDIENCE, FAULTY_ISSUER, ISSUED_SECONDS_AHEAD, type FaultId } from '../qa/faults';
import type { AuthorizationCodeGrant } from '../state';
import { createUnpublishedSigningKey } from './signing-keys';

/** Response syntax of an evidence element. @see spec 2.6 `verified_claims.verification.evidence` */
export type EvidenceResponse =
  | { type: 'document'; document_details: Partial<Omit<DocumentData, 'issuer'>> & { issuer?: Partial<DocumentData['issuer']> } }
  | {
      type: 'electronic_record';
      record: { type: 'population_register'; source: { name: string }; personal_number: string };
    };

/** @see spec 2.6 `verified_claims` */
export interface VerifiedClaims {
  verification: { trust_framework: TrustFramework; evidence?: EvidenceResponse[] };
  claims: Partial<Record<ClaimName, unknown>>;
}

/**
 * Only what was requested and what the persona has: requested claims the persona lacks, details
 * not on the document, and a register lookup without a match are left out, never filled in.
 * @see spec part 1 "Data minimisation", 2.3, 2.6
 */
export async function verifiedClaimsFor(persona: Persona, request: ClaimsRequest): Promise<VerifiedClaims> {
  const claims: Partial<Record<ClaimName, unknown>> = {};
  for (const { name } of request.claims) {
    if (name === 'picture') {
      const portrait = await loadPortrait(persona);
      if (portrait) claims.picture = `data:image/jpeg;base64,${Buffer.from(portrait).toString('base64')}`;
    } else {
      claims[name] = persona.claims[name];
    }
  }

  const evidence: EvidenceResponse[] = [];
  for (const requested of request.evidence) {
    if (requested.type === 'document') {
      evidence.push({ type: 'document', document_details: documentDetails(persona.document, requested.details) });
    } else {
      const personalNumber = populationRegisterMatch(persona, requested.personalNumber);
      if (personalNumber !== undefined) {
        evidence.push({
          type: 'electronic_record',
          record: { type: 'population_register', source: { name: requested.sourceName }, personal_number: personalNumber },
        });
      }
    }
  }

  return {
    verification: { trust_framework: request.trustFramework, ...(evidence.length > 0 ? { evidence } : {}) },
    claims,
  };
}

function documentDetails(document: DocumentData, requested: readonly DocumentDetail[]) {
  const details: Extract<EvidenceResponse, { type: 'document' }>['document_details'] = {};
  for (const detail of requested) {
    if (detail === 'issuer.country_code' || detail === 'issuer.name') {
      const member = detail === 'issuer.name' ? 'name' : 'country_code';
      details.issuer = { ...details.issuer, [member]: document.issuer[member] };
    } else if (document[detail] !== undefined) {
      Object.assign(details, { [detail]: document[detail] });
    }
  }
  return details;
}

/**
 * A pairwise subject (OpenID Connect Core §8.1): BASE64URL(SHA-256(salt || client_id || 0 ||
 * persona id)). The client_id is the sector, as no sector_identifier_uri is registered.
 * @see spec 2.6 `sub` ("Hashed subject identifier")
 */
export async function pairwiseSubject(context: EmulatorContext, clientId: string, personaId: string): Promise<string> {
  const input = new TextEncoder().encode(`${clientId}\u0000${personaId}`);
  const salt = await context.subjectSalt();
  const bytes = new Uint8Array(salt.length + input.length);
  bytes.set(salt);
  bytes.set(input, salt.length);
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/**
 * Issues the ID token for a redeemed authorization code: the payload of 2.6, signed (JWS, ES256,
 * header {alg, kid, typ}) and encrypted (JWE, header {alg, enc, kid, cty: "JWT"}).
 *
 * The ID token faults armed for QA (qa/faults.ts) are taken here, where the real token is made,
 * and each changes exactly one thing: a claim, the signing key, or the encryption.
 * @see spec 2.5, 2.6, 5.6; qa/faults.ts
 */
export async function issueIdToken(
  context: EmulatorContext,
  client: RegisteredClient,
  grant: AuthorizationCodeGrant,
  persona: Persona,
): Promise<string> {
  const faults = await context.faults.take('id_token', client.clientId);
  const now = nowSeconds(context);
  // `expired`: the whole lifetime lies in the past, so only the exp check (4.5) can catch it;
  // `issued_in_future`: the whole lifetime lies ahead, so only the iat check can.
  const exp = faults.has('expired')
    ? now - EXPIRED_SECONDS_AGO
    : faults.has('issued_in_future')
      ? now + ISSUED_SECONDS_AHEAD + LIFETIMES.idToken
      : now + LIFETIMES.idToken;
  const iat = exp - LIFETIMES.idToken;
  const payload = {
    iss: faults.has('wrong_issuer') ? FAULTY_ISSUER : context.issuer,
    sub: await pairwiseSubject(context, client.clientId, persona.id),
    aud: faults.has('wrong_audience') ? FAULTY_AUDIENCE : client.clientId,
    exp,
    iat,
    // Authentication cannot follow the token's issue; only the `expired` fault moves iat back.
    auth_time: Math.min(grant.authTime, iat),
    nonce: faults.has('wrong_nonce') ? base64url.encode(crypto.getRandomValues(new Uint8Array(24))) : grant.nonce,
    acr: ACR,
    amr: [...AMR],
    verified_claims: await verifiedClaimsFor(persona, grant.claims),
  };

  const signingKey = await signingKeyFor(context, faults);
  const signed = await new SignJWT(payload)
    .setProtectedHeader({ alg: signingKey.alg ?? ID_TOKEN_SIGNING_ALGORITHM, kid: signingKey.kid, typ: 'JWT' })
    .sign(signingKey.privateKey);
  if (faults.has('unencrypted')) return signed;

  const encryptionKey = encryptionKeyOf(client);
  const algorithm = faults.has('wrong_jwe_algorithm') ? FAULTY_ENCRYPTION_ALGORITHM : ID_TOKEN_ENCRYPTION_ALGORITHM;
  return new CompactEncrypt(new TextEncoder().encode(signed))
    .setProtectedHeader({
      alg: algorithm,
      enc: ID_TOKEN_CONTENT_ENCRYPTION,
      kid: encryptionKey.kid,
      cty: 'JWT',
    })
    .encrypt(await importEncryptionKey(encryptionKey, algorithm));
}

/** `wrong_jwe_algorithm`: RSA-OAEP with SHA-1, the older sibling of the RSA-OAEP-256 of 2.5. */
const FAULTY_ENCRYPTION_ALGORITHM = 'RSA-OAEP';

/**
 * The current key of the ring (5.6), or, for the signature faults, a fresh key that no JWKS has:
 * under the current key's kid (`unknown_signing_key`: the signature cannot verify) or its own
 * (`unknown_kid`: no key can be found).
 * @see spec 2.7, 4.4, 5.6
 */
async function signingKeyFor(
  context: EmulatorContext,
  faults: ReadonlySet<FaultId>,
): Promise<{ kid: string; privateKey: CryptoKey; alg?: string }> {
  const current = (await context.signingKeys()).current();
  // `signed_ps256`, `signed_es384`: another algorithm than 2.5's ES256, under the current kid.
  if (faults.has('signed_ps256')) {
    return { kid: current.kid, alg: 'PS256', privateKey: (await generateKeyPair('PS256')).privateKey };
  }
  if (faults.has('signed_es384')) {
    return { kid: current.kid, alg: 'ES384', privateKey: (await generateKeyPair('ES384')).privateKey };
  }
  if (faults.has('unknown_signing_key')) {
    return { kid: current.kid, privateKey: (await createUnpublishedSigningKey()).privateKey };
  }
  if (faults.has('unknown_kid')) return createUnpublishedSigningKey();
  return { kid: current.kid, privateKey: await current.privateKey() };
}

type EncryptionAlgorithm = typeof ID_TOKEN_ENCRYPTION_ALGORITHM | typeof FAULTY_ENCRYPTION_ALGORITHM;

const importedKeys = new WeakMap<ClientEncryptionKey, Map<EncryptionAlgorithm, Promise<CryptoKey>>>();

/**
 * The client's RSA key as a CryptoKey for `algorithm`. WebCrypto binds the hash to the key, so
 * RSA-OAEP (SHA-1) needs an import of its own, under that `alg` rather than the registered one.
 */
function importEncryptionKey(key: ClientEncryptionKey, algorithm: EncryptionAlgorithm): Promise<CryptoKey> {
  let byAlgorithm = importedKeys.get(key);
  if (!byAlgorithm) {
    byAlgorithm = new Map();
    importedKeys.set(key, byAlgorithm);
  }
  let imported = byAlgorithm.get(algorithm);
  if (!imported) {
    imported = importJWK({ ...key, alg: algorithm }, algorithm) as Promise<CryptoKey>;
    byAlgorithm.set(algorithm, imported);
  }
  return imported;
}
