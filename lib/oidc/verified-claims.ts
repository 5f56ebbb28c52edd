/**
 * Reads `verified_claims` from a validated ID token (2.6; OpenID Connect for Identity Assurance §5)
 * tolerantly: unknown members are ignored, values of the wrong type are dropped rather than
 * rendered, and what is absent stays absent (never guessed). A portrait is kept only as a
 * base64 `data:image/jpeg` or `data:image/png` URI.
 *
 * Copy with: nothing (no imports).
 */

/**
 * A document's personal number: `{ type: 'no-fnr', value }` for Norwegian documents, a plain
 * string (kept as `{ value }`) for others, when available (2.3 "Document evidence element").
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.4
 */
export interface PersonalNumber {
  /** `no-fnr` for Norwegian documents (2.3); absent for the plain-string form */
  type?: string;
  value: string;
}

/**
 * The document details the token returned (2.3 "Document evidence element"); only those requested
 * and available are present. Dates are checked ISO 8601 dates, country codes ISO 3166-1 alpha-3.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.7.2
 */
export interface DocumentDetails {
  type?: string;
  document_number?: string;
  date_of_issuance?: string;
  date_of_expiry?: string;
  issuer?: { country_code?: string; name?: string };
  personal_number?: PersonalNumber;
  active_authentication_result?: string;
  issuer_check?: { valid: string };
}

/**
 * One check of an evidence (OIDC4IDA 1.0 `check_details`): how it was checked, by whom, and the
 * transaction. The spec's examples do not send it; a provider may.
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.1.1
 */
export interface CheckDetail {
  checkMethod: string;
  organization?: string;
  txn?: string;
  /** ISO 8601 date-time */
  time?: string;
}

/**
 * An attachment of an evidence (OIDC4IDA 1.0 `attachments`), described, never fetched or
 * rendered: embedded content is kept only as its size; an external one only by its https URL.
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.1.2
 */
export interface Attachment {
  description?: string;
  contentType?: string;
  /** embedded content: its size in bytes (decoded from base64) */
  embeddedBytes?: number;
  /** an external attachment's https URL */
  url?: string;
}

/**
 * What OIDC4IDA 1.0 adds to any evidence beyond the spec's examples: check details and
 * attachments. Present only when the provider sent them; never required.
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.1
 */
export interface EvidenceExtras {
  checkDetails?: CheckDetail[];
  attachments?: Attachment[];
}

/**
 * Evidence of type `document`: a scanned passport or ID card.
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.2
 */
export interface DocumentEvidence extends EvidenceExtras {
  type: 'document';
  documentDetails: DocumentDetails;
}

/**
 * Evidence of type `electronic_record`: the population register, with the personal number it
 * matched when one was found.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.2
 */
export interface ElectronicRecordEvidence extends EvidenceExtras {
  type: 'electronic_record';
  record: { type?: string; sourceName?: string; personalNumber?: string };
}

/**
 * One evidence element of `verified_claims.verification.evidence`; types we do not know are dropped.
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.2
 */
export type Evidence = DocumentEvidence | ElectronicRecordEvidence;

/**
 * The verified claims the token returned (2.3 "Verified claims fields"), each only when present
 * and of the right form.
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.7.2
 */
export interface IdentityClaims {
  name?: string;
  given_name?: string;
  family_name?: string;
  /** a validated `data:image/(jpeg|png);base64,…` URI */
  picture?: string;
  gender?: string;
  birthdate?: string;
  nationalities?: string[];
}

/**
 * One `verified_claims` element, read: the trust framework, the evidence and the claims.
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.2
 */
export interface VerifiedClaims {
  trustFramework?: string;
  /** `verification.time` (OIDC4IDA 1.0), ISO 8601 date-time, when sent */
  verificationTime?: string;
  /** `verification.assurance_level` (OIDC4IDA 1.0), when sent */
  assuranceLevel?: string;
  evidence: Evidence[];
  claims: IdentityClaims;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * ISO 8601 calendar date `YYYY-MM-DD` that exists.
 * @returns the value itself when it is such a date; undefined otherwise
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 */
export function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value) ? value : undefined;
}

/** ISO 3166-1 alpha-3 */
function countryCode(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? value : undefined;
}

const PORTRAIT = /^data:image\/(?:jpeg|png);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * A portrait is kept, and so rendered, only if it is a base64 `data:image/jpeg` (or png) URI
 * (2.3 shows `data:image/jpeg;base64,<data>`). Anything else, such as a remote URL that a browser
 * would fetch when showing it, is dropped.
 * @returns the value itself when it is such a URI; undefined otherwise
 * @see Interface specification 2.3 "Claims request structure (`claims` parameter)"
 */
