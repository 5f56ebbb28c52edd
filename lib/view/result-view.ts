/**
 * Turns a verification result into what the result page shows: each requested item with its value,
 * "not provided" when the service returned nothing for it, "not requested" when we never asked
 * (never guessed). Pure functions; dates are compared in UTC.
 */
import type { DocumentDetail, Selection } from '@/lib/oidc/types';
import type { DocumentDetails, EvidenceExtras, VerifiedClaims } from '@/lib/oidc/verified-claims';
import { countryName, formatDate, formatDateTime, formatTime, formatYears } from '@/lib/i18n/format';
import type { Locale } from '@/lib/i18n/locale';
import type { SigningCertificateCheck } from '@/lib/verification/signing-certificate';
import { ageOn, mergeVerifiedClaims } from '@/lib/verification/verified-identity';
import { RESULT_MESSAGES } from './result-messages';

export type Field = { state: 'value'; text: string; hint?: string } | { state: 'not_provided' } | { state: 'not_requested' };

function field(requested: boolean, value: string | undefined, hint?: string): Field {
  if (!requested) return { state: 'not_requested' };
  if (value === undefined) return { state: 'not_provided' };
  return hint === undefined ? { state: 'value', text: value } : { state: 'value', text: value, hint };
}

/** A word of a table (genders, document types) for a value, or the value as the provider sent it. */
function wordFor(words: Record<string, string>, value: string): string {
  return Object.hasOwn(words, value) ? words[value]! : value;
}

export interface IdentityView {
  portrait: { state: 'value'; src: string } | { state: 'not_provided' } | { state: 'not_requested' };
  name: Field;
  givenName: Field;
  familyName: Field;
  birthdate: Field;
  gender: Field;
  nationalities: Field;
}

export interface DocumentView {
  requested: boolean;
  /** false when document evidence was requested but none came back */
  provided: boolean;
  type: Field;
  number: Field;
  issuingCountry: Field;
  issuingAuthority: Field;
  dateOfIssuance: Field;
  dateOfExpiry: Field;
  /** valid or expired on `today`; undefined without an expiry date */
  expired: boolean | undefined;
  personalNumber: Field;
  chipAuthentication: Field;
  issuerCheck: Field;
  /** OIDC4IDA 1.0 check details and attachments, one line each, when the provider sent them */
  extras: string[];
}

export interface PopulationRegisterView {
  requested: boolean;
  /** false when register evidence was requested but none came back (no match, or not entitled) */
  provided: boolean;
  /** the personal number we asked the register to look up, if any */
  lookedUp: string | undefined;
  source: Field;
  personalNumber: Field;
  /** OIDC4IDA 1.0 check details and attachments, one line each, when the provider sent them */
  extras: string[];
}

export interface ResultView {
  trustFramework: string | undefined;
  identity: IdentityView;
  document: DocumentView;
  populationRegister: PopulationRegisterView;
}

function identityView(verified: VerifiedClaims | undefined, selection: Selection, today: string, locale: Locale): IdentityView {
  const t = RESULT_MESSAGES[locale];
  const claims = verified?.claims ?? {};
  const asked = (name: keyof Selection['claims']) => selection.claims[name] !== undefined;
  const birthdate = claims.birthdate;
  return {
    portrait: !asked('picture') ? { state: 'not_requested' } : claims.picture ? { state: 'value', src: claims.picture } : { state: 'not_provided' },
    name: field(asked('name'), claims.name),
    givenName: field(asked('given_name'), claims.given_name),
    familyName: field(asked('family_name'), claims.family_name),
    birthdate: field(asked('birthdate'), birthdate && formatDate(birthdate, locale), birthdate && t.yearsOld(formatYears(ageOn(birthdate, today), locale))),
    gender: field(asked('gender'), claims.gender && wordFor(t.genders, claims.gender)),
    nationalities: field(asked('nationalities'), claims.nationalities?.map((code) => `${countryName(code, locale)} (${code})`).join(', ')),
  };
}

function documentView(verified: VerifiedClaims | undefined, selection: Selection, today: string, locale: Locale): DocumentView {
  const evidence = verified?.evidence.find((e) => e.type === 'document');
  const details: DocumentDetails = evidence?.type === 'document' ? evidence.documentDetails : {};
  const requested = selection.document !== undefined;
  const asked = (detail: DocumentDetail) => selection.document?.details.includes(detail) ?? false;
  const personal = details.personal_number;
  const expiry = details.date_of_expiry;
  return {
    requested,
    provided: evidence !== undefined,
    type: field(asked('type'), details.type && wordFor(RESULT_MESSAGES[locale].documentTypes, details.type)),
    number: field(asked('document_number'), details.document_number),
    issuingCountry: field(
      asked('issuer.country_code'),
      details.issuer?.country_code && `${countryName(details.issuer.country_code, locale)} (${details.issuer.country_code})`,
    ),
    issuingAuthority: field(asked('issuer.name'), details.issuer?.name),
    dateOfIssuance: field(asked('date_of_issuance'), details.date_of_issuance && formatDate(details.date_of_issuance, locale)),
    dateOfExpiry: field(asked('date_of_expiry'), expiry && formatDate(expiry, locale)),
    expired: expiry === undefined ? undefined : expiry < today,
    personalNumber: field(asked('personal_number'), personal?.value, personal?.type),
    chipAuthentication: field(
      asked('active_authentication_result'),
      details.active_authentication_result && wordFor(RESULT_MESSAGES[locale].chipResults, details.active_authentication_result),
    ),
    issuerCheck: field(asked('issuer_check'), details.issuer_check?.valid && wordFor(RESULT_MESSAGES[locale].issuerCheckValues, details.issuer_check.valid)),
    extras: evidence ? extrasLines(evidence, locale) : [],
  };
}

