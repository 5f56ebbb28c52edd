import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type Selection, type VerifiedClaims } from '@/lib/oidc';
import { ageOn, buildResultView } from './result-view';

const verified: VerifiedClaims = {
  trustFramework: 'standard',
  evidence: [
    {
      type: 'document',
      documentDetails: {
        type: 'passport',
        document_number: 'FH1234567',
        date_of_expiry: '2026-11-20',
        issuer: { country_code: 'NOR', name: 'Politiet' },
        personal_number: { type: 'no-fnr', value: '14038712345' },
      },
    },
  ],
  claims: { name: 'Ingrid Solberg Haugen', birthdate: '1987-03-14', nationalities: ['NOR', 'PRT'], gender: 'female' },
};

describe('buildResultView', () => {
  it('shows values, "not provided" for requested-but-absent data and "not requested" for the rest', () => {
    const selection: Selection = { ...DEFAULT_SELECTION, claims: { name: { essential: true }, given_name: { essential: true }, birthdate: { essential: true } } };
    const view = buildResultView([verified], selection, '2026-11-21');
    expect(view.identity.name).toEqual({ state: 'value', text: 'Ingrid Solberg Haugen' });
    expect(view.identity.givenName).toEqual({ state: 'not_provided' });
    expect(view.identity.gender).toEqual({ state: 'not_requested' });
    expect(view.identity.portrait).toEqual({ state: 'not_requested' });
    expect(view.identity.birthdate).toEqual({ state: 'value', text: '14 March 1987', hint: '39 years old' });
  });

  it('names countries and marks an expired document', () => {
    const view = buildResultView([verified], DEFAULT_SELECTION, '2026-11-21');
    expect(view.identity.nationalities).toEqual({ state: 'value', text: 'Norway (NOR), Portugal (PRT)' });
    expect(view.document.issuingCountry).toEqual({ state: 'value', text: 'Norway (NOR)' });
    expect(view.document.expired).toBe(true);
    expect(buildResultView([verified], DEFAULT_SELECTION, '2026-11-20').document.expired).toBe(false);
    expect(view.document.personalNumber).toEqual({ state: 'value', text: '14038712345', hint: 'no-fnr' });
    expect(view.document.issuerCheck).toEqual({ state: 'not_provided' });
  });

  it('says when document evidence was requested but none came back', () => {
    const view = buildResultView([{ ...verified, evidence: [] }], DEFAULT_SELECTION, '2026-11-21');
    expect(view.document).toMatchObject({ requested: true, provided: false });
  });
});

describe('the population-register view', () => {
  const record = { type: 'electronic_record' as const, record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '14038712345' } };

  it('shows the matched record when register evidence was requested and returned', () => {
    const selection: Selection = { ...DEFAULT_SELECTION, populationRegister: {} };
    const view = buildResultView([{ ...verified, evidence: [...verified.evidence, record] }], selection, '2026-11-21');
    expect(view.populationRegister).toEqual({
      requested: true,
      provided: true,
      lookedUp: undefined,
      source: { state: 'value', text: 'Folkeregisteret' },
      personalNumber: { state: 'value', text: '14038712345' },
    });
  });

  it('says "not provided" when there was no match, and "not requested" when it was not asked for', () => {
    const asked = buildResultView([verified], { ...DEFAULT_SELECTION, populationRegister: { personalNumber: '01010112345' } }, '2026-11-21');
    expect(asked.populationRegister).toMatchObject({ requested: true, provided: false, lookedUp: '01010112345', personalNumber: { state: 'not_provided' } });
    const notAsked = buildResultView([{ ...verified, evidence: [record] }], DEFAULT_SELECTION, '2026-11-21');
    expect(notAsked.populationRegister).toMatchObject({ requested: false, personalNumber: { state: 'not_requested' } });
  });
});

describe('ageOn', () => {
  it('counts a birthday only once it has come', () => {
    expect(ageOn('1987-03-14', '2026-03-13')).toBe(38);
    expect(ageOn('1987-03-14', '2026-03-14')).toBe(39);
  });
});
