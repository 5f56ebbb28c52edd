import { describe, expect, it } from 'vitest';
import { loadPortrait, norwegianNationalNumber, personas, populationRegisterMatch } from './personas';

/** Norwegian fødselsnummer / D-number: two mod-11 check digits (weights from Skatteetaten). */
function hasValidNorwegianCheckDigits(number: string): boolean {
  const digits = [...number].map(Number);
  const checkDigit = (weights: number[]) => {
    const remainder = weights.reduce((sum, weight, index) => sum + weight * digits[index]!, 0) % 11;
    return remainder === 0 ? 0 : 11 - remainder;
  };
  const k1 = checkDigit([3, 7, 6, 1, 8, 9, 4, 5, 2]);
  const k2 = checkDigit([5, 4, 3, 2, 7, 6, 5, 4, 3, 2]);
  return /^\d{11}$/.test(number) && k1 < 10 && k2 < 10 && k1 === digits[9] && k2 === digits[10];
}

/** Swedish personnummer (YYYYMMDD-NNNC): Luhn over the last ten digits. */
function hasValidSwedishCheckDigit(number: string): boolean {
  const digits = [...number.replace('-', '').slice(2)].map(Number);
  const sum = digits.slice(0, 9).reduce((total, digit, index) => {
    const product = digit * (index % 2 === 0 ? 2 : 1);
    return total + (product > 9 ? product - 9 : product);
  }, 0);
  return (10 - (sum % 10)) % 10 === digits[9];
}

/** Finnish henkilötunnus (DDMMYY-NNNC): the check character is DDMMYYNNN mod 31. */
function hasValidFinnishCheckCharacter(number: string): boolean {
  const match = /^(\d{6})[-+A](\d{3})([0-9A-Y])$/.exec(number);
  return match !== null && '0123456789ABCDEFHJKLMNPRSTUVWXY'[Number(match[1]! + match[2]!) % 31] === match[3];
}

describe('personas', () => {
  it('have unique ids that are safe in a path', () => {
    const ids = personas.map((persona) => persona.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
    expect(ids).toEqual([
      'ingrid-haugen',
      'lars-eriksson',
      'amira-nilsen',
      'jonas-weber',
      'sofia-costa',
      'mikkel-strand',
      'eva-lindqvist',
      'nora-berg',
      'alex-moreau',
      'sam-keller',
      'tobias-hansen',
    ]);
  });

  it.each(personas.filter((persona) => norwegianNationalNumber(persona) !== undefined).map((persona) => [persona.id, persona]))(
    '%s has a Norwegian national number that passes both mod-11 checks and matches birthdate and gender',
    (_id, persona) => {
      const number = norwegianNationalNumber(persona)!;
      expect(hasValidNorwegianCheckDigits(number)).toBe(true);
      const isDNumber = Number(number[0]) >= 4;
      const day = Number(number.slice(0, 2)) - (isDNumber ? 40 : 0);
      const [year, month, dayOfMonth] = persona.claims.birthdate.split('-');
      expect(String(day).padStart(2, '0')).toBe(dayOfMonth);
      expect(number.slice(2, 4)).toBe(month);
      expect(number.slice(4, 6)).toBe(year!.slice(2));
      // The third individual digit is even for women, odd for men.
      expect(Number(number[8]) % 2 === 0 ? 'female' : 'male').toBe(persona.claims.gender);
      expect(persona.document.issuer.country_code).toBe('NOR');
    },
  );

  it('include a D-number (first digit + 4) for amira-nilsen', () => {
    const amira = personas.find((persona) => persona.id === 'amira-nilsen')!;
    expect(norwegianNationalNumber(amira)).toMatch(/^[4-7]/);
    expect(amira.document.type).toBe('idcard');
  });

  it('catch a wrong check digit (the check above is not vacuous)', () => {
    expect(hasValidNorwegianCheckDigits('14038726421')).toBe(true);
    expect(hasValidNorwegianCheckDigits('14038726422')).toBe(false);
    expect(hasValidNorwegianCheckDigits('14038726431')).toBe(false);
  });

  it('give lars-eriksson a valid Swedish personnummer and eva-lindqvist a valid Finnish one', () => {
    const lars = personas.find((persona) => persona.id === 'lars-eriksson')!;
    const eva = personas.find((persona) => persona.id === 'eva-lindqvist')!;
    expect(hasValidSwedishCheckDigit(lars.document.personal_number as string)).toBe(true);
    expect((lars.document.personal_number as string).startsWith('19791102-')).toBe(true);
    expect(hasValidFinnishCheckCharacter(eva.document.personal_number as string)).toBe(true);
    expect(eva.document.date_of_expiry < new Date().toISOString().slice(0, 10)).toBe(true);
  });

  it('match the population register only for ingrid, amira, sofia and nora, and only with their own number', () => {
    const matched = personas.filter((persona) => populationRegisterMatch(persona) !== undefined).map((persona) => persona.id);
    expect(matched).toEqual(['ingrid-haugen', 'amira-nilsen', 'sofia-costa', 'nora-berg']);
    const ingrid = personas[0]!;
    expect(populationRegisterMatch(ingrid, '14038726421')).toBe('14038726421');
    expect(populationRegisterMatch(ingrid, '05099241421')).toBeUndefined();
  });

  it('have only tobias-hansen failing the face check', () => {
    expect(personas.filter((persona) => persona.faceCheck === 'fail').map((persona) => persona.id)).toEqual(['tobias-hansen']);
  });

  it('each have a JPEG portrait file', async () => {
    for (const persona of personas) {
      const portrait = await loadPortrait(persona);
      expect(portrait, persona.id).toBeDefined();
      expect([portrait![0], portrait![1]]).toEqual([0xff, 0xd8]);
    }
  });
});
