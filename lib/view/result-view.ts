/**
 * Turns a verification result into what the result page shows: each requested item with its value,
 * "not provided" when the service returned nothing for it, "not requested" when we never asked
 * (DESIGN.md: never guessed). Pure functions; dates are compared in UTC.
 */
import type { DocumentDetail, Selection } from '@/lib/oidc/types';
import type { DocumentDetails, EvidenceExtras, VerifiedClaims } from '@/lib/oidc/verified-claims';
import { countryName } from './countries';

export type Field =
  | { state: 'value'; text: string; hint?: string }
  | { state: 'not_provided' }
  | { state: 'not_requested' };

function field(requested: boolean, value: string | undefined, hint?: string): Field {
  if (!requested) return { state: 'not_requested' };
  if (value === undefined) return { state: 'not_provided' };
  return hint === undefined ? { state: 'value', text: value } : { state: 'value', text: value, hint };
}

/** Whole years between an ISO birthdate and `today` (both YYYY-MM-DD). */
export function ageOn(birthdate: string, today: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );
}

const GENDERS: Record<string, string> = { male: 'Male', female: 'Female', unknown: 'Unknown', unspecified: 'Unspecified' };

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

function identityView(verified: VerifiedClaims | undefined, selection: Selection, today: string): IdentityView {
  const claims = verified?.claims ?? {};
  const asked = (name: keyof Selection['claims']) => selection.claims[name] !== undefined;
  const birthdate = claims.birthdate;
  return {
    portrait: !asked('picture') ? { state: 'not_requested' } : claims.picture ? { state: 'value', src: claims.picture } : { state: 'not_provided' },
    name: field(asked('name'), claims.name),
    givenName: field(asked('given_name'), claims.given_name),
    familyName: field(asked('family_name'), claims.family_name),
    birthdate: field(asked('birthdate'), birthdate && formatDate(birthdate), birthdate && `${ageOn(birthdate, today)} years old`),
    gender: field(asked('gender'), claims.gender && (Object.hasOwn(GENDERS, claims.gender) ? GENDERS[claims.gender] : claims.gender)),
    nationalities: field(
      asked('nationalities'),
      claims.nationalities?.map((code) => `${countryName(code)} (${code})`).join(', '),
    ),
  };
}

const DOCUMENT_TYPES: Record<string, string> = { passport: 'Passport', idcard: 'National ID card' };

function documentView(verified: VerifiedClaims | undefined, selection: Selection, today: string): DocumentView {
  const evidence = verified?.evidence.find((e) => e.type === 'document');
  const details: DocumentDetails = evidence?.type === 'document' ? evidence.documentDetails : {};
  const requested = selection.document !== undefined;
  const asked = (detail: DocumentDetail) => selection.document?.details.includes(detail) ?? false;
  const personal = details.personal_number;
  const expiry = details.date_of_expiry;
  return {
    requested,
    provided: evidence !== undefined,
    type: field(asked('type'), details.type && (Object.hasOwn(DOCUMENT_TYPES, details.type) ? DOCUMENT_TYPES[details.type] : details.type)),
    number: field(asked('document_number'), details.document_number),
    issuingCountry: field(
      asked('issuer.country_code'),
      details.issuer?.country_code && `${countryName(details.issuer.country_code)} (${details.issuer.country_code})`,
    ),
    issuingAuthority: field(asked('issuer.name'), details.issuer?.name),
    dateOfIssuance: field(asked('date_of_issuance'), details.date_of_issuance && formatDate(details.date_of_issuance)),
    dateOfExpiry: field(asked('date_of_expiry'), expiry && formatDate(expiry)),
    expired: expiry === undefined ? undefined : expiry < today,
    personalNumber: field(asked('personal_number'), personal?.value, personal?.type),
    chipAuthentication: field(asked('active_authentication_result'), details.active_authentication_result),
    issuerCheck: field(asked('issuer_check'), details.issuer_check?.valid),
    extras: evidence ? extrasLines(evidence) : [],
  };
}

function populationRegisterView(verified: VerifiedClaims | undefined, selection: Selection): PopulationRegisterView {
  const evidence = verified?.evidence.find((e) => e.type === 'electronic_record');
  const record = evidence?.type === 'electronic_record' ? evidence.record : undefined;
  const requested = selection.populationRegister !== undefined;
  return {
    requested,
    provided: record !== undefined,
    lookedUp: selection.populationRegister?.personalNumber,
    source: field(requested, record?.sourceName),
    personalNumber: field(requested, record?.personalNumber),
    extras: evidence ? extrasLines(evidence) : [],
  };
}

