import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../errors';
import { parseClaimsRequest } from './claims-request';

const request = (verification: unknown, claims: unknown = {}) => ({ id_token: { verified_claims: { verification, claims } } });

describe('parseClaimsRequest (spec 2.3)', () => {
  it('at the default level, reads the trust framework, the known claims with their essential flag and the evidence, taking null, extra members and unknown names as OpenID Connect Core §5.5 does', () => {
    expect(
      parseClaimsRequest(
        request(
          {
            trust_framework: { value: 'standard' },
            evidence: [
              {
                type: { value: 'electronic_record' },
                record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' }, personal_number: '14038726421' },
              },
              { type: { value: 'document' }, document_details: { date_of_expiry: null, type: null, issuer: { name: null }, shoe_size: null }, method: 'pipp' },
            ],
          },
          { birthdate: null, given_name: { essential: true }, email: null, picture: { essential: false, purpose: 'to show it' } },
        ),
      ),
    ).toEqual({
      trustFramework: 'standard',
      claims: [
        { name: 'given_name', essential: true },
        { name: 'picture', essential: false },
        { name: 'birthdate', essential: false },
      ],
      evidence: [
        { type: 'electronic_record', sourceName: 'Folkeregisteret', personalNumber: '14038726421' },
        { type: 'document', details: ['type', 'date_of_expiry', 'issuer.name'] },
      ],
    });
  });

  it('takes the population register by the name it is configured with, and refuses the default name then', () => {
    const register = (name: string) =>
      request({
        trust_framework: { value: 'standard' },
        evidence: [{ type: { value: 'electronic_record' }, record: { type: { value: 'population_register' }, source: { name } } }],
      });
    expect(parseClaimsRequest(register('Det sentrale folkeregister'), { populationRegisterName: 'Det sentrale folkeregister' }).evidence).toEqual([
      { type: 'electronic_record', sourceName: 'Det sentrale folkeregister' },
    ]);
    expect(() => parseClaimsRequest(register('Folkeregisteret'), { populationRegisterName: 'Det sentrale folkeregister' })).toThrow(
      /record\.source\.name: must be 'Det sentrale folkeregister'/,
    );
    expect(() => parseClaimsRequest(register('Det sentrale folkeregister'))).toThrow(/must be 'Folkeregisteret'/);
  });

  it('at the default level, reads issuer: null as a request for both issuer members', () => {
    const parsed = parseClaimsRequest(
      request({ trust_framework: { value: 'standard' }, evidence: [{ type: { value: 'document' }, document_details: { issuer: null } }] }),
    );
    expect(parsed.evidence).toEqual([{ type: 'document', details: ['issuer.country_code', 'issuer.name'] }]);
  });

  it('returns no evidence when evidence is omitted, and accepts an empty claims object', () => {
    expect(parseClaimsRequest(request({ trust_framework: { value: 'standard' } }))).toEqual({
      trustFramework: 'standard',
      claims: [],
      evidence: [],
    });
  });

  it.each([null, 'claims', 42, [], {}, { id_token: null }, { id_token: { verified_claims: { claims: {} } } }])('refuses %j with InvalidRequest', (claims) => {
    expect(() => parseClaimsRequest(claims)).toThrow(InvalidRequest);
  });

  it.each([false, true])('refuses verified_claims without claims, naming the path (strict level: %s)', (strict) => {
    const withoutClaims = { id_token: { verified_claims: { verification: { trust_framework: { value: 'standard' } } } } };
    expect(() => parseClaimsRequest(withoutClaims, { strict })).toThrow(
      new InvalidRequest('request object claim claims.id_token.verified_claims.claims: is required'),
    );
  });
});

