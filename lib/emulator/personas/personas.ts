/**
 * Test personas: what the simulated mobile identity app "reads" from a scanned document and a
 * face check. All people, numbers and documents are fictional. National numbers are
 * syntactically valid (check digits included) so that relying parties can run their own checks.
 * @see spec part 1 (the mobile identity app), 2.3 (document details, verified claims fields)
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** 2.3 "Document evidence element", as the app read it from the document (response syntax). @see spec 2.3 */
export interface DocumentData {
  type: 'passport' | 'idcard';
  document_number: string;
  /** ISO 8601 `YYYY-MM-DD`; some documents do not state it (the detail is then left out) */
  date_of_issuance?: string;
  /** ISO 8601 `YYYY-MM-DD` */
  date_of_expiry: string;
  issuer: { country_code: string; name: string };
  /** Norwegian documents: `{ type: "no-fnr", value }`; others: the issuing country's number, when available */
  personal_number?: string | { type: 'no-fnr'; value: string };
  /** chip authentication: `passed` (2.3), or `failed` when the chip did not prove the document genuine (DECISIONS.md "Personas") */
  active_authentication_result?: 'passed' | 'failed';
  /** only Norwegian documents can be checked against the issuer; others say UNKNOWN or nothing */
  issuer_check?: { valid: string };
}

/** 2.3 "Verified claims fields", except `picture`, which comes from the portrait file. @see spec 2.3 */
export interface PersonaClaims {
  name: string;
  given_name: string;
  family_name: string;
  gender: 'male' | 'female' | 'unknown' | 'unspecified';
  /** ISO 8601 `YYYY-MM-DD` */
  birthdate: string;
  /** ISO 3166-1 alpha-3 */
  nationalities: string[];
}

/** A fictional person, their document, and how their verification goes. @see spec part 1, 2.3 */
export interface Persona {
  id: string;
  /** display name */
  label: string;
  /** one line for a persona picker: what is special about this persona (the document is in `document`) */
  description: string;
  claims: PersonaClaims;
  document: DocumentData;
  /** "fail": the face does not match the document portrait, so verification fails */
  faceCheck: 'pass' | 'fail';
  /** the person's entry in the population register (Folkeregisteret), if they have one */
  populationRegister?: { personalNumber: string };
}

/**
 * The personas, in the order the identity app lists them.
 * @see spec part 1, 2.3
 */