function populationRegisterView(verified: VerifiedClaims | undefined, selection: Selection, locale: Locale): PopulationRegisterView {
  const evidence = verified?.evidence.find((e) => e.type === 'electronic_record');
  const record = evidence?.type === 'electronic_record' ? evidence.record : undefined;
  const requested = selection.populationRegister !== undefined;
  return {
    requested,
    provided: record !== undefined,
    lookedUp: selection.populationRegister?.personalNumber,
    source: field(requested, record?.sourceName),
    personalNumber: field(requested, record?.personalNumber),
    extras: evidence ? extrasLines(evidence, locale) : [],
  };
}

/**
 * "Check: vcrypt by Politiet, transaction 1c6f…, 23 November 2026 10:15 UTC" and "Attachment:
 * Front of the card (image/jpeg, embedded, 24 KiB)": what OIDC4IDA 1.0 adds to an evidence, shown
 * as the provider sent it (never fetched or rendered).
 */
function extrasLines({ checkDetails = [], attachments = [] }: EvidenceExtras, locale: Locale): string[] {
  const t = RESULT_MESSAGES[locale];
  return [
    ...checkDetails.map((check) => t.check(check.checkMethod, check.organization, check.txn, check.time && formatDateTime(check.time, locale))),
    ...attachments.map((attachment) =>
      t.attachment(
        attachment.description,
        [
          attachment.contentType,
          attachment.embeddedBytes !== undefined ? t.embedded(Math.max(1, Math.round(attachment.embeddedBytes / 1024))) : undefined,
          attachment.url ? t.at(attachment.url) : undefined,
        ]
          .filter(Boolean)
          .join(', '),
      ),
    ),
  ];
}

/** @param today YYYY-MM-DD, the day against which age and expiry are judged */
export function buildResultView(verifiedClaims: VerifiedClaims[], selection: Selection, today: string, locale: Locale): ResultView {
  const verified = mergeVerifiedClaims(verifiedClaims);
  return {
    trustFramework: verified?.trustFramework,
    identity: identityView(verified, selection, today, locale),
    document: documentView(verified, selection, today, locale),
    populationRegister: populationRegisterView(verified, selection, locale),
  };
}

export interface VerificationView {
  /** the trust framework the token states, and whether it is the one we asked for */
  trustFramework: Field;
  trustFrameworkMatches: boolean;
  /** the service that issued the ID token (its `iss`, the configured issuer) */
  issuer: Field;
  /** false when the token carried no verified_claims at all */
  hasVerifiedClaims: boolean;
  acr: Field;
  amr: Field;
  authTime: Field;
  subject: Field;
  /** `verification.time` and `assurance_level` (OIDC4IDA 1.0): shown only when the provider sent them */
  verificationTime?: string;
  assuranceLevel?: string;
}

/**
 * passed: checked and as expected. failed: checked and not as expected, shown as a warning (the
 * token was still accepted: the spec does not require what failed). not_checked: said so, rather
 * than claimed.
 */
export type CheckOutcome = 'passed' | 'failed' | 'not_checked';

export interface Check {
  label: string;
  detail: string;
  outcome: CheckOutcome;
}

export interface VerificationInput {
  issuer: string;
  clientId: string;
  selection: Selection;
  verifiedClaims: VerifiedClaims[];
  idToken: {
    jweHeader: { alg?: string; enc?: string; kid?: string };
    jwsHeader: { alg: string; kid: string };
    claims: Record<string, unknown>;
  };
  signingCertificate?: { subject: string; issuer: string; serialNumber: string } | undefined;
  /** absent on a result stored before the certificate was checked */
  signingCertificateCheck?: SigningCertificateCheck | undefined;
}

