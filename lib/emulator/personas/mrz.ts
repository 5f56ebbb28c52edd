/**
 * The machine readable zone (MRZ) printed on the documents the simulated identity app "scans":
 * TD3 (passports, 2 × 44 characters) and TD1 (ID cards, 3 × 30), with ICAO 9303 check digits, so
 * the drawn documents look and add up like real ones.
 * @see ICAO Doc 9303 part 3 §4.9 (check digits), part 4 §4.2 (TD3), part 5 §4.2 (TD1)
 */
import { personalNumberText, type Persona } from './personas';

export interface MrzFields {
  /** 'P' passport (TD3), 'I' identity card (TD1) */
  documentCode: 'P' | 'I';
  /** ISO 3166-1 alpha-3 (Germany is written "D", as ICAO 9303 part 3 §5 allows) */
  issuingState: string;
  documentNumber: string;
  nationality: string;
  /** YYYY-MM-DD */
  birthdate: string;
  sex: 'M' | 'F' | '<';
  /** YYYY-MM-DD */
  expiry: string;
  surname: string;
  givenNames: string;
  /** optional data: the national number, where the document carries one */
  personalNumber?: string;
}

/** ICAO 9303 part 3 §4.9: weights 7, 3, 1; digits count as themselves, A–Z as 10–35, `<` as 0. */
export function checkDigit(field: string): string {
  let sum = 0;
  for (let index = 0; index < field.length; index += 1) {
    const character = field[index]!;
    const value = character === '<' ? 0 : /[0-9]/.test(character) ? Number(character) : character.charCodeAt(0) - 55;
    sum += value * [7, 3, 1][index % 3]!;
  }
  return String(sum % 10);
}

/** Letters as ICAO 9303 part 3 §6 transliterates them; anything else becomes the filler `<`. */
function mrzText(text: string): string {
  return text
    .toUpperCase()
    .replace(/[ÅÄÆ]/g, (letter) => (letter === 'Å' ? 'AA' : 'AE'))
    .replace(/[ÖØ]/g, 'OE')
    .replace(/Ü/g, 'UE')
    .replace(/ß/g, 'SS')
    .normalize('NFD')
    .replace(/[\u0300-\u036f']/g, '')
    .replace(/[^A-Z0-9]/g, '<');
}

function field(text: string, length: number): string {
  return mrzText(text).slice(0, length).padEnd(length, '<');
}

function state(code: string): string {
  return field(code === 'DEU' ? 'D' : code, 3);
}

/** YYYY-MM-DD → YYMMDD */
function date(iso: string): string {
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
}

function name(fields: MrzFields, length: number): string {
  return field(`${mrzText(fields.surname)}<<${mrzText(fields.givenNames)}`, length);
}

/** The MRZ lines of a document: two for a passport (TD3), three for an ID card (TD1). */
export function machineReadableZone(fields: MrzFields): string[] {
  const number = field(fields.documentNumber, 9);
  const birthdate = date(fields.birthdate);
  const expiry = date(fields.expiry);
  const numberPart = number + checkDigit(number);
  const birthdatePart = birthdate + checkDigit(birthdate);
  const expiryPart = expiry + checkDigit(expiry);

  if (fields.documentCode === 'P') {
    const personal = field(fields.personalNumber ?? '', 14);
    const personalPart = personal + checkDigit(personal);
    const composite = checkDigit(numberPart + birthdatePart + expiryPart + personalPart);
    return [
      `P<${state(fields.issuingState)}${name(fields, 39)}`,
      `${numberPart}${state(fields.nationality)}${birthdatePart}${fields.sex}${expiryPart}${personalPart}${composite}`,
    ];
  }
  const optional = field(fields.personalNumber ?? '', 15);
  const optional2 = field('', 11);
  const line1 = `I<${state(fields.issuingState)}${numberPart}${optional}`;
  const composite = checkDigit(line1.slice(5) + birthdatePart + expiryPart + optional2);
  return [line1, `${birthdatePart}${fields.sex}${expiryPart}${state(fields.nationality)}${optional2}${composite}`, name(fields, 30)];
}

/** The MRZ of a persona's document. @see spec 2.3 (the document details the app reads) */
export function personaMachineReadableZone(persona: Persona): string[] {
  const { claims, document } = persona;
  return machineReadableZone({
    documentCode: document.type === 'passport' ? 'P' : 'I',
    issuingState: document.issuer.country_code,
    documentNumber: document.document_number,
    nationality: claims.nationalities[0] ?? document.issuer.country_code,
    birthdate: claims.birthdate,
    sex: claims.gender === 'male' ? 'M' : claims.gender === 'female' ? 'F' : '<',
    expiry: document.date_of_expiry,
    surname: claims.family_name,
    givenNames: claims.given_name,
    personalNumber: personalNumberText(persona),
  });
}
