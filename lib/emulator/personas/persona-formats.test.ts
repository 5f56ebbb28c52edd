/**
 * Every persona against the formats the spec states (2.3), by rules written here from the spec,
 * not from the persona file: a persona that the real service could never send is a test that
 * proves nothing about staging.
 */
import countries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { personas } from './personas';

/** A real calendar date written `YYYY-MM-DD` (2.3: ISO 8601). */
function isIsoDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/** ISO 3166-1 alpha-3, as assigned (2.3: `issuer.country_code`, `nationalities`). */
function isAlpha3(value: unknown): boolean {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value) && countries.isValid(value);
}

/** A Norwegian birth number or D-number: 11 digits, both mod-11 check digits right. */
function isNorwegianNationalNumber(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{11}$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = (weights: number[]) => {
    const remainder = weights.reduce((sum, weight, index) => sum + weight * digits[index]!, 0) % 11;
    return remainder === 0 ? 0 : 11 - remainder;
  };
  return check([3, 7, 6, 1, 8, 9, 4, 5, 2]) === digits[9] && check([5, 4, 3, 2, 7, 6, 5, 4, 3, 2]) === digits[10];
}

describe('the rules themselves', () => {
  it('refuse what the spec does not allow', () => {
    expect(['2024-02-29', '1999-12-31'].every(isIsoDate)).toBe(true);
    expect(['2023-02-29', '2024-13-01', '24-01-01', '2024-1-1', 20240101].some(isIsoDate)).toBe(false);
    expect(['NOR', 'SWE', 'CHE', 'FRA'].every(isAlpha3)).toBe(true);
    expect(['NO', 'nor', 'XXX', 'EUR', 'NORW'].some(isAlpha3)).toBe(false);
    expect(isNorwegianNationalNumber('14038726421')).toBe(true);
    expect(['14038726422', '1403872642', '1403872642x'].some(isNorwegianNationalNumber)).toBe(false);
  });
});

describe.each(personas.map((persona) => [persona.id, persona] as const))('persona %s, in the formats of spec 2.3', (_id, persona) => {
  const { claims, document } = persona;
  const norwegian = document.issuer.country_code === 'NOR';

  it('has verified claims of the stated types', () => {
    expect(['male', 'female', 'unknown', 'unspecified']).toContain(claims.gender);
    expect(isIsoDate(claims.birthdate)).toBe(true);
    expect(claims.nationalities.length).toBeGreaterThan(0);
    for (const nationality of claims.nationalities) expect(isAlpha3(nationality), nationality).toBe(true);
    for (const name of [claims.name, claims.given_name, claims.family_name]) expect(name.trim()).not.toBe('');
  });

  it('has document details of the stated types, dates in order', () => {
    expect(['passport', 'idcard']).toContain(document.type);
    expect(document.document_number).toMatch(/^[A-Z0-9]{5,20}$/);
    expect(isAlpha3(document.issuer.country_code)).toBe(true);
    expect(isIsoDate(document.date_of_expiry)).toBe(true);
    if (document.date_of_issuance !== undefined) {
      expect(isIsoDate(document.date_of_issuance)).toBe(true);
      expect(document.date_of_issuance < document.date_of_expiry).toBe(true);
      expect(claims.birthdate < document.date_of_issuance).toBe(true);
    }
    if (document.active_authentication_result !== undefined) expect(['passed', 'failed']).toContain(document.active_authentication_result);
  });

  it('has the no-fnr object only on a Norwegian document, with a valid national number', () => {
    const number = document.personal_number;
    if (norwegian) {
      expect(number).toEqual({ type: 'no-fnr', value: expect.any(String) });
      expect(isNorwegianNationalNumber((number as { value: string }).value)).toBe(true);
    } else if (number !== undefined) {
      expect(typeof number).toBe('string');
    }
  });

  it('has issuer_check VALID only for a Norwegian document; others UNKNOWN or none', () => {
    if (!norwegian) expect([undefined, 'UNKNOWN']).toContain(document.issuer_check?.valid);
    else expect(document.issuer_check).toEqual({ valid: 'VALID' });
  });

  it('is in the population register only under a valid Norwegian national number', () => {
    if (persona.populationRegister) expect(isNorwegianNationalNumber(persona.populationRegister.personalNumber)).toBe(true);
  });
});

describe('the personas cover what the spec allows', () => {
  it('include a chip that did not pass, each gender value, and a document without an issue date', () => {
    expect(personas.some((persona) => persona.document.active_authentication_result === 'failed')).toBe(true);
    for (const gender of ['male', 'female', 'unknown', 'unspecified'])
      expect(
        personas.some((persona) => persona.claims.gender === gender),
        gender,
      ).toBe(true);
    expect(personas.some((persona) => persona.document.date_of_issuance === undefined)).toBe(true);
    expect(personas.some((persona) => persona.document.type === 'idcard') && personas.some((persona) => persona.document.type === 'passport')).toBe(true);
  });
});
