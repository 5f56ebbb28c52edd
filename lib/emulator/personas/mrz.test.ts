import { describe, expect, it } from 'vitest';
import { checkDigit, machineReadableZone, personaMachineReadableZone } from './mrz';
import { personas } from './personas';

/** The specimen documents of ICAO Doc 9303 (Anna Maria Eriksson of Utopia). */
const SPECIMEN = {
  issuingState: 'UTO',
  nationality: 'UTO',
  birthdate: '1974-08-12',
  sex: 'F',
  expiry: '2012-04-15',
  surname: 'Eriksson',
  givenNames: 'Anna Maria',
} as const;

describe('machine readable zone (ICAO 9303)', () => {
  it('computes check digits with weights 7, 3, 1', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
    expect(checkDigit('<<<<')).toBe('0');
  });

  it('writes the TD3 passport specimen exactly', () => {
    expect(machineReadableZone({ ...SPECIMEN, documentCode: 'P', documentNumber: 'L898902C3', personalNumber: 'ZE184226B' })).toEqual([
      'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
    ]);
  });

  it('writes the TD1 identity card specimen exactly', () => {
    expect(machineReadableZone({ ...SPECIMEN, documentCode: 'I', documentNumber: 'D23145890' })).toEqual([
      'I<UTOD231458907<<<<<<<<<<<<<<<',
      '7408122F1204159UTO<<<<<<<<<<<6',
      'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
    ]);
  });

  it('transliterates letters and writes Germany as D', () => {
    const [line1] = machineReadableZone({
      ...SPECIMEN,
      documentCode: 'P',
      issuingState: 'DEU',
      documentNumber: 'C01X00T47',
      surname: 'Müller-Ørsted',
      givenNames: 'Åse José',
    });
    expect(line1).toBe('P<D<<MUELLER<OERSTED<<AASE<JOSE<<<<<<<<<<<<<');
  });

  it('gives every persona lines of the right length with only MRZ characters', () => {
    for (const persona of personas) {
      const lines = personaMachineReadableZone(persona);
      const length = persona.document.type === 'passport' ? 44 : 30;
      expect(lines).toHaveLength(persona.document.type === 'passport' ? 2 : 3);
      for (const line of lines) expect(line).toMatch(new RegExp(`^[A-Z0-9<]{${length}}$`));
    }
  });
});
