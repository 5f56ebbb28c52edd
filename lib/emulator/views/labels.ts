/**
 * The words the emulator's pages use for the spec's names: claims, document details, countries
 * and document types. One place, so the authorization page and the identity app say the same.
 * @see spec 2.3
 */
import type { ClaimName, DocumentDetail } from '../checks/claims-request';
import type { Persona } from '../personas/personas';

/** @see spec 2.3 "Verified claims fields" */
export const CLAIM_LABELS: Record<ClaimName, string> = {
  name: 'Full name',
  given_name: 'Given name(s)',
  family_name: 'Family name(s)',
  picture: 'Portrait from the document',
  gender: 'Gender',
  birthdate: 'Date of birth',
  nationalities: 'Nationalities',
};

/** @see spec 2.3 "Document evidence element" */
export const DOCUMENT_DETAIL_LABELS: Record<DocumentDetail, string> = {
  type: 'Document type',
  document_number: 'Document number',
  date_of_issuance: 'Date of issue',
  date_of_expiry: 'Date of expiry',
  'issuer.country_code': 'Issuing country',
  'issuer.name': 'Issuing authority',
  personal_number: 'National identity number',
  active_authentication_result: 'Chip authentication result',
  issuer_check: 'Issuer check',
};

/** The personas' countries (ISO 3166-1 alpha-3): name and adjective. */
const COUNTRIES: Record<string, { name: string; adjective: string }> = {
  NOR: { name: 'Norway', adjective: 'Norwegian' },
  SWE: { name: 'Sweden', adjective: 'Swedish' },
  DEU: { name: 'Germany', adjective: 'German' },
  FIN: { name: 'Finland', adjective: 'Finnish' },
  DNK: { name: 'Denmark', adjective: 'Danish' },
  PRT: { name: 'Portugal', adjective: 'Portuguese' },
};

export function countryName(code: string): string {
  return COUNTRIES[code]?.name ?? code;
}

export function countryAdjective(code: string): string {
  return COUNTRIES[code]?.adjective ?? code;
}

export function documentTypeName(type: Persona['document']['type']): string {
  return type === 'passport' ? 'passport' : 'ID card';
}

/** e.g. "Norwegian passport FK4820713" */
export function documentName(persona: Persona): string {
  const { document } = persona;
  return `${countryAdjective(document.issuer.country_code)} ${documentTypeName(document.type)} ${document.document_number}`;
}

/** e.g. "Norwegian passport FK4820713, expiry 2031-06-10" */
export function documentSummary(persona: Persona): string {
  return `${documentName(persona)}, expiry ${persona.document.date_of_expiry}`;
}

/** Whether the persona's document has expired on the emulator's clock (ms). */
export function documentExpired(persona: Persona, now: number): boolean {
  return persona.document.date_of_expiry < new Date(now).toISOString().slice(0, 10);
}
