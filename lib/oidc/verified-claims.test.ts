import { describe, expect, it } from 'vitest';
import { parseVerifiedClaims, readVerifiedClaims } from './verified-claims.ts';

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
      verification: {
        trust_framework: 'standard',
        evidence: [{ type: 'vouch' }, 'junk', { type: 'document', document_details: { date_of_expiry: '2031-02-30', document_number: 7 } }],
      },
      claims: { given_name: 42, family_name: ['x'], birthdate: '14.03.1987', nationalities: ['NOR', 'no', 3], favourite_colour: 'blue' },
    });
    expect(parsed).toEqual({
      trustFramework: 'standard',
      evidence: [{ type: 'document', documentDetails: {} }],
      claims: { nationalities: ['NOR'] },
    });
  });

  it('keeps a personal number given as a plain string (non-Norwegian documents)', () => {
    const [parsed] = parseVerifiedClaims({
      verification: { evidence: [{ type: 'document', document_details: { personal_number: '19791102-1234' } }] },
      claims: {},
    });
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

describe('parseVerifiedClaims: OpenID Connect for Identity Assurance 1.0 shapes beyond the spec’s examples', () => {
  const full = {
    verification: {
      trust_framework: 'standard',
      time: '2026-11-23T10:15:00Z',
      assurance_level: 'substantial',
      verification_process: 'f24c6f-6d3f-4ec5', // unknown here: ignored
      evidence: [
        {
          type: 'document',
          method: 'pipp',
          check_details: [
            { check_method: 'vcrypt', organization: 'Politiet', txn: 'DE-1234', time: '2026-11-23T10:14:00Z' },
            { check_method: 'bvr' },
            { organization: 'no method' },
            'not an object',
          ],
          attachments: [
            { desc: 'Front of the card', content_type: 'image/jpeg', content: 'A'.repeat(4096) },
            { desc: 'Back of the card', content_type: 'image/jpeg', url: 'https://idv.example/attachments/2', digest: { alg: 'sha-256', value: 'x' } },
            { desc: 'Fetched over http', url: 'http://idv.example/attachments/3' },
            { desc: 'Neither content nor url' },
          ],
          document_details: { type: 'passport' },
        },
      ],
    },
    claims: { name: 'Ingrid Solberg Haugen' },
  };

  it('reads verification.time, assurance_level, check_details and attachments when present', () => {
    const [verified] = parseVerifiedClaims(full);
    expect(verified).toMatchObject({ verificationTime: '2026-11-23T10:15:00Z', assuranceLevel: 'substantial' });
    const evidence = verified!.evidence[0]!;
    expect(evidence.checkDetails).toEqual([
      { checkMethod: 'vcrypt', organization: 'Politiet', txn: 'DE-1234', time: '2026-11-23T10:14:00Z' },
      { checkMethod: 'bvr' },
    ]);
    // Described, never fetched: embedded content by its size, an external one only over https.
    expect(evidence.attachments).toEqual([
      { description: 'Front of the card', contentType: 'image/jpeg', embeddedBytes: 3072 },
      { description: 'Back of the card', contentType: 'image/jpeg', url: 'https://idv.example/attachments/2' },
    ]);
  });

  it('requires none of them, and drops malformed ones', () => {
    const [verified] = parseVerifiedClaims({
      verification: {
        trust_framework: 'standard',
        time: 'yesterday',
        assurance_level: 3,
        evidence: [{ type: 'document', check_details: 'vcrypt', attachments: {} }],
      },
      claims: {},
    });
    expect(verified).not.toHaveProperty('verificationTime');
    expect(verified).not.toHaveProperty('assuranceLevel');
    expect(verified!.evidence[0]).toEqual({ type: 'document', documentDetails: {} });
  });

  it.each([
    [
      'as OpenID Connect for Identity Assurance writes it',
      { type: 'population_register', source: { name: 'Folkeregisteret' }, personal_number: '14038712345' },
    ],
    [
      'with its type as { value } as in the request',
      { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' }, personal_number: '14038712345' },
    ],
    [
      'with the personal number as an object, as the document’s',
      { type: 'population_register', source: { name: 'Folkeregisteret' }, personal_number: { type: 'no-fnr', value: '14038712345' } },
    ],
    ['with its source as a plain name', { type: 'population_register', source: 'Folkeregisteret', personal_number: '14038712345' }],
  ])('reads the register evidence %s (spec 2.3 shows only the request)', (_shape, record) => {
    const [verified] = parseVerifiedClaims({
      verification: { trust_framework: 'standard', evidence: [{ type: { value: 'electronic_record' }, record }] },
      claims: {},
    });
    expect(verified!.evidence).toEqual([
      { type: 'electronic_record', record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '14038712345' } },
    ]);
  });

  it('keeps register evidence without a record, and drops a personal number or source of the wrong type', () => {
    const [verified] = parseVerifiedClaims({
      verification: {
        trust_framework: 'standard',
        evidence: [{ type: 'electronic_record' }, { type: 'electronic_record', record: { source: 7, personal_number: 14038712345 } }],
      },
      claims: {},
    });
    expect(verified!.evidence).toEqual([
      { type: 'electronic_record', record: {} },
      { type: 'electronic_record', record: {} },
    ]);
  });

  it('reads verified_claims sent as an array of elements', () => {
    const list = parseVerifiedClaims([
      full,
      {
        verification: {
          trust_framework: 'standard',
          evidence: [{ type: 'electronic_record', record: { type: 'population_register', source: { name: 'Folkeregisteret' } } }],
        },
        claims: { birthdate: '1987-03-14' },
      },
    ]);
    expect(list).toHaveLength(2);
    expect(list[1]!.evidence[0]).toMatchObject({ type: 'electronic_record', record: { sourceName: 'Folkeregisteret' } });
  });
});

describe('readVerifiedClaims', () => {
  it('names every member it drops, with its path and why, never its value', () => {
    const { verifiedClaims, dropped } = readVerifiedClaims({
      verification: {
        trust_framework: 'standard',
        time: 'yesterday',
        verification_process: 'not read here',
        evidence: [
          { type: 'document', document_details: { type: 'passport', date_of_expiry: '2031-02-30', issuer: { country_code: 'no' } } },
          { type: 'utility_bill' },
          'not an object',
        ],
      },
      claims: { given_name: 'Kari', birthdate: '17.05.1990', picture: 'https://example.com/p.jpg', nationalities: ['NOR', 'xx'], shoe_size: 42 },
    });
    expect(verifiedClaims[0]!.claims).toEqual({ given_name: 'Kari', nationalities: ['NOR'] });
    expect(dropped).toEqual([
      { path: 'verified_claims.verification.verification_process', reason: 'unknown_member' },
      { path: 'verified_claims.verification.evidence[0].document_details.issuer.country_code', reason: 'not_a_country_code' },
      { path: 'verified_claims.verification.evidence[0].document_details.date_of_expiry', reason: 'not_a_date' },
      { path: 'verified_claims.verification.evidence[1].type', reason: 'unknown_evidence_type' },
      { path: 'verified_claims.verification.evidence[2]', reason: 'not_an_object' },
      { path: 'verified_claims.verification.time', reason: 'not_a_date_time' },
      { path: 'verified_claims.claims.shoe_size', reason: 'unknown_member' },
      { path: 'verified_claims.claims.nationalities[1]', reason: 'not_a_country_code' },
      { path: 'verified_claims.claims.picture', reason: 'not_a_portrait' },
      { path: 'verified_claims.claims.birthdate', reason: 'not_a_date' },
    ]);
    expect(JSON.stringify(dropped)).not.toContain('17.05.1990');
  });

  it('drops nothing from a well-formed element, and reads an array with indexed paths', () => {
    expect(readVerifiedClaims([{ verification: { trust_framework: 'standard', evidence: [] }, claims: { given_name: 'Kari' } }, 7]).dropped).toEqual([
      { path: 'verified_claims[1]', reason: 'not_an_object' },
    ]);
    expect(readVerifiedClaims(undefined)).toEqual({ verifiedClaims: [], dropped: [] });
  });
});
