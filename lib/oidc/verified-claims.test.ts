import { describe, expect, it } from 'vitest';
import { parseVerifiedClaims } from './verified-claims.ts';

const JPEG = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==';

describe('parseVerifiedClaims (2.6, tolerant)', () => {
  it('reads claims and document and electronic-record evidence', () => {
    const [parsed] = parseVerifiedClaims({
      verification: {
        trust_framework: 'standard',
        evidence: [
          {
            type: 'document',
            document_details: {
              type: 'passport',
              document_number: 'FH1234567',
              date_of_expiry: '2031-05-01',
              issuer: { country_code: 'NOR', name: 'Politiet' },
              personal_number: { type: 'no-fnr', value: '14038712345' },
              issuer_check: { valid: 'VALID' },
            },
          },
          { type: 'electronic_record', record: { type: 'population_register', source: { name: 'Folkeregisteret' }, personal_number: '14038712345' } },
        ],
      },
      claims: { given_name: 'Kari', nationalities: ['NOR', 'PRT'], picture: JPEG, birthdate: '1987-03-14' },
    });
    expect(parsed).toEqual({
      trustFramework: 'standard',
      evidence: [
        {
          type: 'document',
          documentDetails: {
            type: 'passport',
            document_number: 'FH1234567',
            date_of_expiry: '2031-05-01',
            issuer: { country_code: 'NOR', name: 'Politiet' },
            personal_number: { type: 'no-fnr', value: '14038712345' },
            issuer_check: { valid: 'VALID' },
          },
        },
        { type: 'electronic_record', record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '14038712345' } },
      ],
      claims: { given_name: 'Kari', nationalities: ['NOR', 'PRT'], picture: JPEG, birthdate: '1987-03-14' },
    });
  });

  it('drops values of the wrong type and ignores unknown members and evidence types', () => {
    const [parsed] = parseVerifiedClaims({
      verification: { trust_framework: 'standard', evidence: [{ type: 'vouch' }, 'junk', { type: 'document', document_details: { date_of_expiry: '2031-02-30', document_number: 7 } }] },
      claims: { given_name: 42, family_name: ['x'], birthdate: '14.03.1987', nationalities: ['NOR', 'no', 3], favourite_colour: 'blue' },
    });
    expect(parsed).toEqual({
      trustFramework: 'standard',
      evidence: [{ type: 'document', documentDetails: {} }],
      claims: { nationalities: ['NOR'] },
    });
  });

  it('keeps a personal number given as a plain string (non-Norwegian documents)', () => {
    const [parsed] = parseVerifiedClaims({ verification: { evidence: [{ type: 'document', document_details: { personal_number: '19791102-1234' } }] }, claims: {} });
    expect(parsed?.evidence[0]).toEqual({ type: 'document', documentDetails: { personal_number: { value: '19791102-1234' } } });
  });

  it.each([
    ['an SVG (scriptable)', 'data:image/svg+xml;base64,PHN2Zz4='],
    ['a remote URL', 'https://evil.example/p.jpg'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a data URI with markup appended', `${JPEG}"><script>`],
  ])('refuses a portrait that is %s', (_name, picture) => {
    expect(parseVerifiedClaims({ claims: { picture } })[0]?.claims.picture).toBeUndefined();
  });

  it('accepts an array of verified_claims and ignores non-objects', () => {
    expect(parseVerifiedClaims([{ claims: { name: 'A' } }, 3, { claims: { name: 'B' } }]).map((v) => v.claims.name)).toEqual(['A', 'B']);
    expect(parseVerifiedClaims(undefined)).toEqual([]);
  });
});