/**
 * "Check: vcrypt by Politiet, transaction 1c6f…, 23 November 2026 10:15 UTC" and "Attachment:
 * Front of the card (image/jpeg, embedded, 24 KiB)": what OIDC4IDA 1.0 adds to an evidence, shown
 * as the provider sent it (never fetched or rendered).
 */
function extrasLines({ checkDetails = [], attachments = [] }: EvidenceExtras): string[] {
  return [
    ...checkDetails.map(
      (check) =>
        `Check: ${check.checkMethod}${check.organization ? ` by ${check.organization}` : ''}${check.txn ? `, transaction ${check.txn}` : ''}${
          check.time ? `, ${formatDateTime(check.time)}` : ''
        }`,
    ),
    ...attachments.map(
      (attachment) =>
        `Attachment: ${attachment.description ?? 'no description'} (${[
          attachment.contentType,
          attachment.embeddedBytes !== undefined ? `embedded, ${Math.max(1, Math.round(attachment.embeddedBytes / 1024))} KiB` : undefined,
          attachment.url ? `at ${attachment.url}` : undefined,
        ]
          .filter(Boolean)
          .join(', ')})`,
    ),
  ];
}

/** "23 November 2026 10:15 UTC" */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return `${formatDate(date.toISOString().slice(0, 10))} ${date.toISOString().slice(11, 16)} UTC`;
}

/**
 * One view of `verified_claims` that OIDC4IDA lets a provider send as an array of elements: the
 * trust framework, time and assurance level of the first, each claim from the first element
 * that has it, and the evidence of all (the first of each type is shown).
 */
export function mergeVerifiedClaims(list: readonly VerifiedClaims[]): VerifiedClaims | undefined {
  if (list.length <= 1) return list[0];
  const claims: VerifiedClaims['claims'] = {};
  for (const element of list) {
    for (const [name, value] of Object.entries(element.claims) as [keyof VerifiedClaims['claims'], never][]) {
      if (claims[name] === undefined) claims[name] = value;
    }
  }
  return { ...list[0]!, claims, evidence: list.flatMap((element) => element.evidence) };
}

/** @param today YYYY-MM-DD, the day against which age and expiry are judged */
export function buildResultView(verifiedClaims: VerifiedClaims[], selection: Selection, today: string): ResultView {
  const verified = mergeVerifiedClaims(verifiedClaims);
  return {
    trustFramework: verified?.trustFramework,
    identity: identityView(verified, selection, today),
    document: documentView(verified, selection, today),
    populationRegister: populationRegisterView(verified, selection),
  };
}