export function portraitDataUri(value: unknown): string | undefined {
  return typeof value === 'string' && PORTRAIT.test(value) ? value : undefined;
}

/** Drops members whose value is undefined, so "absent" has one representation. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * Why a member of `verified_claims` was left out of what `parseVerifiedClaims` returns: not of
 * the form it must have, or not one this reader knows (OIDC4IDA lets a provider send more).
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5
 */
export type DropReason =
  | 'not_an_object'
  | 'not_text'
  | 'not_a_date'
  | 'not_a_date_time'
  | 'not_a_country_code'
  | 'not_a_portrait'
  | 'not_a_list'
  | 'unknown_evidence_type'
  | 'no_check_method'
  | 'not_an_attachment'
  | 'over_the_limit'
  | 'unknown_member';

/**
 * A member of `verified_claims` that was dropped: where (`verified_claims[0].claims.birthdate`)
 * and why. Never its value, which may be personal data.
 */
export interface DroppedMember {
  path: string;
  reason: DropReason;
}

/** Receives each member dropped, with where and why. */
type Drop = (path: string, reason: DropReason) => void;

/** `parsed` (the value read from `value`); a value present but not read is reported as dropped. */
function kept<T>(value: unknown, parsed: T | undefined, path: string, reason: DropReason, drop: Drop): T | undefined {
  if (value !== undefined && parsed === undefined) drop(path, reason);
  return parsed;
}

/** Reports the members of `value` this reader does not know. */
function unknownMembers(value: Json, known: readonly string[], path: string, drop: Drop): void {
  for (const name of Object.keys(value)) if (!known.includes(name)) drop(`${path}.${name}`, 'unknown_member');
}

/** `value` when it is an object; otherwise reported (when present) and undefined. */
function object(value: unknown, path: string, drop: Drop): Json | undefined {
  return kept(value, isObject(value) ? value : undefined, path, 'not_an_object', drop);
}

/** Evidence `type` is a plain string in the response (2.6); the request form `{value}` is tolerated. */
function evidenceType(value: unknown): string | undefined {
  return text(value) ?? (isObject(value) ? text(value.value) : undefined);
}

const CLAIMS = ['name', 'given_name', 'family_name', 'picture', 'gender', 'birthdate', 'nationalities'] as const;

function parseClaims(value: unknown, path: string, drop: Drop): IdentityClaims {
  const claims = object(value, path, drop);
  if (!claims) return {};
  unknownMembers(claims, CLAIMS, path, drop);
  const at = (name: string) => `${path}.${name}`;
  let nationalities: string[] | undefined;
  if (Array.isArray(claims.nationalities)) {
    nationalities = [];
    claims.nationalities.forEach((item, index) => {
      const code = kept(item, countryCode(item), `${at('nationalities')}[${index}]`, 'not_a_country_code', drop);
      if (code !== undefined) nationalities!.push(code);
    });
  } else {
    kept(claims.nationalities, undefined, at('nationalities'), 'not_a_list', drop);
  }
  const textClaim = (name: 'name' | 'given_name' | 'family_name' | 'gender') => kept(claims[name], text(claims[name]), at(name), 'not_text', drop);
  return compact({
    name: textClaim('name'),
    given_name: textClaim('given_name'),
    family_name: textClaim('family_name'),
    picture: kept(claims.picture, portraitDataUri(claims.picture), at('picture'), 'not_a_portrait', drop),
    gender: textClaim('gender'),
    birthdate: kept(claims.birthdate, isoDate(claims.birthdate), at('birthdate'), 'not_a_date', drop),
    nationalities: nationalities && nationalities.length > 0 ? nationalities : undefined,
  });
}

function parsePersonalNumber(value: unknown, path: string, drop: Drop): PersonalNumber | undefined {
  const plain = text(value);
  if (plain) return { value: plain };
  if (isObject(value) && text(value.value)) {
    unknownMembers(value, ['type', 'value'], path, drop);
    return compact({ type: kept(value.type, text(value.type), `${path}.type`, 'not_text', drop), value: text(value.value)! });
  }
  return kept(value, undefined, path, 'not_text', drop);
}

const DOCUMENT_DETAILS = [
  'type',
  'document_number',
  'date_of_issuance',
  'date_of_expiry',
  'issuer',
  'personal_number',
  'active_authentication_result',
  'issuer_check',
] as const;