/** A NumericDate as a UTC timestamp, or undefined when it is not a usable one. */
export function formatNumericDate(seconds: unknown): string | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || Math.abs(seconds * 1000) > 8.64e15) return undefined;
  return `${new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/**
 * A NumericDate (RFC 7519 section 2: seconds since the epoch) as a reader's date and time in UTC,
 * to the second: "25 November 2026, 01:11:58 UTC" | "25. november 2026 kl. 01:11:58 UTC".
 */
export function describeNumericDate(seconds: unknown, locale: Locale): string | undefined {
  const iso = formatNumericDate(seconds);
  return iso === undefined ? undefined : RESULT_MESSAGES[locale].numericDate(formatDate(iso.slice(0, 10), locale), iso.slice(11, 19));
}

/** The time of day (UTC) until which a result is kept, e.g. "14:05". */
export function keptUntilText(expiresAt: number, locale: Locale): string {
  return formatTime(expiresAt, locale);
}

function valueField(text: string | undefined): Field {
  return text === undefined || text === '' ? { state: 'not_provided' } : { state: 'value', text };
}

export function buildVerificationView(input: VerificationInput, locale: Locale): VerificationView {
  const { claims } = input.idToken;
  const first = input.verifiedClaims[0];
  const returned = first?.trustFramework;
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [];
  return {
    trustFramework: valueField(returned),
    trustFrameworkMatches: returned === input.selection.trustFramework,
    issuer: valueField(input.issuer),
    hasVerifiedClaims: input.verifiedClaims.length > 0,
    acr: valueField(typeof claims.acr === 'string' ? claims.acr : undefined),
    amr: valueField(amr.join(', ')),
    authTime: valueField(describeNumericDate(claims.auth_time, locale)),
    subject: valueField(typeof claims.sub === 'string' ? claims.sub : undefined),
    ...(first?.verificationTime ? { verificationTime: formatDateTime(first.verificationTime, locale) } : {}),
    ...(first?.assuranceLevel ? { assuranceLevel: first.assuranceLevel } : {}),
  };
}

/** Whether x5c[0] holds the key that verified the signature. @see spec 2.7 */
function certificateKeyCheck(input: VerificationInput, locale: Locale): Check {
  const t = RESULT_MESSAGES[locale].certificate;
  const certificate = input.signingCertificate;
  const named = certificate
    ? t.named(certificate.subject, certificate.issuer, certificate.serialNumber === input.idToken.jwsHeader.kid.toLowerCase())
    : 'x5c[0]';
  switch (input.signingCertificateCheck?.key) {
    case 'matches':
      return { label: t.matches, detail: t.matchesDetail(named), outcome: 'passed' };
    case 'differs':
      return { label: t.differs, detail: t.differsDetail(named, t.acceptedOnJwk), outcome: 'failed' };
    case 'unreadable':
      return {
        label: t.unreadable,
        detail: t.unreadableDetail(certificate ? t.unreadableKey(named) : t.unreadableCertificate, t.acceptedOnJwk),
        outcome: 'failed',
      };
    case 'no_certificate':
      return { label: t.noCertificate, detail: t.noCertificateDetail(t.acceptedOnJwk), outcome: 'not_checked' };
    case undefined:
      return { label: t.notCompared, detail: t.notComparedDetail, outcome: 'not_checked' };
  }
}

/** Whether the signing certificate's chain leads to IDV_TRUST_ANCHOR. */
function certificateChainCheck(input: VerificationInput, locale: Locale): Check {
  const t = RESULT_MESSAGES[locale].certificate;
  const check = input.signingCertificateCheck;
  switch (check?.chain.state) {
    case 'validated':
      return { label: t.chainValidated, detail: t.chainValidatedDetail(check.chain.anchor, check.key === 'differs'), outcome: 'passed' };
    case 'not_valid':
      return { label: t.chainNotValid, detail: t.chainNotValidDetail(check.chain.reason), outcome: 'failed' };
    case 'not_validated':
      return { label: t.chainNotValidated, detail: t.chainNoAnchor, outcome: 'not_checked' };
    case undefined:
      return { label: t.chainNotValidated, detail: t.chainStoredBefore, outcome: 'not_checked' };
  }
}

/**
 * Every validation the relying party performed on this result, in the order it ran, with what
 * it compared (issue: "a checklist of every validation performed with its detail"); the signing
 * certificate's rows (checked once the token was accepted) next to the signature they concern,
 * saying as well what was not checked.
 */
export function buildChecks(input: VerificationInput, locale: Locale): Check[] {
  const t = RESULT_MESSAGES[locale].checks;
  const { jweHeader, jwsHeader, claims } = input.idToken;
  const passed = (label: string, detail: string): Check => ({ label, detail, outcome: 'passed' });
  return [
    passed(...t.callback),
    passed(...t.pkce),
    passed(t.decrypted, `JWE ${jweHeader.alg} / ${jweHeader.enc}${jweHeader.kid ? `, ${t.key(jweHeader.kid)}` : ''}`),
    passed(t.signature, t.signatureDetail(jwsHeader.alg, jwsHeader.kid)),
    // The certificate is a claim of its own: the signature was verified with the JWK, not with it.
    certificateKeyCheck(input, locale),
    certificateChainCheck(input, locale),
    passed(t.issuer, t.issuerDetail(String(claims.iss))),
    passed(t.audience, t.audienceDetail(JSON.stringify(claims.aud), input.clientId)),
    passed(t.expiry, t.expiryDetail(describeNumericDate(claims.exp, locale) ?? String(claims.exp))),
    passed(t.issuedAt, `iat ${describeNumericDate(claims.iat, locale) ?? String(claims.iat)}`),
    passed(...t.nonce),
    passed(t.subject, t.subjectDetail(String(claims.sub))),
  ];
}