export interface VerificationView {
  /** the trust framework the token states, and whether it is the one we asked for */
  trustFramework: Field;
  trustFrameworkMatches: boolean;
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

/** The chain of the signing certificate, validated up to IDV_TRUST_ANCHOR when one is configured. */
export type ChainValidation =
  | { state: 'validated'; /** the subject of the trust anchor the chain ends at */ anchor: string }
  | { state: 'not_valid'; reason: string }
  | { state: 'not_validated' };

/**
 * What was checked of the signing key's certificate (`x5c` of its JWKS entry, spec 2.7) when the
 * result was made. `key`: x5c[0]'s public key compared with the JWK that verified the signature
 * (`no_certificate`: the entry has no x5c; `unreadable`: x5c[0] or its key cannot be read).
 */
export interface SigningCertificateCheck {
  key: 'matches' | 'differs' | 'no_certificate' | 'unreadable';
  chain: ChainValidation;
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

/** The time of day (UTC) until which a result is kept, e.g. "14:05". */
export function keptUntilText(expiresAt: number): string {
  return new Intl.DateTimeFormat('en-GB', { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(expiresAt));
}

function valueField(text: string | undefined): Field {
  return text === undefined || text === '' ? { state: 'not_provided' } : { state: 'value', text };
}

export function buildVerificationView(input: VerificationInput): VerificationView {
  const { claims } = input.idToken;
  const first = input.verifiedClaims[0];
  const returned = first?.trustFramework;
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [];
  return {
    trustFramework: valueField(returned),
    trustFrameworkMatches: returned === input.selection.trustFramework,
    hasVerifiedClaims: input.verifiedClaims.length > 0,
    acr: valueField(typeof claims.acr === 'string' ? claims.acr : undefined),
    amr: valueField(amr.join(', ')),
    authTime: valueField(formatNumericDate(claims.auth_time)),
    subject: valueField(typeof claims.sub === 'string' ? claims.sub : undefined),
    ...(first?.verificationTime ? { verificationTime: formatDateTime(first.verificationTime) } : {}),
    ...(first?.assuranceLevel ? { assuranceLevel: first.assuranceLevel } : {}),
  };
}

const ACCEPTED_ON_THE_JWK = 'the token was accepted on the JWKS key alone';

/** Whether x5c[0] holds the key that verified the signature. @see spec 2.7 */
function certificateKeyCheck(input: VerificationInput): Check {
  const certificate = input.signingCertificate;
  const named = certificate
    ? `x5c[0] (${certificate.subject}, issued by ${certificate.issuer}, ${
        certificate.serialNumber === input.idToken.jwsHeader.kid.toLowerCase() ? 'serial number = kid' : 'its serial number is not the kid'
      })`
    : 'x5c[0]';
  switch (input.signingCertificateCheck?.key) {
    case 'matches':
      return { label: 'Signing key matches its certificate', detail: `key matches certificate: ${named} holds the public key that verified the signature`, outcome: 'passed' };
    case 'differs':
      return {
        label: 'Signing key does NOT match its certificate',
        detail: `key does NOT match certificate: ${named} holds another public key than the one that verified the signature; ${ACCEPTED_ON_THE_JWK}`,
        outcome: 'failed',
      };
    case 'unreadable':
      return {
        label: 'Signing certificate unreadable',
        detail: `${certificate ? `the public key of ${named} cannot be read` : 'x5c[0] is not a readable X.509 certificate'}, so the key was not compared; ${ACCEPTED_ON_THE_JWK}`,
        outcome: 'failed',
      };
    case 'no_certificate':
      return { label: 'Signing key not compared with a certificate', detail: `the JWKS entry has no x5c certificate; ${ACCEPTED_ON_THE_JWK}`, outcome: 'not_checked' };
    case undefined:
      return { label: 'Signing key not compared with its certificate', detail: 'this result was stored before the comparison was made', outcome: 'not_checked' };
  }
}

/** Whether the signing certificate's chain leads to IDV_TRUST_ANCHOR. */
function certificateChainCheck(input: VerificationInput): Check {
  const check = input.signingCertificateCheck;
  switch (check?.chain.state) {
    case 'validated':
      return {
        label: 'Certificate chain validated',
        detail: `chain validated to ${check.chain.anchor}${check.key === 'differs' ? ' (for a certificate that does not hold the signing key)' : ''}, an IDV_TRUST_ANCHOR certificate: every signature, every validity period at the time of verification, the CA flag of each issuer in x5c; revocation not checked`,
        outcome: 'passed',
      };
    case 'not_valid':
      return { label: 'Certificate chain NOT valid', detail: `chain NOT valid: ${check.chain.reason}`, outcome: 'failed' };
    case 'not_validated':
      return {
        label: 'Certificate chain not validated',
        detail: 'chain not validated (no IDV_TRUST_ANCHOR configured): the certificate is shown as the service sent it, not trusted',
        outcome: 'not_checked',
      };
    case undefined:
      return { label: 'Certificate chain not validated', detail: 'chain not validated (this result was stored before chains were checked)', outcome: 'not_checked' };
  }
}

/**
 * Every validation the relying party performed on this result, in the order it ran, with what
 * it compared (issue: "a checklist of every validation performed with its detail"); the signing
 * certificate's rows (checked once the token was accepted) next to the signature they concern,
 * saying as well what was not checked.
 */
export function buildChecks(input: VerificationInput): Check[] {
  const { jweHeader, jwsHeader, claims } = input.idToken;
  const passed = (label: string, detail: string): Check => ({ label, detail, outcome: 'passed' });
  return [
    passed('Callback matched this browser’s flow', 'state equals the value stored in this session; iss checked when sent (RFC 9207)'),
    passed('PKCE', 'the token endpoint accepted our code_verifier for the S256 code_challenge'),
    passed('Decrypted with our key', `JWE ${jweHeader.alg} / ${jweHeader.enc}${jweHeader.kid ? `, key ${jweHeader.kid}` : ''}`),
    passed('Signature verified', `${jwsHeader.alg} with the service key ${jwsHeader.kid} from the JWKS`),
    // The certificate is a claim of its own: the signature was verified with the JWK, not with it.
    certificateKeyCheck(input),
    certificateChainCheck(input),
    passed('Issuer', `iss = ${String(claims.iss)}, the configured issuer`),
    passed('Audience', `aud = ${JSON.stringify(claims.aud)}, our client_id ${input.clientId}`),
    passed('Not expired', `exp ${formatNumericDate(claims.exp) ?? String(claims.exp)} is in the future`),
    passed('Not issued in the future', `iat ${formatNumericDate(claims.iat) ?? String(claims.iat)}`),
    passed('Nonce', 'equals the nonce of our request object'),
    passed('Subject', `sub present (${String(claims.sub)})`),
  ];
}