function parseDocumentDetails(value: unknown, path: string, drop: Drop): DocumentDetails {
  const details = object(value, path, drop);
  if (!details) return {};
  unknownMembers(details, DOCUMENT_DETAILS, path, drop);
  const at = (name: string) => `${path}.${name}`;
  const textMember = (source: Json, name: string, where: string) => kept(source[name], text(source[name]), where, 'not_text', drop);
  const issuerObject = object(details.issuer, at('issuer'), drop);
  if (issuerObject) unknownMembers(issuerObject, ['country_code', 'name'], at('issuer'), drop);
  const issuer = issuerObject
    ? compact({
        country_code: kept(issuerObject.country_code, countryCode(issuerObject.country_code), `${at('issuer')}.country_code`, 'not_a_country_code', drop),
        name: textMember(issuerObject, 'name', `${at('issuer')}.name`),
      })
    : undefined;
  const checkObject = object(details.issuer_check, at('issuer_check'), drop);
  if (checkObject) unknownMembers(checkObject, ['valid'], at('issuer_check'), drop);
  const valid = checkObject ? textMember(checkObject, 'valid', `${at('issuer_check')}.valid`) : undefined;
  return compact({
    type: textMember(details, 'type', at('type')),
    document_number: textMember(details, 'document_number', at('document_number')),
    date_of_issuance: kept(details.date_of_issuance, isoDate(details.date_of_issuance), at('date_of_issuance'), 'not_a_date', drop),
    date_of_expiry: kept(details.date_of_expiry, isoDate(details.date_of_expiry), at('date_of_expiry'), 'not_a_date', drop),
    issuer: issuer && Object.keys(issuer).length > 0 ? issuer : undefined,
    personal_number: parsePersonalNumber(details.personal_number, at('personal_number'), drop),
    active_authentication_result: textMember(details, 'active_authentication_result', at('active_authentication_result')),
    issuer_check: valid === undefined ? undefined : { valid },
  });
}

/** An ISO 8601 date-time with a time zone (OIDC4IDA 1.0 `time`), e.g. `2026-11-23T10:15:00Z`. */
function isoDateTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return undefined;
  return Number.isNaN(Date.parse(value)) ? undefined : value;
}

/** At most this many check details or attachments are kept from one evidence. */
const MAX_LISTED = 20;

/** The objects of a list, at most MAX_LISTED; the rest reported. */
function listed(value: unknown, path: string, drop: Drop): [Json, string][] {
  if (!Array.isArray(value)) {
    kept(value, undefined, path, 'not_a_list', drop);
    return [];
  }
  const items: [Json, string][] = [];
  value.forEach((item, index) => {
    const where = `${path}[${index}]`;
    if (index >= MAX_LISTED) drop(where, 'over_the_limit');
    else if (isObject(item)) items.push([item, where]);
    else drop(where, 'not_an_object');
  });
  return items;
}

function parseCheckDetails(value: unknown, path: string, drop: Drop): CheckDetail[] | undefined {
  const details: CheckDetail[] = [];
  for (const [detail, where] of listed(value, path, drop)) {
    const checkMethod = text(detail.check_method);
    if (checkMethod === undefined) {
      drop(where, 'no_check_method');
      continue;
    }
    unknownMembers(detail, ['check_method', 'organization', 'txn', 'time'], where, drop);
    details.push(
      compact({
        checkMethod,
        organization: kept(detail.organization, text(detail.organization), `${where}.organization`, 'not_text', drop),
        txn: kept(detail.txn, text(detail.txn), `${where}.txn`, 'not_text', drop),
        time: kept(detail.time, isoDateTime(detail.time), `${where}.time`, 'not_a_date_time', drop),
      }),
    );
  }
  return details.length > 0 ? details : undefined;
}

function parseAttachments(value: unknown, path: string, drop: Drop): Attachment[] | undefined {
  const attachments: Attachment[] = [];
  for (const [attachment, where] of listed(value, path, drop)) {
    const content = typeof attachment.content === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(attachment.content) ? attachment.content : undefined;
    const url = text(attachment.url);
    const read = compact({
      description: text(attachment.desc),
      contentType: text(attachment.content_type),
      embeddedBytes: content === undefined ? undefined : Math.floor((content.replace(/=+$/, '').length * 3) / 4),
      url: url && /^https:\/\/[^\s]+$/.test(url) ? url : undefined,
    });
    if (read.embeddedBytes === undefined && read.url === undefined) drop(where, 'not_an_attachment');
    else attachments.push(read);
  }
  return attachments.length > 0 ? attachments : undefined;
}

