import { describe, expect, it } from 'vitest';
import { DOCUMENT_DETAILS, type Selection, type VerifiedClaims } from '@/lib/oidc';
import { assess, basePolicy, OWN_SELECTION_POLICY, type AssessmentInput, type RuleResult } from './assurance';
import { PRESETS } from './presets';

const DOCUMENT_SELECTION: Selection = {
  trustFramework: 'standard',
  claims: { given_name: { essential: true }, family_name: { essential: true }, birthdate: { essential: true }, picture: { essential: false } },
  document: { details: [...DOCUMENT_DETAILS] },
};

const PASSPORT = {
  type: 'document' as const,
  documentDetails: {
    type: 'passport',
    document_number: 'FH1234567',
    date_of_expiry: '2030-01-31',
    issuer: { country_code: 'NOR', name: 'Politiet' },
    active_authentication_result: 'passed',
    issuer_check: { valid: 'VALID' },
  },
};

const VERIFIED: VerifiedClaims = {
  trustFramework: 'standard',
  verificationTime: '2026-11-23T10:15:00Z',
  evidence: [PASSPORT],
  claims: { given_name: 'Ingrid', family_name: 'Haugen', birthdate: '2008-11-24', picture: 'data:image/jpeg;base64,AAAA' },
};

function input(overrides: Partial<AssessmentInput> = {}, verified: Partial<VerifiedClaims> = {}): AssessmentInput {
  return {
    selection: DOCUMENT_SELECTION,
    verifiedClaims: [{ ...VERIFIED, ...verified }],
    idTokenClaims: { auth_time: Date.parse('2026-11-22T09:00:00Z') / 1000, iat: Date.parse('2026-11-22T09:00:05Z') / 1000 },
    signingCertificateCheck: { key: 'matches', chain: { state: 'not_validated' } },
    today: '2026-12-31',
    ...overrides,
  };
}

function ruleOf(results: RuleResult[], rule: RuleResult['rule']): RuleResult {
  return results.find((result) => result.rule === rule)!;
}

function documentWith(details: Partial<typeof PASSPORT.documentDetails>): Partial<VerifiedClaims> {
  return { evidence: [{ ...PASSPORT, documentDetails: { ...PASSPORT.documentDetails, ...details } }] };
}

