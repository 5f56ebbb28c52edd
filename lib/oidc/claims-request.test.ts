import { describe, expect, it } from 'vitest';
import { buildClaimsRequest, SELECTION_PROBLEM_TEXT, selectionProblemCodes, selectionProblems } from './claims-request.ts';
import type { Selection } from './types.ts';

describe('buildClaimsRequest (2.3)', () => {
  it('requests only the chosen claims, each with its essential flag, and omits evidence when none is chosen', () => {
    const selection: Selection = { trustFramework: 'standard', claims: { birthdate: { essential: true }, given_name: { essential: false } } };
    expect(buildClaimsRequest(selection)).toEqual({
      id_token: {
        verified_claims: {
          verification: { trust_framework: { value: 'standard' } },
          claims: { given_name: { essential: false }, birthdate: { essential: true } },
        },
      },
    });
  });

  it('sets each chosen document detail to null and nests issuer members', () => {
    const request = buildClaimsRequest({
      trustFramework: 'standard',
      claims: { name: { essential: true } },
      document: { details: ['type', 'issuer.country_code', 'issuer.name', 'personal_number'] },
    });
    expect(request.id_token.verified_claims.verification.evidence).toEqual([
      { type: { value: 'document' }, document_details: { type: null, issuer: { country_code: null, name: null }, personal_number: null } },
    ]);
  });

  it('builds population-register evidence with the register name and the optional personal number', () => {
    const request = buildClaimsRequest({
      trustFramework: 'standard',
      claims: { name: { essential: true } },
      populationRegister: { personalNumber: '01019012345' },
    });
    expect(request.id_token.verified_claims.verification.evidence).toEqual([
      {
        type: { value: 'electronic_record' },
        record: { type: { value: 'population_register' }, source: { name: 'Folkeregisteret' }, personal_number: '01019012345' },
      },
    ]);
    const withoutNumber = buildClaimsRequest({ trustFramework: 'standard', claims: {}, populationRegister: {} });
    expect(withoutNumber.id_token.verified_claims.verification.evidence?.[0]).not.toHaveProperty('record.personal_number');
  });
});

describe('buildClaimsRequest with the register’s name configured', () => {
  it('names the register as configured, Folkeregisteret otherwise', () => {
    const selection = { trustFramework: 'standard', claims: {}, populationRegister: {} };
    const named = buildClaimsRequest(selection, { populationRegisterName: 'Det sentrale folkeregister' });
    expect(named.id_token.verified_claims.verification.evidence?.[0]).toMatchObject({ record: { source: { name: 'Det sentrale folkeregister' } } });
    expect(buildClaimsRequest(selection).id_token.verified_claims.verification.evidence?.[0]).toMatchObject({
      record: { source: { name: 'Folkeregisteret' } },
    });
  });
});

describe('selectionProblems', () => {
  it('explains that standard_etsi needs given and family names', () => {
    expect(selectionProblems({ trustFramework: 'standard_etsi', claims: { given_name: { essential: true } } })).toEqual([
      'The standard_etsi trust framework requires given_name and family_name to be requested.',
    ]);
    expect(selectionProblems({ trustFramework: 'standard_etsi', claims: { given_name: { essential: true }, family_name: { essential: true } } })).toEqual([]);
  });

  it('gives each problem a stable code, in the order the sentences are shown', () => {
    const selection = { trustFramework: 'standard_etsi', claims: {}, populationRegister: { personalNumber: '12' } };
    expect(selectionProblemCodes({ trustFramework: 'standard', claims: {} })).toEqual(['nothing_requested']);
    expect(selectionProblemCodes(selection)).toEqual(['etsi_requires_names', 'personal_number_not_11_digits']);
    expect(selectionProblems(selection)).toEqual(selectionProblemCodes(selection).map((code) => SELECTION_PROBLEM_TEXT[code]));
  });

  it('refuses an empty request and a malformed personal number', () => {
    expect(selectionProblems({ trustFramework: 'standard', claims: {} })).toHaveLength(1);
    expect(selectionProblems({ trustFramework: 'standard', claims: {}, populationRegister: { personalNumber: '123' } })).toContain(
      'The personal number to look up must be 11 digits.',
    );
  });
});
