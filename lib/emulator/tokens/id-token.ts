/**
 * The ID token (2.6): built from the persona and the claims request with data minimisation,
 * signed with the emulator's ES256 key (kid = certificate serial), then encrypted to the client's
 * registered RSA key with the client's variant (RSA-OAEP-256 / A256GCM unless registered or set
 * otherwise; config.ts lists the variants).
 * @see spec part 1 "Data minimisation", 2.5, 2.6, 5.6
 */
import { CompactEncrypt, SignJWT, base64url, decodeProtectedHeader, exportSPKI, generateKeyPair, importJWK, type JWTPayload } from 'jose';
import { type ClaimName, type ClaimsRequest, type DocumentDetail, type TrustFramework } from '../checks/claims-request';
import { encryptionKeyOf, type ClientEncryptionKey, type RegisteredClient } from '../clients';
import { ACR, AMR, ID_TOKEN_SIGNING_ALGORITHM, LIFETIMES, type IdTokenEncryption, type IdTokenEncryptionAlgorithm } from '../config';
import { nowSeconds, type EmulatorContext } from '../context';
import type { EmulatorEventMap, IssuedIdToken } from '../events';
import { loadPortrait, populationRegisterMatch, type DocumentData, type Persona } from '../personas/personas';
import {
  EXPIRED_SECONDS_AGO,
  FAULTY_AUDIENCE,
  FAULTY_ISSUER,
  ID_TOKEN_ENCRYPTION_VARIANTS,
  ISSUED_SECONDS_AHEAD,
  NOT_AN_IMAGE_PICTURE,
  SKEWED_SECONDS_AHEAD,
  type IdTokenEncryptionVariant,
  type IdTokenFault,
} from '../answer-faults';
import type { AuthorizationCodeGrant } from '../state';
import { encryptWithRsa1_5 } from './rsa1_5-jwe';
import { createUnpublishedSigningKey } from './signing-keys';

/**
 * Response syntax of an evidence element. @see spec 2.6 `verified_claims.verification.evidence`
 *
 * The `electronic_record` element is a guess: spec 2.3 shows only the request of population
 * register evidence, and says only that `record.personal_number` is "returned in the response".
 * Its shape here follows OpenID Connect for Identity Assurance 1.0's `electronic_record`
 * (plain `type` strings in the response, as 2.6 says of evidence). Other shapes are as plausible:
 * `record.type` as `{ "value": "population_register" }` as in the request, `personal_number` as an
 * object `{ "type": "no-fnr", "value": ... }` as the document's is, or `source` as a plain string
 * (DECISIONS.md "ID token").
 */
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
 * At the strict level a document element none of whose requested details the persona has is left
 * out too (never an empty `document_details`); at the default level it stays, with
 * `document_details: {}` (DECISIONS.md "ID token").
 * @see spec part 1 "Data minimisation", 2.3, 2.6
 */