describe('parseClaimsRequest at the strict level: only the shape of spec 2.3', () => {
  const strict =
    (verification: unknown, claims: unknown = { given_name: { essential: true } }) =>
    () =>
      parseClaimsRequest(request(verification, claims), { strict: true });
  const standard = { trust_framework: { value: 'standard' } };
  const documentElement = (details: unknown, extra: Record<string, unknown> = {}) => ({ type: { value: 'document' }, document_details: details, ...extra });
  const registerElement = (record: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    type: { value: 'electronic_record' },
    record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' }, ...record },
    ...extra,
  });

  it('accepts the spec’s shape: claims as { essential }, details as null, issuer as an object of nulls', () => {
    expect(
      strict(
        {
          ...standard,
          evidence: [
            documentElement({ type: null, issuer: { country_code: null, name: null }, personal_number: null }),
            registerElement({ personal_number: '14038726421' }),
          ],
        },
        { given_name: { essential: true }, birthdate: { essential: false } },
      )(),
    ).toEqual({
      trustFramework: 'standard',
      claims: [
        { name: 'given_name', essential: true },
        { name: 'birthdate', essential: false },
      ],
      evidence: [
        { type: 'document', details: ['type', 'issuer.country_code', 'issuer.name', 'personal_number'] },
        { type: 'electronic_record', sourceName: 'Folkeregisteret', personalNumber: '14038726421' },
      ],
    });
  });

  it.each([
    ['a claim requested as null', strict(standard, { birthdate: null }), 'claims.id_token.verified_claims.claims.birthdate: must be an object'],
    ['a claim requested as {}', strict(standard, { birthdate: {} }), 'claims.id_token.verified_claims.claims.birthdate.essential: is required'],
    [
      'a claim with a member beside essential',
      strict(standard, { picture: { essential: false, purpose: 'to show it' } }),
      "claims.id_token.verified_claims.claims.picture: has unknown member 'purpose'",
    ],
    [
      'a claim name outside the seven of 2.3',
      strict(standard, { given_name: { essential: true }, email: { essential: true } }),
      "claims.id_token.verified_claims.claims: has unknown member 'email'",
    ],
    [
      'a member of claims beside id_token',
      () => parseClaimsRequest({ ...request(standard, {}), userinfo: {} }, { strict: true }),
      "claims: has unknown member 'userinfo'",
    ],
    [
      'a member of id_token beside verified_claims',
      () => parseClaimsRequest({ id_token: { ...request(standard, {}).id_token, email: null } }, { strict: true }),
      "claims.id_token: has unknown member 'email'",
    ],
    [
      'a member of verified_claims beside verification and claims',
      () => parseClaimsRequest({ id_token: { verified_claims: { verification: standard, claims: {}, txn: null } } }, { strict: true }),
      "claims.id_token.verified_claims: has unknown member 'txn'",
    ],
    [
      'a member of verification beside trust_framework and evidence',
      strict({ ...standard, time: null }),
      "claims.id_token.verified_claims.verification: has unknown member 'time'",
    ],
    [
      'a member of trust_framework beside value',
      strict({ trust_framework: { value: 'standard', essential: true } }),
      "claims.id_token.verified_claims.verification.trust_framework: has unknown member 'essential'",
    ],
    [
      'a member of a document element',
      strict({ ...standard, evidence: [documentElement({ type: null }, { method: 'pipp' })] }),
      "claims.id_token.verified_claims.verification.evidence[0]: has unknown member 'method'",
    ],
    [
      'a document detail 2.3 does not list',
      strict({ ...standard, evidence: [documentElement({ type: null, shoe_size: null })] }),
      "claims.id_token.verified_claims.verification.evidence[0].document_details: has unknown member 'shoe_size'",
    ],
    [
      'issuer: null',
      strict({ ...standard, evidence: [documentElement({ issuer: null })] }),
      'claims.id_token.verified_claims.verification.evidence[0].document_details.issuer: must be an object',
    ],
    [
      'an issuer member beside country_code and name',
      strict({ ...standard, evidence: [documentElement({ issuer: { name: null, address: null } })] }),
      "claims.id_token.verified_claims.verification.evidence[0].document_details.issuer: has unknown member 'address'",
    ],
    [
      'a member of a register element',
      strict({ ...standard, evidence: [registerElement({}, { time: null })] }),
      "claims.id_token.verified_claims.verification.evidence[0]: has unknown member 'time'",
    ],
    [
      'a member of record beside type, source and personal_number',
      strict({ ...standard, evidence: [registerElement({ date: null })] }),
      "claims.id_token.verified_claims.verification.evidence[0].record: has unknown member 'date'",
    ],
    [
      'a member of record.source beside name',
      strict({ ...standard, evidence: [registerElement({ source: { name: 'Folkeregisteret', country: 'NOR' } })] }),
      "claims.id_token.verified_claims.verification.evidence[0].record.source: has unknown member 'country'",
    ],
  ])('refuses %s, naming the path (the default level accepts it)', (_name, parse, description) => {
    expect(parse).toThrow(new InvalidRequest(`request object claim ${description}`));
  });

  it('the default level accepts every one of those shapes', () => {
    const lenient = (claims: unknown) => parseClaimsRequest(claims);
    expect(lenient(request(standard, { birthdate: null, picture: {}, email: { essential: true } })).claims).toEqual([
      { name: 'picture', essential: false },
      { name: 'birthdate', essential: false },
    ]);
    expect(
      lenient({ ...request({ ...standard, time: null, evidence: [documentElement({ issuer: null, shoe_size: null }, { method: 'pipp' })] }), userinfo: {} })
        .evidence,
    ).toEqual([{ type: 'document', details: ['issuer.country_code', 'issuer.name'] }]);
  });
});