export const personas: readonly Persona[] = [
  {
    id: 'ingrid-haugen',
    label: 'Ingrid Solberg Haugen',
    description: 'Chip and issuer check valid; found in the population register.',
    claims: {
      name: 'Ingrid Solberg Haugen',
      given_name: 'Ingrid Solberg',
      family_name: 'Haugen',
      gender: 'female',
      birthdate: '1987-03-14',
      nationalities: ['NOR'],
    },
    document: {
      type: 'passport',
      document_number: 'FK4820713',
      date_of_issuance: '2021-06-10',
      date_of_expiry: '2031-06-10',
      issuer: { country_code: 'NOR', name: 'Politiet' },
      personal_number: { type: 'no-fnr', value: '14038726421' },
      active_authentication_result: 'passed',
      issuer_check: { valid: 'VALID' },
    },
    faceCheck: 'pass',
    populationRegister: { personalNumber: '14038726421' },
  },
  {
    id: 'lars-eriksson',
    label: 'Lars Olof Eriksson',
    description: 'Issuer check UNKNOWN, as for any non-Norwegian document; not in the population register.',
    claims: {
      name: 'Lars Olof Eriksson',
      given_name: 'Lars Olof',
      family_name: 'Eriksson',
      gender: 'male',
      birthdate: '1979-11-02',
      nationalities: ['SWE'],
    },
    document: {
      type: 'passport',
      document_number: '91738246',
      date_of_issuance: '2022-08-15',
      date_of_expiry: '2027-08-15',
      issuer: { country_code: 'SWE', name: 'Polismyndigheten' },
      personal_number: '19791102-2734',
      active_authentication_result: 'passed',
      issuer_check: { valid: 'UNKNOWN' },
    },
    faceCheck: 'pass',
  },
  {
    id: 'amira-nilsen',
    label: 'Amira Nilsen',
    description: 'Holds a D-number; found in the population register.',
    claims: {
      name: 'Amira Nilsen',
      given_name: 'Amira',
      family_name: 'Nilsen',
      gender: 'female',
      birthdate: '1997-06-21',
      nationalities: ['NOR'],
    },
    document: {
      type: 'idcard',
      document_number: 'NC3916524',
      date_of_issuance: '2023-02-01',
      date_of_expiry: '2033-02-01',
      issuer: { country_code: 'NOR', name: 'Politiet' },
      personal_number: { type: 'no-fnr', value: '61069732266' },
      active_authentication_result: 'passed',
      issuer_check: { valid: 'VALID' },
    },
    faceCheck: 'pass',
    populationRegister: { personalNumber: '61069732266' },
  },
  {
    id: 'jonas-weber',
    label: 'Jonas Weber',
    description: 'No personal number on the card, and no issuer check.',
    claims: {
      name: 'Jonas Weber',
      given_name: 'Jonas',
      family_name: 'Weber',
      gender: 'male',
      birthdate: '1982-08-30',
      nationalities: ['DEU'],
    },
    document: {
      type: 'idcard',
      document_number: 'LFC3RK7P9',
      date_of_issuance: '2020-11-04',
      date_of_expiry: '2030-11-03',
      issuer: { country_code: 'DEU', name: 'Stadt Köln' },
      active_authentication_result: 'passed',
    },
    faceCheck: 'pass',
  },
  {
    id: 'sofia-costa',
    label: 'Sofia Costa',
    description: 'Dual citizen (Norwegian and Portuguese); found in the population register.',
    claims: {
      name: 'Sofia Costa',
      given_name: 'Sofia',
      family_name: 'Costa',
      gender: 'female',
      birthdate: '1992-09-05',
      nationalities: ['NOR', 'PRT'],
    },
    document: {
      type: 'passport',
      document_number: 'FK7305518',
      date_of_issuance: '2019-03-20',
      date_of_expiry: '2029-03-20',
      issuer: { country_code: 'NOR', name: 'Politiet' },
      personal_number: { type: 'no-fnr', value: '05099241421' },
      active_authentication_result: 'passed',
      issuer_check: { valid: 'VALID' },
    },
    faceCheck: 'pass',
    populationRegister: { personalNumber: '05099241421' },
  },
  {
    id: 'mikkel-strand',
    label: 'Mikkel Strand',
    description: 'Valid national number, but no match in the population register.',
    claims: {
      name: 'Mikkel Strand',
      given_name: 'Mikkel',
      family_name: 'Strand',
      gender: 'male',
      birthdate: '1990-01-23',
      nationalities: ['NOR'],
    },
    document: {
      type: 'passport',
      document_number: 'FK2168794',
      date_of_issuance: '2024-01-15',
      date_of_expiry: '2034-01-15',
      issuer: { country_code: 'NOR', name: 'Politiet' },
      personal_number: { type: 'no-fnr', value: '23019018776' },
      active_authentication_result: 'passed',
      issuer_check: { valid: 'VALID' },
    },
    faceCheck: 'pass',
  },
  {
    id: 'eva-lindqvist',
    label: 'Eva Lindqvist',
    description: 'The passport expired in 2023.',
    claims: {
      name: 'Eva Lindqvist',
      given_name: 'Eva',
      family_name: 'Lindqvist',
      gender: 'female',
      birthdate: '1984-07-19',
      nationalities: ['FIN'],
    },
    document: {
      type: 'passport',
      document_number: 'FP4418290',
      date_of_issuance: '2018-05-30',
      date_of_expiry: '2023-05-30',
      issuer: { country_code: 'FIN', name: 'Helsingin poliisilaitos' },
      personal_number: '190784-286T',
      active_authentication_result: 'passed',
    },
    faceCheck: 'pass',
  },
  {
    id: 'nora-berg',
    label: 'Nora Berg',
    description: 'The passport chip did not pass authentication; found in the population register.',
    claims: {
      name: 'Nora Berg',
      given_name: 'Nora',
      family_name: 'Berg',
      gender: 'female',
      birthdate: '1995-04-08',
      nationalities: ['NOR'],
    },
    document: {
      type: 'passport',
      document_number: 'FK9051376',
      date_of_issuance: '2022-11-28',
      date_of_expiry: '2032-11-28',
      issuer: { country_code: 'NOR', name: 'Politiet' },
      personal_number: { type: 'no-fnr', value: '08049535229' },
      active_authentication_result: 'failed',
      issuer_check: { valid: 'VALID' },
    },
    faceCheck: 'pass',
    populationRegister: { personalNumber: '08049535229' },
  },
  {
    id: 'alex-moreau',
    label: 'Alex Moreau',
    description: 'Gender unspecified; the ID card states no issue date and no personal number.',
    claims: {
      name: 'Alex Moreau',
      given_name: 'Alex',
      family_name: 'Moreau',
      gender: 'unspecified',
      birthdate: '1999-12-02',
      nationalities: ['FRA'],
    },
    document: {
      type: 'idcard',
      document_number: 'X4RTBPFW4',
      date_of_expiry: '2031-05-16',
      issuer: { country_code: 'FRA', name: 'Préfecture de Lyon' },
      active_authentication_result: 'passed',
    },
    faceCheck: 'pass',
  },
  {
    id: 'sam-keller',
    label: 'Sam Keller',
    description: 'Gender unknown; issuer check UNKNOWN.',
    claims: {
      name: 'Sam Keller',
      given_name: 'Sam',
      family_name: 'Keller',
      gender: 'unknown',
      birthdate: '1976-10-27',
      nationalities: ['CHE'],
    },
    document: {
      type: 'passport',
      document_number: 'X2048611',
      date_of_issuance: '2020-02-14',
      date_of_expiry: '2030-02-13',
      issuer: { country_code: 'CHE', name: 'Passbüro Zürich' },
      active_authentication_result: 'passed',
      issuer_check: { valid: 'UNKNOWN' },
    },
    faceCheck: 'pass',
  },
  {
    id: 'tobias-hansen',
    label: 'Tobias Hansen',
    description: 'The face check fails, so verification is refused.',
    claims: {
      name: 'Tobias Hansen',
      given_name: 'Tobias',
      family_name: 'Hansen',
      gender: 'male',
      birthdate: '1985-02-11',
      nationalities: ['DNK'],
    },
    document: {
      type: 'idcard',
      document_number: 'DK8472019',
      date_of_issuance: '2024-09-02',
      date_of_expiry: '2034-09-02',
      issuer: { country_code: 'DNK', name: 'Københavns Kommune' },
      personal_number: '110285-2147',
      active_authentication_result: 'passed',
      issuer_check: { valid: 'UNKNOWN' },
    },
    faceCheck: 'fail',
  },
];

