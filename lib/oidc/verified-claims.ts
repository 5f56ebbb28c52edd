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

/** Evidence `type` is a plain string in the response (2.6); the request form `{value}` is tolerated. */
function evidenceType(value: unknown): string | undefined {
  return text(value) ?? (isObject(value) ? text(value.value) : undefined);
}

function parseClaims(value: unknown): IdentityClaims {
  if (!isObject(value)) return {};
  const nationalities = Array.isArray(value.nationalities)
    ? value.nationalities.map(countryCode).filter((code): code is string => code !== undefined)
    : undefined;
  return compact({
    name: text(value.name),
    given_name: text(value.given_name),
    family_name: text(value.family_name),
    picture: portraitDataUri(value.picture),
    gender: text(value.gender),
    birthdate: isoDate(value.birthdate),
    nationalities: nationalities && nationalities.length > 0 ? nationalities : undefined,
  });
}

function parsePersonalNumber(value: unknown): PersonalNumber | undefined {
  const plain = text(value);
  if (plain) return { value: plain };
  if (isObject(value) && text(value.value)) return compact({ type: text(value.type), value: text(value.value)! });
  return undefined;
}

function parseDocumentDetails(value: unknown): DocumentDetails {
  if (!isObject(value)) return {};
  const issuer = isObject(value.issuer)
    ? compact({ country_code: countryCode(value.issuer.country_code), name: text(value.issuer.name) })
    : undefined;
  const issuerCheck = isObject(value.issuer_check) && text(value.issuer_check.valid) ? { valid: text(value.issuer_check.valid)! } : undefined;
  return compact({
    type: text(value.type),
    document_number: text(value.document_number),
    date_of_issuance: isoDate(value.date_of_issuance),
    date_of_expiry: isoDate(value.date_of_expiry),
    issuer: issuer && Object.keys(issuer).length > 0 ? issuer : undefined,
    personal_number: parsePersonalNumber(value.personal_number),
    active_authentication_result: text(value.active_authentication_result),
    issuer_check: issuerCheck,
  });
}

/** An ISO 8601 date-time with a time zone (OIDC4IDA 1.0 `time`), e.g. `2026-11-23T10:15:00Z`. */
function isoDateTime(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return undefined;
  return Number.isNaN(Date.parse(value)) ? undefined : value;
}

/** At most this many check details or attachments are kept from one evidence. */
const MAX_LISTED = 20;

function parseCheckDetails(value: unknown): CheckDetail[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const details: CheckDetail[] = [];
  for (const detail of value.filter(isObject).slice(0, MAX_LISTED)) {
    const checkMethod = text(detail.check_method);
    if (checkMethod === undefined) continue;
    details.push(compact({ checkMethod, organization: text(detail.organization), txn: text(detail.txn), time: isoDateTime(detail.time) }));
  }
  return details.length > 0 ? details : undefined;
}

function parseAttachments(value: unknown): Attachment[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const attachments = value
    .filter(isObject)
    .map((attachment) => {
      const content = typeof attachment.content === 'string' && /^[A-Za-z0-9+/_-]*={0,2}$/.test(attachment.content) ? attachment.content : undefined;
      const url = text(attachment.url);
      return compact({
        description: text(attachment.desc),
        contentType: text(attachment.content_type),
        embeddedBytes: content === undefined ? undefined : Math.floor((content.replace(/=+$/, '').length * 3) / 4),
        url: url && /^https:\/\/[^\s]+$/.test(url) ? url : undefined,
      });
    })
    .filter((attachment) => attachment.embeddedBytes !== undefined || attachment.url !== undefined)
    .slice(0, MAX_LISTED);
  return attachments.length > 0 ? attachments : undefined;
}

function parseExtras(value: Json): EvidenceExtras {
  return compact({ checkDetails: parseCheckDetails(value.check_details), attachments: parseAttachments(value.attachments) });
}

function parseEvidence(value: unknown): Evidence | undefined {
  if (!isObject(value)) return undefined;
  const type = evidenceType(value.type);
  if (type === 'document') return { type, documentDetails: parseDocumentDetails(value.document_details), ...parseExtras(value) };
  if (type === 'electronic_record') {
    // Spec 2.3 shows only the request of this evidence. The service's response is read in the
    // shape of OpenID Connect for Identity Assurance 1.0's electronic_record (`record.type`,
    // `record.source.name`, `record.personal_number` as strings), and in the other plausible
    // shapes: `type` as `{ "value": … }` as in the request, `source` as a plain name, and the
    // personal number as an object `{ type, value }` as the document's is.
    const record = isObject(value.record) ? value.record : {};
    return {
      type,
      record: compact({
        type: evidenceType(record.type),
        sourceName: text(record.source) ?? (isObject(record.source) ? text(record.source.name) : undefined),
        personalNumber: parsePersonalNumber(record.personal_number)?.value,
      }),
      ...parseExtras(value),
    };
  }
  return undefined; // an evidence type we do not know is ignored
}

function parseOne(value: unknown): VerifiedClaims | undefined {
  if (!isObject(value)) return undefined;
  const verification = isObject(value.verification) ? value.verification : {};
  const evidence = Array.isArray(verification.evidence)
    ? verification.evidence.map(parseEvidence).filter((e): e is Evidence => e !== undefined)
    : [];
  return compact({
    trustFramework: evidenceType(verification.trust_framework),
    verificationTime: isoDateTime(verification.time),
    assuranceLevel: text(verification.assurance_level),
    evidence,
    claims: parseClaims(value.claims),
  });
}

/**
 * Parses `verified_claims`, which OIDC4IDA allows to be one object or an array of them.
 * @param value the `verified_claims` claim of a validated ID token (absent gives an empty list)
 * @see Interface specification 2.6 "ID token payload (the inner signed JWT)"
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.2
 * @see https://openid.net/specs/openid-connect-4-identity-assurance-1_0.html#section-5.6
 */
export function parseVerifiedClaims(value: unknown): VerifiedClaims[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map(parseOne).filter((v): v is VerifiedClaims => v !== undefined);
}