function parseExtras(value: Json, path: string, drop: Drop): EvidenceExtras {
  return compact({
    checkDetails: parseCheckDetails(value.check_details, `${path}.check_details`, drop),
    attachments: parseAttachments(value.attachments, `${path}.attachments`, drop),
  });
}

function parseEvidence(value: unknown, path: string, drop: Drop): Evidence | undefined {
  const evidence = object(value, path, drop);
  if (!evidence) return undefined;
  const type = evidenceType(evidence.type);
  if (type === 'document') {
    unknownMembers(evidence, ['type', 'document_details', 'check_details', 'attachments'], path, drop);
    return { type, documentDetails: parseDocumentDetails(evidence.document_details, `${path}.document_details`, drop), ...parseExtras(evidence, path, drop) };
  }
  if (type === 'electronic_record') {
    // Spec 2.3 shows only the request of this evidence. The service's response is read in the
    // shape of OpenID Connect for Identity Assurance 1.0's electronic_record (`record.type`,
    // `record.source.name`, `record.personal_number` as strings), and in the other plausible
    // shapes: `type` as `{ "value": … }` as in the request, `source` as a plain name, and the
    // personal number as an object `{ type, value }` as the document's is.
    unknownMembers(evidence, ['type', 'record', 'check_details', 'attachments'], path, drop);
    const at = `${path}.record`;
    const record = object(evidence.record, at, drop) ?? {};
    unknownMembers(record, ['type', 'source', 'personal_number'], at, drop);
    const source = text(record.source) ?? (isObject(record.source) ? text(record.source.name) : undefined);
    return {
      type,
      record: compact({
        type: kept(record.type, evidenceType(record.type), `${at}.type`, 'not_text', drop),
        sourceName: kept(record.source, source, `${at}.source`, 'not_text', drop),
        personalNumber: parsePersonalNumber(record.personal_number, `${at}.personal_number`, drop)?.value,
      }),
      ...parseExtras(evidence, path, drop),
    };
  }
  drop(`${path}.type`, 'unknown_evidence_type'); // an evidence type we do not know is ignored
  return undefined;
}

function parseOne(value: unknown, path: string, drop: Drop): VerifiedClaims | undefined {
  const element = object(value, path, drop);
  if (!element) return undefined;
  unknownMembers(element, ['verification', 'claims'], path, drop);
  const at = `${path}.verification`;
  const verification = object(element.verification, at, drop) ?? {};
  unknownMembers(verification, ['trust_framework', 'time', 'assurance_level', 'evidence'], at, drop);
  const evidence: Evidence[] = [];
  if (Array.isArray(verification.evidence)) {
    verification.evidence.forEach((item, index) => {
      const read = parseEvidence(item, `${at}.evidence[${index}]`, drop);
      if (read) evidence.push(read);
    });
  } else {
    kept(verification.evidence, undefined, `${at}.evidence`, 'not_a_list', drop);
  }
  return compact({
    trustFramework: kept(verification.trust_framework, evidenceType(verification.trust_framework), `${at}.trust_framework`, 'not_text', drop),
    verificationTime: kept(verification.time, isoDateTime(verification.time), `${at}.time`, 'not_a_date_time', drop),
    assuranceLevel: kept(verification.assurance_level, text(verification.assurance_level), `${at}.assurance_level`, 'not_text', drop),
    evidence,
    claims: parseClaims(element.claims, `${path}.claims`, drop),
  });
}

/**
 * Reads `verified_claims` as `parseVerifiedClaims` does, and says what it left out: every member
 * dropped, with its path and the reason, in the order met (never its value).
 * @param value the `verified_claims` claim of a validated ID token (absent gives an empty list)
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.2
 */
export function readVerifiedClaims(value: unknown): { verifiedClaims: VerifiedClaims[]; dropped: DroppedMember[] } {
  const dropped: DroppedMember[] = [];
  const drop: Drop = (path, reason) => void dropped.push({ path, reason });
  if (value === undefined) return { verifiedClaims: [], dropped };
  const list = Array.isArray(value) ? value.map((item, index) => [item, `verified_claims[${index}]`] as const) : [[value, 'verified_claims'] as const];
  const verifiedClaims = list.map(([item, path]) => parseOne(item, path, drop)).filter((v): v is VerifiedClaims => v !== undefined);
  return { verifiedClaims, dropped };
}

/**
 * Parses `verified_claims`, which OIDC4IDA allows to be one object or an array of them.
 * @param value the `verified_claims` claim of a validated ID token (absent gives an empty list)
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.2
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.6
 */
export function parseVerifiedClaims(value: unknown): VerifiedClaims[] {
  return readVerifiedClaims(value).verifiedClaims;
}