describe('assess', () => {
  it('says Verified when every rule that applies is met, and not-applicable for what was not requested', () => {
    const assessment = assess(input(), OWN_SELECTION_POLICY);
    expect(assessment.verdict).toBe('verified');
    expect(ruleOf(assessment.results, 'document_valid')).toMatchObject({ outcome: 'met', reason: 'valid until 31 January 2030; verified on 23 November 2026' });
    expect(ruleOf(assessment.results, 'register_match').outcome).toBe('not_applicable');
    expect(ruleOf(assessment.results, 'essential_claims').reason).toBe('given_name, family_name, birthdate present');
  });

  it('judges expiry on the day of the verification: verification.time, else auth_time, else iat, else today', () => {
    // valid until the 22nd: expired on the 23rd (verification.time), valid on the 22nd (auth_time)
    const expiring = documentWith({ date_of_expiry: '2026-11-22' });
    expect(assess(input({}, expiring), OWN_SELECTION_POLICY)).toMatchObject({ verdict: 'not_verified', verifiedOn: { date: '2026-11-23', source: 'verification.time' } });
    const withoutTime = { ...expiring, verificationTime: undefined };
    expect(assess(input({}, withoutTime), OWN_SELECTION_POLICY)).toMatchObject({ verdict: 'verified', verifiedOn: { date: '2026-11-22', source: 'auth_time' } });
    expect(assess(input({ idTokenClaims: { iat: Date.parse('2026-11-22T09:00:05Z') / 1000 } }, withoutTime), OWN_SELECTION_POLICY).verifiedOn.source).toBe('iat');
    expect(assess(input({ idTokenClaims: {} }, withoutTime), OWN_SELECTION_POLICY).verifiedOn).toEqual({ date: '2026-12-31', source: 'today' });
  });

  it('takes the date of verification.time as the provider wrote it, and never a day after today', () => {
    // 00:30 on the 24th in Oslo is still the 23rd in UTC: the 24th it is
    expect(assess(input({}, { verificationTime: '2026-11-24T00:30:00+01:00' }), OWN_SELECTION_POLICY).verifiedOn).toEqual({ date: '2026-11-24', source: 'verification.time' });
    // a provider's clock a year ahead does not age anybody
    expect(assess(input({ today: '2026-11-23' }, { verificationTime: '2027-11-23T10:00:00Z' }), OWN_SELECTION_POLICY).verifiedOn).toEqual({ date: '2026-11-23', source: 'today' });
    // an auth_time beyond year 9999 is no date
    expect(assess(input({ idTokenClaims: { auth_time: 3e11 } }, { verificationTime: undefined }), OWN_SELECTION_POLICY).verifiedOn.source).toBe('today');
  });

  it('says Not verified for an expired document, with the reason', () => {
    const assessment = assess(input({}, documentWith({ date_of_expiry: '2024-05-01' })), OWN_SELECTION_POLICY);
    expect(assessment.verdict).toBe('not_verified');
    expect(ruleOf(assessment.results, 'document_valid')).toMatchObject({ outcome: 'failed', reason: 'expired on 1 May 2024, before the verification on 23 November 2026' });
  });

  it('warns when the expiry date is missing, and fails when document evidence did not come back', () => {
    expect(ruleOf(assess(input({}, documentWith({ date_of_expiry: undefined })), OWN_SELECTION_POLICY).results, 'document_valid').outcome).toBe('warning');
    expect(ruleOf(assess(input({}, { evidence: [] }), OWN_SELECTION_POLICY).results, 'document_valid')).toMatchObject({
      outcome: 'failed',
      reason: 'document evidence was requested but not provided',
    });
  });

  it('fails a chip that did not pass, warns when its result is missing, and ignores it when not requested', () => {
    expect(ruleOf(assess(input({}, documentWith({ active_authentication_result: 'failed' })), OWN_SELECTION_POLICY).results, 'chip_authentication')).toMatchObject({
      outcome: 'failed',
      reason: 'active_authentication_result = failed, not passed',
    });
    expect(ruleOf(assess(input({}, documentWith({ active_authentication_result: undefined })), OWN_SELECTION_POLICY).results, 'chip_authentication').outcome).toBe('warning');
    const withoutChip: Selection = { ...DOCUMENT_SELECTION, document: { details: ['type', 'date_of_expiry'] } };
    expect(ruleOf(assess(input({ selection: withoutChip }), OWN_SELECTION_POLICY).results, 'chip_authentication').outcome).toBe('not_applicable');
  });

  it('requires a VALID issuer check under standard_etsi only', () => {
    const etsi: Selection = { ...DOCUMENT_SELECTION, trustFramework: 'standard_etsi' };
    const unknown = documentWith({ issuer_check: { valid: 'UNKNOWN' } });
    expect(ruleOf(assess(input({ selection: etsi }, { ...unknown, trustFramework: 'standard_etsi' }), OWN_SELECTION_POLICY).results, 'issuer_check')).toMatchObject({
      outcome: 'failed',
      reason: 'issuer_check.valid = UNKNOWN, not VALID',
    });
    expect(ruleOf(assess(input({}, unknown), OWN_SELECTION_POLICY).results, 'issuer_check').outcome).toBe('not_applicable');
    expect(ruleOf(assess(input({}, documentWith({ issuer_check: { valid: 'INVALID' } })), OWN_SELECTION_POLICY).results, 'issuer_check').outcome).toBe('warning');
    const etsiWithoutDocument: Selection = { ...etsi, document: undefined };
    expect(ruleOf(assess(input({ selection: etsiWithoutDocument }, { trustFramework: 'standard_etsi' }), OWN_SELECTION_POLICY).results, 'issuer_check').outcome).toBe('warning');
  });

  it('fails when an essential claim is missing and warns when a voluntary one is', () => {
    const withoutPicture = { ...VERIFIED.claims, picture: undefined };
    const warned = assess(input({}, { claims: withoutPicture }), OWN_SELECTION_POLICY);
    expect(warned.verdict).toBe('verified_with_warnings');
    expect(ruleOf(warned.results, 'voluntary_claims').reason).toContain('requested but not provided: picture');
    const withoutBirthdate = { ...VERIFIED.claims, birthdate: undefined };
    const failed = assess(input({}, { claims: withoutBirthdate }), OWN_SELECTION_POLICY);
    expect(failed.verdict).toBe('not_verified');
    expect(ruleOf(failed.results, 'essential_claims').reason).toBe('essential but not provided: birthdate');
  });

  it('fails another trust framework than the one requested, and a token without verified claims', () => {
    expect(ruleOf(assess(input({}, { trustFramework: 'eidas' }), OWN_SELECTION_POLICY).results, 'trust_framework')).toMatchObject({
      outcome: 'failed',
      reason: 'the token states eidas, not the standard requested',
    });
    expect(assess(input({ verifiedClaims: [] }), OWN_SELECTION_POLICY).verdict).toBe('not_verified');
  });

  it('requires a register match when register evidence was requested', () => {
    const selection: Selection = { ...DOCUMENT_SELECTION, populationRegister: {} };
    expect(ruleOf(assess(input({ selection }), OWN_SELECTION_POLICY).results, 'register_match').outcome).toBe('failed');
    const record = { type: 'electronic_record' as const, record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '14038712345' } };
    expect(ruleOf(assess(input({ selection }, { evidence: [PASSPORT, record] }), OWN_SELECTION_POLICY).results, 'register_match')).toMatchObject({
      outcome: 'met',
      reason: 'matched in Folkeregisteret',
    });
  });

  it('checks a minimum age on the day of the verification', () => {
    const ageCheck = basePolicy('Age check', [{ rule: 'minimum_age', years: 18 }]);
    // born 24 November 2008: 17 on the 23rd, 18 on the 24th
    expect(ruleOf(assess(input(), ageCheck).results, 'minimum_age')).toMatchObject({ outcome: 'failed', reason: '17 years old on 23 November 2026, under 18' });
    expect(assess(input({ today: '2027-01-01' }, { verificationTime: '2026-11-24T00:00:00Z' }), ageCheck).verdict).toBe('verified');
    // a year 0000 is a year left out (OpenID Connect Core §5.1), not an age of 2026
    expect(ruleOf(assess(input({}, { claims: { ...VERIFIED.claims, birthdate: '0000-03-14' } }), ageCheck).results, 'minimum_age')).toMatchObject({
      outcome: 'failed',
      reason: 'the date of birth came without its year',
    });
  });

  it('warns when the signing certificate holds another key or its chain is not valid', () => {
    expect(assess(input({ signingCertificateCheck: { key: 'differs', chain: { state: 'not_validated' } } }), OWN_SELECTION_POLICY).verdict).toBe('verified_with_warnings');
    expect(assess(input({ signingCertificateCheck: { key: 'matches', chain: { state: 'not_valid', reason: 'expired' } } }), OWN_SELECTION_POLICY).verdict).toBe('verified_with_warnings');
    expect(ruleOf(assess(input({ signingCertificateCheck: undefined }), OWN_SELECTION_POLICY).results, 'signing_certificate').outcome).toBe('not_applicable');
  });
});

describe('the presets’ policies', () => {
  it('each preset carries a named policy; the age check adds a minimum age of 18', () => {
    for (const preset of PRESETS) expect(preset.policy.name.length).toBeGreaterThan(0);
    expect(PRESETS.find((preset) => preset.id === 'age-and-name')!.policy.rules).toContainEqual({ rule: 'minimum_age', years: 18 });
  });
});
