/**
 * Turns a verification result into what the result page shows: each requested item with its value,
 * "not provided" when the service returned nothing for it, "not requested" when we never asked
 * (DESIGN.md: never guessed). Pure functions; dates are compared in UTC.
 */
import type { DocumentDetail, Selection } from '@/lib/oidc/types';
import type { DocumentDetails, VerifiedClaims } from '@/lib/oidc/verified-claims';
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
}

export interface PopulationRegisterView {
  requested: boolean;
  /** false when register evidence was requested but none came back (no match, or not entitled) */
  provided: boolean;
  /** the personal number we asked the register to look up, if any */
  lookedUp: string | undefined;
  source: Field;
  personalNumber: Field;
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
  };
}

/** @param today YYYY-MM-DD, the day against which age and expiry are judged */
export function buildResultView(verifiedClaims: VerifiedClaims[], selection: Selection, today: string): ResultView {
  const verified = verifiedClaims[0];
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
}

export interface Check {
  label: string;
  detail: string;
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
  const returned = input.verifiedClaims[0]?.trustFramework;
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === 'string') : [];
  return {
    trustFramework: valueField(returned),
    trustFrameworkMatches: returned === input.selection.trustFramework,
    hasVerifiedClaims: input.verifiedClaims.length > 0,
    acr: valueField(typeof claims.acr === 'string' ? claims.acr : undefined),
    amr: valueField(amr.join(', ')),
    authTime: valueField(formatNumericDate(claims.auth_time)),
    subject: valueField(typeof claims.sub === 'string' ? claims.sub : undefined),
  };
}

/**
 * Every validation the relying party performed on this result, in the order it ran, with what
 * it compared (issue: "a checklist of every validation performed with its detail").
 */
export function buildChecks(input: VerificationInput): Check[] {
  const { jweHeader, jwsHeader, claims } = input.idToken;
  const certificate = input.signingCertificate;
  return [
    { label: 'Callback matched this browser’s flow', detail: 'state equals the value stored in this session; iss checked when sent (RFC 9207)' },
    { label: 'PKCE', detail: 'the token endpoint accepted our code_verifier for the S256 code_challenge' },
    { label: 'Decrypted with our key', detail: `JWE ${jweHeader.alg} / ${jweHeader.enc}${jweHeader.kid ? `, key ${jweHeader.kid}` : ''}` },
    {
      label: 'Signature verified',
      detail: `${jwsHeader.alg} with the service key ${jwsHeader.kid} from the JWKS${
        certificate
          ? `; certificate ${certificate.subject}, issued by ${certificate.issuer}${
              certificate.serialNumber === jwsHeader.kid.toLowerCase() ? ', serial number = kid' : ' (its serial number is not the kid)'
            }`
          : ''
      }`,
    },
    { label: 'Issuer', detail: `iss = ${String(claims.iss)}, the configured issuer` },
    { label: 'Audience', detail: `aud = ${JSON.stringify(claims.aud)}, our client_id ${input.clientId}` },
    { label: 'Not expired', detail: `exp ${formatNumericDate(claims.exp) ?? String(claims.exp)} is in the future` },
    { label: 'Not issued in the future', detail: `iat ${formatNumericDate(claims.iat) ?? String(claims.iat)}` },
    { label: 'Nonce', detail: 'equals the nonce of our request object' },
    { label: 'Subject', detail: `sub present (${String(claims.sub)})` },
  ];
}