/** The persona with this id, if any. */
export function findPersona(id: string): Persona | undefined {
  return personas.find((persona) => persona.id === id);
}

/** The persona's national number as printed on the document, if it has one. @see spec 2.3 `personal_number` */
export function personalNumberText(persona: Persona): string | undefined {
  const number = persona.document.personal_number;
  return typeof number === 'object' ? number.value : number;
}

/** The Norwegian national number (fødselsnummer or D-number) on the persona's document, if any. @see spec 2.3 `personal_number` */
export function norwegianNationalNumber(persona: Persona): string | undefined {
  const number = persona.document.personal_number;
  return typeof number === 'object' && number.type === 'no-fnr' ? number.value : undefined;
}

/**
 * Looks the persona up in the simulated population register, by the number the client asked for
 * or else by the Norwegian national number on the document. Returns the matched number, or
 * undefined when there is no match (the evidence is then omitted, spec part 1).
 * @see spec 2.3 "Electronic record evidence element"
 */
export function populationRegisterMatch(persona: Persona, requestedPersonalNumber?: string): string | undefined {
  const lookup = requestedPersonalNumber ?? norwegianNationalNumber(persona);
  const entry = persona.populationRegister;
  return lookup !== undefined && entry?.personalNumber === lookup ? lookup : undefined;
}

const portraits = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();

/**
 * The persona's portrait (JPEG), read once from `lib/emulator/personas/portraits/<id>.jpg` and cached.
 * A missing file is not cached, so a portrait added later is picked up.
 * @see spec 2.3 `picture`
 */
export async function loadPortrait(persona: Persona): Promise<Uint8Array<ArrayBuffer> | undefined> {
  let portrait = portraits.get(persona.id);
  if (!portrait) {
    portrait = readFile(join(process.cwd(), 'lib/emulator/personas/portraits', `${persona.id}.jpg`)).then((buffer) => new Uint8Array(buffer));
    portraits.set(persona.id, portrait);
  }
  try {
    return await portrait;
  } catch {
    portraits.delete(persona.id);
    return undefined;
  }
}