export async function verifiedClaimsFor(persona: Persona, request: ClaimsRequest, { strict = false }: { strict?: boolean } = {}): Promise<VerifiedClaims> {
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
      const details = documentDetails(persona.document, requested.details);
      if (!strict || Object.keys(details).length > 0) evidence.push({ type: 'document', document_details: details });
    } else {
      const personalNumber = populationRegisterMatch(persona, requested.personalNumber);
      if (personalNumber !== undefined) {
        // The response shape is a guess (see EvidenceResponse): spec 2.3 shows only the request.
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
 * header {alg, kid, typ}) and encrypted with the client's variant (JWE, header {alg, enc, kid,
 * cty: "JWT"}).
 *
 * The listeners of `id_token.answering` (events.ts) may ask for ID token faults (answer-faults.ts),
 * made here, in the real token: each changes exactly one thing, a claim, the signing key or the
 * encryption. They may also set a given name (QA's, for this flow): it replaces the persona's,
 * and appears only where the persona's would (when `given_name` was requested).
 * @param options.strict the level of the token request (checks/levels.ts)
 * @see spec 2.5, 2.6, 5.6
 */
export async function issueIdToken(
  context: EmulatorContext,
  client: RegisteredClient,
  grant: AuthorizationCodeGrant,
  persona: Persona,
  { strict = false }: { strict?: boolean } = {},
): Promise<IssuedIdToken> {
  const answering: EmulatorEventMap['id_token.answering'] = {
    clientId: client.clientId,
    state: grant.state,
    pictureRequested: grant.claims.claims.some(({ name }) => name === 'picture'),
    faults: new Set(),
    jwksFaults: [],
  };
  await context.events.emit('id_token.answering', answering);
  const { faults, jwksFaults, givenName } = answering;
  const now = nowSeconds(context);
  // `expired`: the whole lifetime lies in the past, so only the exp check (4.5) can catch it;
  // `issued_in_future`: the whole lifetime lies ahead, so only the iat check can;
  // `clock_skew_within_tolerance`: iat a little ahead, exp as usual.
  const exp = faults.has('expired')
    ? now - EXPIRED_SECONDS_AGO
    : faults.has('issued_in_future')
      ? now + ISSUED_SECONDS_AHEAD + LIFETIMES.idToken
      : now + LIFETIMES.idToken;
  const iat = faults.has('clock_skew_within_tolerance') ? now + SKEWED_SECONDS_AHEAD : exp - LIFETIMES.idToken;
  const subject = givenName === undefined ? persona : { ...persona, claims: { ...persona.claims, given_name: givenName } };
  const payload: JWTPayload = {
    iss: faults.has('wrong_issuer') ? FAULTY_ISSUER : context.issuer,
    sub: await pairwiseSubject(context, client.clientId, persona.id),
    aud: audienceFor(client.clientId, faults),
    ...(faults.has('extra_audience') ? { azp: client.clientId } : {}),
    exp,
    iat,
    // Authentication cannot follow the token's issue; only the `expired` fault moves iat back.
    auth_time: Math.min(grant.authTime, iat),
    nonce: faults.has('wrong_nonce') ? base64url.encode(crypto.getRandomValues(new Uint8Array(24))) : grant.nonce,
    acr: ACR,
    amr: [...AMR],
    verified_claims: claimsSetFor(await verifiedClaimsFor(subject, grant.claims, { strict }), faults),
  };
  if (faults.has('minimal_token')) for (const claim of ['auth_time', 'acr', 'amr']) delete payload[claim];
  // The claim faults that take a claim away: each leaves the rest of the token as it was.
  if (faults.has('missing_issuer')) delete payload.iss;
  if (faults.has('missing_expiry')) delete payload.exp;
  if (faults.has('missing_audience')) delete payload.aud;
  if (faults.has('missing_nonce')) delete payload.nonce;
  if (faults.has('missing_subject')) delete payload.sub;

  const signed = await signIdToken(context, payload, faults);
  const applied = [...faults, ...jwksFaults];
  const issued = { payload, signatureHeader: decodeHeader(signed) as IssuedIdToken['signatureHeader'], faults: applied };
  if (faults.has('unencrypted')) return { idToken: signed, ...issued };
  // An encryption variant: exactly its alg and enc, whatever the client's variant.
  const [encryption] = [...faults].flatMap((id) =>
    Object.hasOwn(ID_TOKEN_ENCRYPTION_VARIANTS, id) ? [ID_TOKEN_ENCRYPTION_VARIANTS[id as IdTokenEncryptionVariant]] : [],
  );
  const jwe = await encryptIdToken(
    new TextEncoder().encode(signed),
    encryptionKeyOf(client),
    encryption ?? (await context.idTokenEncryption(client.clientId)),
    faults,
  );
  const encryptionHeader = decodeHeader(jwe) as NonNullable<IssuedIdToken['encryptionHeader']>;
  return { idToken: faults.has('jwe_tag_tampered') ? withTamperedTag(jwe) : jwe, ...issued, encryptionHeader };
}

/** The protected header of a compact JWS or JWE the emulator just made. */
function decodeHeader(compact: string): Record<string, unknown> {
  return decodeProtectedHeader(compact);
}

/** `aud` (2.6: the client_id), or what an audience fault or variant makes of it. */
function audienceFor(clientId: string, faults: ReadonlySet<IdTokenFault>): string | string[] {
  if (faults.has('wrong_audience')) return FAULTY_AUDIENCE;
  // OpenID Connect Core 3.1.3.7 item 3: an audience the client does not trust; item 4's azp is added beside it.
  if (faults.has('extra_audience')) return [clientId, FAULTY_AUDIENCE];
  if (faults.has('aud_array')) return [clientId];
  return clientId;
}

/** Where the `unknown_verified_claims_members` variant adds members: names no spec uses. */
const UNKNOWN_MEMBER = 'x_emulator_unlisted';

/**
 * `verified_claims` as issued, or as a claims-set variant makes it: members the spec does not
 * name at every level (`unknown_verified_claims_members`), a single claim and no evidence
 * (`minimal_token`), or a remote URL as `picture` (`picture_not_image`).
 * @see spec 2.3 "Verified claims fields", 2.6; OpenID Connect for Identity Assurance 1.0 §5
 */
function claimsSetFor(verifiedClaims: VerifiedClaims, faults: ReadonlySet<IdTokenFault>): Record<string, unknown> {
  if (faults.has('picture_not_image')) {
    return { ...verifiedClaims, claims: { ...verifiedClaims.claims, picture: NOT_AN_IMAGE_PICTURE } };
  }
  if (faults.has('minimal_token')) {
    // The given name when the token carries one (a kit compares it with what it chose), else the first claim.
    const entries = Object.entries(verifiedClaims.claims);
    const kept = entries.find(([name]) => name === 'given_name') ?? entries[0];
    return { verification: { trust_framework: verifiedClaims.verification.trust_framework }, claims: kept ? Object.fromEntries([kept]) : {} };
  }
  if (faults.has('unknown_verified_claims_members')) {
    const { verification, claims } = verifiedClaims;
    return {
      verification: {
        ...verification,
        ...(verification.evidence
          ? {
              evidence: verification.evidence.map((element) => ({
                ...element,
                ...('document_details' in element ? { document_details: { ...element.document_details, [UNKNOWN_MEMBER]: 'document detail' } } : {}),
                [UNKNOWN_MEMBER]: { note: 'evidence member' },
              })),
            }
          : {}),
        [UNKNOWN_MEMBER]: 'verification member',
      },
      claims: { ...claims, [UNKNOWN_MEMBER]: 'claim' },
      [UNKNOWN_MEMBER]: ['verified_claims member'],
    };
  }
  return { ...verifiedClaims };
}

/**
 * The signed token (JWS, ES256, header {alg, kid, typ}), or what a signature fault makes of it:
 * unsigned (`alg_none`), or HS256 with the current key's public key as the secret
 * (`hs256_public_key`: the key confusion a verifier that trusts the header's `alg` falls for).
 * @see spec 5.6; RFC 8725 §2.1, §3.1
 */
async function signIdToken(context: EmulatorContext, payload: JWTPayload, faults: ReadonlySet<IdTokenFault>): Promise<string> {
  if (faults.has('alg_none') || faults.has('hs256_public_key')) {
    const current = (await context.signingKeys()).current();
    if (faults.has('alg_none')) {
      const part = (value: object) => base64url.encode(JSON.stringify(value));
      return `${part({ alg: 'none', kid: current.kid, typ: 'JWT' })}.${part(payload)}.`;
    }
    const publicKey = (await importJWK({ ...current.publicJwk, x5c: undefined }, ID_TOKEN_SIGNING_ALGORITHM)) as CryptoKey;
    const secret = new TextEncoder().encode(await exportSPKI(publicKey));
    return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', kid: current.kid, typ: 'JWT' }).sign(secret);
  }
  const signingKey = await signingKeyFor(context, faults);
  return new SignJWT(payload)
    .setProtectedHeader({ alg: signingKey.alg ?? ID_TOKEN_SIGNING_ALGORITHM, kid: signingKey.kid, typ: 'JWT' })
    .sign(signingKey.privateKey);
}

/** `jwe_tag_tampered`: the JWE with one bit of its authentication tag (the fifth segment) flipped. @see RFC 7516 §7.1 */
function withTamperedTag(jwe: string): string {
  const segments = jwe.split('.');
  const tag = base64url.decode(segments[4]!);
  tag[0]! ^= 0x01;
  segments[4] = base64url.encode(tag);
  return segments.join('.');
}

/**
 * The JWE around the signed token (5.6): with the client's variant to its registered key, or, for
 * the encryption faults, with RSA1_5 (`wrong_jwe_algorithm`: refused by RFC 8725 §3.2) or to a
 * fresh RSA key that is not the client's, under its `kid` (`wrong_encryption_key`).
 * @see spec 2.5, 5.6; RFC 7516; RFC 7519 §5.2 (`cty` of a nested JWT)
 */
async function encryptIdToken(
  signed: Uint8Array,
  encryptionKey: ClientEncryptionKey,
  { alg, enc }: IdTokenEncryption,
  faults: ReadonlySet<IdTokenFault>,
): Promise<string> {
  if (faults.has('wrong_jwe_algorithm')) return encryptWithRsa1_5(signed, encryptionKey);
  const key = faults.has('wrong_encryption_key')
    ? (await generateKeyPair(alg, { modulusLength: 2048 })).publicKey
    : await importEncryptionKey(encryptionKey, alg);
  return new CompactEncrypt(signed).setProtectedHeader({ alg, enc, kid: encryptionKey.kid, cty: 'JWT' }).encrypt(key);
}

/**
 * The current key of the ring (5.6), or, for the signature faults, a fresh key that no JWKS has:
 * under the current key's kid (`unknown_signing_key`: the signature cannot verify) or its own
 * (`unknown_kid`: no key can be found).
 * @see spec 2.7, 4.4, 5.6
 */
async function signingKeyFor(context: EmulatorContext, faults: ReadonlySet<IdTokenFault>): Promise<{ kid: string; privateKey: CryptoKey; alg?: string }> {
  // `key_rotated_unpublished`: a key the JWKS has from now on only; it stays current after.
  const current = faults.has('key_rotated_unpublished') ? await (await context.signingKeys()).rotateUnannounced() : (await context.signingKeys()).current();
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

const importedKeys = new WeakMap<ClientEncryptionKey, Map<IdTokenEncryptionAlgorithm, Promise<CryptoKey>>>();

/**
 * The client's RSA key as a CryptoKey for `algorithm`. WebCrypto binds the hash to the key, so
 * RSA-OAEP (SHA-1) needs an import of its own, under that `alg` rather than the registered one.
 */
function importEncryptionKey(key: ClientEncryptionKey, algorithm: IdTokenEncryptionAlgorithm): Promise<CryptoKey> {
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
