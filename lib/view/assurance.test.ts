import { describe, expect, it } from 'vitest';
import { DOCUMENT_DETAILS, type Selection, type VerifiedClaims } from '@/lib/oidc';
import { basePolicy, OWN_SELECTION_POLICY, policyName } from '@/lib/verification/policy';
import { PRESETS } from '@/lib/verification/presets';
import { assess, type AssessmentInput, type RuleResult } from './assurance';
import { ASSURANCE_MESSAGES } from './assurance-messages';

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
    const assessment = assess(input(), OWN_SELECTION_POLICY, 'en');
    expect(assessment.verdict).toBe('verified');
    expect(ruleOf(assessment.results, 'document_valid')).toMatchObject({ outcome: 'met', reason: 'valid until 31 January 2030; verified on 23 November 2026' });
    expect(ruleOf(assessment.results, 'register_match').outcome).toBe('not_applicable');
    expect(ruleOf(assessment.results, 'essential_claims').reason).toBe('given_name, family_name, birthdate present');
  });

  it('judges expiry on the day of the verification: verification.time, else auth_time, else iat, else today', () => {
    // valid until the 22nd: expired on the 23rd (verification.time), valid on the 22nd (auth_time)
    const expiring = documentWith({ date_of_expiry: '2026-11-22' });
    expect(assess(input({}, expiring), OWN_SELECTION_POLICY, 'en')).toMatchObject({
      verdict: 'not_verified',
      verifiedOn: { date: '2026-11-23', source: 'verification.time' },
    });
    const withoutTime = { ...expiring, verificationTime: undefined };
    expect(assess(input({}, withoutTime), OWN_SELECTION_POLICY, 'en')).toMatchObject({
      verdict: 'verified',
      verifiedOn: { date: '2026-11-22', source: 'auth_time' },
    });
    expect(
      assess(input({ idTokenClaims: { iat: Date.parse('2026-11-22T09:00:05Z') / 1000 } }, withoutTime), OWN_SELECTION_POLICY, 'en').verifiedOn.source,
    ).toBe('iat');
    expect(assess(input({ idTokenClaims: {} }, withoutTime), OWN_SELECTION_POLICY, 'en').verifiedOn).toEqual({ date: '2026-12-31', source: 'today' });
  });

  it('takes the date of verification.time as the provider wrote it, and never a day after today', () => {
    // 00:30 on the 24th in Oslo is still the 23rd in UTC: the 24th it is
    expect(assess(input({}, { verificationTime: '2026-11-24T00:30:00+01:00' }), OWN_SELECTION_POLICY, 'en').verifiedOn).toEqual({
      date: '2026-11-24',
      source: 'verification.time',
    });
    // a provider's clock a year ahead does not age anybody
    expect(assess(input({ today: '2026-11-23' }, { verificationTime: '2027-11-23T10:00:00Z' }), OWN_SELECTION_POLICY, 'en').verifiedOn).toEqual({
      date: '2026-11-23',
      source: 'today',
    });
    // an auth_time beyond year 9999 is no date
    expect(assess(input({ idTokenClaims: { auth_time: 3e11 } }, { verificationTime: undefined }), OWN_SELECTION_POLICY, 'en').verifiedOn.source).toBe('today');
  });

  it('says Not verified for an expired document, with the reason', () => {
    const assessment = assess(input({}, documentWith({ date_of_expiry: '2024-05-01' })), OWN_SELECTION_POLICY, 'en');
    expect(assessment.verdict).toBe('not_verified');
    expect(ruleOf(assessment.results, 'document_valid')).toMatchObject({
      outcome: 'failed',
      reason: 'expired on 1 May 2024, before the verification on 23 November 2026',
    });
  });

  it('warns when the expiry date is missing, and fails when document evidence did not come back', () => {
    expect(ruleOf(assess(input({}, documentWith({ date_of_expiry: undefined })), OWN_SELECTION_POLICY, 'en').results, 'document_valid').outcome).toBe(
      'warning',
    );
    expect(ruleOf(assess(input({}, { evidence: [] }), OWN_SELECTION_POLICY, 'en').results, 'document_valid')).toMatchObject({
      outcome: 'failed',
      reason: 'document evidence was requested but not provided',
    });
  });

  it('fails a chip that did not pass, warns when its result is missing, and ignores it when not requested', () => {
    expect(
      ruleOf(assess(input({}, documentWith({ active_authentication_result: 'failed' })), OWN_SELECTION_POLICY, 'en').results, 'chip_authentication'),
    ).toMatchObject({
      outcome: 'failed',
      reason: 'active_authentication_result = failed, not passed',
    });
    expect(
      ruleOf(assess(input({}, documentWith({ active_authentication_result: undefined })), OWN_SELECTION_POLICY, 'en').results, 'chip_authentication').outcome,
    ).toBe('warning');
    const withoutChip: Selection = { ...DOCUMENT_SELECTION, document: { details: ['type', 'date_of_expiry'] } };
    expect(ruleOf(assess(input({ selection: withoutChip }), OWN_SELECTION_POLICY, 'en').results, 'chip_authentication').outcome).toBe('not_applicable');
  });

  it('requires a VALID issuer check under standard_etsi only', () => {
    const etsi: Selection = { ...DOCUMENT_SELECTION, trustFramework: 'standard_etsi' };
    const unknown = documentWith({ issuer_check: { valid: 'UNKNOWN' } });
    expect(
      ruleOf(assess(input({ selection: etsi }, { ...unknown, trustFramework: 'standard_etsi' }), OWN_SELECTION_POLICY, 'en').results, 'issuer_check'),
    ).toMatchObject({
      outcome: 'failed',
      reason: 'issuer_check.valid = UNKNOWN, not VALID',
    });
    expect(ruleOf(assess(input({}, unknown), OWN_SELECTION_POLICY, 'en').results, 'issuer_check').outcome).toBe('not_applicable');
    expect(ruleOf(assess(input({}, documentWith({ issuer_check: { valid: 'INVALID' } })), OWN_SELECTION_POLICY, 'en').results, 'issuer_check').outcome).toBe(
      'warning',
    );
    const etsiWithoutDocument: Selection = { ...etsi, document: undefined };
    expect(
      ruleOf(assess(input({ selection: etsiWithoutDocument }, { trustFramework: 'standard_etsi' }), OWN_SELECTION_POLICY, 'en').results, 'issuer_check')
        .outcome,
    ).toBe('warning');
  });

  it('fails when an essential claim is missing and warns when a voluntary one is', () => {
    const withoutPicture = { ...VERIFIED.claims, picture: undefined };
    const warned = assess(input({}, { claims: withoutPicture }), OWN_SELECTION_POLICY, 'en');
    expect(warned.verdict).toBe('verified_with_warnings');
    expect(ruleOf(warned.results, 'voluntary_claims').reason).toContain('requested but not provided: picture');
    const withoutBirthdate = { ...VERIFIED.claims, birthdate: undefined };
    const failed = assess(input({}, { claims: withoutBirthdate }), OWN_SELECTION_POLICY, 'en');
    expect(failed.verdict).toBe('not_verified');
    expect(ruleOf(failed.results, 'essential_claims').reason).toBe('essential but not provided: birthdate');
  });

  it('fails another trust framework than the one requested, and a token without verified claims', () => {
    expect(ruleOf(assess(input({}, { trustFramework: 'eidas' }), OWN_SELECTION_POLICY, 'en').results, 'trust_framework')).toMatchObject({
      outcome: 'failed',
      reason: 'the token states eidas, not the standard requested',
    });
    expect(assess(input({ verifiedClaims: [] }), OWN_SELECTION_POLICY, 'en').verdict).toBe('not_verified');
  });

  it('requires a register match when register evidence was requested', () => {
    const selection: Selection = { ...DOCUMENT_SELECTION, populationRegister: {} };
    expect(ruleOf(assess(input({ selection }), OWN_SELECTION_POLICY, 'en').results, 'register_match').outcome).toBe('failed');
    const record = {
      type: 'electronic_record' as const,
      record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '14038712345' },
    };
    expect(ruleOf(assess(input({ selection }, { evidence: [PASSPORT, record] }), OWN_SELECTION_POLICY, 'en').results, 'register_match')).toMatchObject({
      outcome: 'met',
      reason: 'matched in Folkeregisteret',
    });
  });

  it('checks a minimum age on the day of the verification', () => {
    const ageCheck = basePolicy({ en: 'Age check', nb: 'Alderskontroll' }, [{ rule: 'minimum_age', years: 18 }]);
    // born 24 November 2008: 17 on the 23rd, 18 on the 24th
    expect(ruleOf(assess(input(), ageCheck, 'en').results, 'minimum_age')).toMatchObject({
      outcome: 'failed',
      reason: '17 years old on 23 November 2026, under 18',
    });
    expect(assess(input({ today: '2027-01-01' }, { verificationTime: '2026-11-24T00:00:00Z' }), ageCheck, 'en').verdict).toBe('verified');
    // a year 0000 is a year left out (OpenID Connect Core §5.1), not an age of 2026
    expect(ruleOf(assess(input({}, { claims: { ...VERIFIED.claims, birthdate: '0000-03-14' } }), ageCheck, 'en').results, 'minimum_age')).toMatchObject({
      outcome: 'failed',
      reason: 'the date of birth came without its year',
    });
  });

  it('in presenter mode says whether a minimum age is met, never the age', () => {
    const ageCheck = basePolicy({ en: 'Age check', nb: 'Alderskontroll' }, [{ rule: 'minimum_age', years: 18 }]);
    const under = ruleOf(assess(input(), ageCheck, 'en', { presenter: true }).results, 'minimum_age');
    expect(under).toMatchObject({ outcome: 'failed', reason: 'under 18 on 23 November 2026' });
    const met = assess(input({ today: '2027-01-01' }, { verificationTime: '2026-11-24T00:00:00Z' }), ageCheck, 'nb', { presenter: true });
    expect(ruleOf(met.results, 'minimum_age')).toMatchObject({ outcome: 'met', reason: '18 år eller eldre per 24. november 2026' });
  });

  it('warns when the signing certificate holds another key or its chain is not valid', () => {
    expect(assess(input({ signingCertificateCheck: { key: 'differs', chain: { state: 'not_validated' } } }), OWN_SELECTION_POLICY, 'en').verdict).toBe(
      'verified_with_warnings',
    );
    expect(
      assess(input({ signingCertificateCheck: { key: 'matches', chain: { state: 'not_valid', reason: 'expired' } } }), OWN_SELECTION_POLICY, 'en').verdict,
    ).toBe('verified_with_warnings');
    expect(ruleOf(assess(input({ signingCertificateCheck: undefined }), OWN_SELECTION_POLICY, 'en').results, 'signing_certificate').outcome).toBe(
      'not_applicable',
    );
  });
});

describe('the presets’ policies', () => {
  it('each preset carries a named policy; the age check adds a minimum age of 18', () => {
    for (const preset of PRESETS) {
      expect(policyName(preset.policy, 'en').length, preset.id).toBeGreaterThan(0);
      expect(policyName(preset.policy, 'nb').length, preset.id).toBeGreaterThan(0);
    }
    expect(PRESETS.find((preset) => preset.id === 'age-and-name')!.policy.rules).toContainEqual({ rule: 'minimum_age', years: 18 });
  });
});

describe('the policy’s name', () => {
  it('is given in the assessment’s language, and a stored English-only name is kept as it is', () => {
    expect(assess(input(), OWN_SELECTION_POLICY, 'nb').policy.name).toBe('Ditt eget utvalg');
    expect(assess(input(), OWN_SELECTION_POLICY, 'en').policy.name).toBe('Your selection');
    expect(assess(input(), { name: 'Full KYC', rules: [] }, 'nb').policy.name).toBe('Full KYC');
  });
});

describe('the verdict in each language', () => {
  const ageCheck = basePolicy({ en: 'Age check', nb: 'Alderskontroll' }, [{ rule: 'minimum_age', years: 18 }]);
  // expired, picture missing (voluntary), issuer UNKNOWN, no register requested, 17 on the day
  const mixed = input(
    { signingCertificateCheck: { key: 'matches', chain: { state: 'validated', anchor: 'CN=Root' } } },
    {
      ...documentWith({ date_of_expiry: '2024-05-01', issuer_check: { valid: 'UNKNOWN' } }),
      claims: { ...VERIFIED.claims, picture: undefined },
    },
  );
  const titlesAndReasons = (results: RuleResult[]) => results.map(({ rule, outcome, title, reason }) => [rule, outcome, title, reason]);

  it('keeps the English as it was written', () => {
    expect(titlesAndReasons(assess(mixed, ageCheck, 'en').results)).toEqual([
      ['trust_framework', 'met', 'Verified under the trust framework requested (standard)', 'the token states standard'],
      ['essential_claims', 'met', 'Every essential claim present', 'given_name, family_name, birthdate present'],
      ['voluntary_claims', 'warning', 'Voluntary claims present', 'requested but not provided: picture (voluntary, so the service may leave them out)'],
      ['document_valid', 'failed', 'Identity document provided and not expired', 'expired on 1 May 2024, before the verification on 23 November 2026'],
      ['chip_authentication', 'met', 'Document chip authentication passed', 'active_authentication_result = passed'],
      ['issuer_check', 'not_applicable', 'Issuer check not failed', "UNKNOWN: the service checks only Norwegian documents' issuers"],
      ['register_match', 'not_applicable', 'Matched in the population register', 'population register evidence was not requested'],
      ['signing_certificate', 'met', 'Signing certificate consistent', 'the key matches its certificate, whose chain leads to CN=Root'],
      ['minimum_age', 'failed', 'At least 18 years old', '17 years old on 23 November 2026, under 18'],
    ]);
    const expiryNotRequested: Selection = { ...DOCUMENT_SELECTION, document: { details: ['type'] } };
    expect(
      ruleOf(
        assess(input({ selection: expiryNotRequested }, documentWith({ date_of_expiry: undefined })), OWN_SELECTION_POLICY, 'en').results,
        'document_valid',
      ).reason,
    ).toBe('the date of expiry was not requested, so its validity on 23 November 2026 is unknown');
    expect(ruleOf(assess(input({}, { trustFramework: undefined }), OWN_SELECTION_POLICY, 'en').results, 'trust_framework').reason).toBe(
      'the token states no trust framework, not the standard requested',
    );
    const etsi: Selection = { ...DOCUMENT_SELECTION, trustFramework: 'standard_etsi' };
    expect(ruleOf(assess(input({ selection: etsi }, { trustFramework: 'standard_etsi' }), OWN_SELECTION_POLICY, 'en').results, 'issuer_check').title).toBe(
      'Issuer check VALID (required under standard_etsi)',
    );
  });

  it('keeps the English words of the badge, the panel and the policy card', () => {
    const { en } = ASSURANCE_MESSAGES;
    expect(en.verdicts).toEqual({ verified: 'Verified', verified_with_warnings: 'Verified with warnings', not_verified: 'Not verified' });
    expect(en.outcomes).toEqual({ met: 'Met', warning: 'Warning', failed: 'Failed', not_applicable: 'Not applicable' });
    expect(`${en.panel.judgedBy} Full KYC${en.panel.tally(5, 1, 2)}`).toBe(
      'Judged by the policy Full KYC: 5 of its rules met, 1 failed, 2 with a warning. The rules are listed under “Policy” below.',
    );
    expect(en.panel.tally(8, 0, 0)).toBe(': 8 of its rules met. The rules are listed under “Policy” below.');
    expect(en.card.title('Full KYC')).toBe('Policy: Full KYC');
    expect(en.card.intro('23 November 2026', en.sources['verification.time'])).toBe(
      'The rules this result is held to, judged on 23 November 2026 (the verification.time of the evidence). A rule about something not requested does not apply.',
    );
  });

  it('judges the same in Norwegian, in other words only', () => {
    const cases: [AssessmentInput, typeof ageCheck][] = [
      [mixed, ageCheck],
      [input(), OWN_SELECTION_POLICY],
      [input({ verifiedClaims: [] }), OWN_SELECTION_POLICY],
      [input({ selection: { ...DOCUMENT_SELECTION, populationRegister: {} } }), ageCheck],
    ];
    for (const [given, policy] of cases) {
      const english = assess(given, policy, 'en');
      const norwegian = assess(given, policy, 'nb');
      expect(norwegian.verdict).toBe(english.verdict);
      expect(norwegian.verifiedOn).toEqual(english.verifiedOn);
      expect(norwegian.results.map(({ rule, outcome }) => [rule, outcome])).toEqual(english.results.map(({ rule, outcome }) => [rule, outcome]));
      for (const [index, result] of norwegian.results.entries()) expect(result.title).not.toBe(english.results[index]!.title);
    }
  });

  it('says an expired document is not valid, with Norwegian dates', () => {
    const assessment = assess(input({}, documentWith({ date_of_expiry: '2024-05-01' })), OWN_SELECTION_POLICY, 'nb');
    expect(assessment.verdict).toBe('not_verified');
    expect(ruleOf(assessment.results, 'document_valid')).toMatchObject({
      outcome: 'failed',
      title: 'Identitetsdokument levert og ikke utløpt',
      reason: 'utløpt 1. mai 2024, før verifiseringen 23. november 2026',
    });
    expect(ruleOf(assess(input(), OWN_SELECTION_POLICY, 'nb').results, 'document_valid').reason).toBe(
      'gyldig til og med 31. januar 2030; verifisert 23. november 2026',
    );
  });

  it('counts a minimum age in år', () => {
    const ageCheck = basePolicy({ en: 'Age check', nb: 'Alderskontroll' }, [{ rule: 'minimum_age', years: 18 }]);
    expect(ruleOf(assess(input(), ageCheck, 'nb').results, 'minimum_age')).toMatchObject({
      outcome: 'failed',
      title: 'Minstealder 18 år',
      reason: '17 år per 23. november 2026, under minstealderen på 18 år',
    });
    expect(ruleOf(assess(input({ today: '2027-01-01' }, { verificationTime: '2026-11-24T00:00:00Z' }), ageCheck, 'nb').results, 'minimum_age')).toMatchObject({
      outcome: 'met',
      reason: '18 år per 24. november 2026',
    });
    expect(ruleOf(assess(input({}, { claims: { ...VERIFIED.claims, birthdate: '0000-03-14' } }), ageCheck, 'nb').results, 'minimum_age').reason).toBe(
      'fødselsdatoen kom uten årstall',
    );
  });

  it('gives each warning its reason in Norwegian', () => {
    const warned = assess(input({}, { claims: { ...VERIFIED.claims, picture: undefined } }), OWN_SELECTION_POLICY, 'nb');
    expect(warned.verdict).toBe('verified_with_warnings');
    expect(ruleOf(warned.results, 'voluntary_claims')).toMatchObject({
      outcome: 'warning',
      title: 'Frivillige opplysninger er oppgitt',
      reason: 'bedt om, men ikke oppgitt: picture (frivillige opplysninger kan tjenesten utelate)',
    });
    const expiryNotRequested: Selection = { ...DOCUMENT_SELECTION, document: { details: ['type'] } };
    expect(
      ruleOf(
        assess(input({ selection: expiryNotRequested }, documentWith({ date_of_expiry: undefined })), OWN_SELECTION_POLICY, 'nb').results,
        'document_valid',
      ).reason,
    ).toBe('utløpsdatoen ble ikke bedt om, så det er ukjent om dokumentet var gyldig 23. november 2026');
    expect(
      ruleOf(
        assess(input({ signingCertificateCheck: { key: 'differs', chain: { state: 'not_validated' } } }), OWN_SELECTION_POLICY, 'nb').results,
        'signing_certificate',
      ),
    ).toMatchObject({
      outcome: 'warning',
      title: 'Signeringssertifikatet stemmer',
      reason: 'x5c[0] inneholder en annen nøkkel enn den som verifiserte signaturen',
    });
  });

  it('says in Norwegian why a rule does not apply, keeping the codes as they are', () => {
    const assessment = assess(input({}, documentWith({ issuer_check: { valid: 'UNKNOWN' } })), OWN_SELECTION_POLICY, 'nb');
    expect(ruleOf(assessment.results, 'register_match')).toMatchObject({
      outcome: 'not_applicable',
      title: 'Treff i folkeregisteret',
      reason: 'dokumentasjon fra folkeregisteret ble ikke bedt om',
    });
    expect(ruleOf(assessment.results, 'issuer_check')).toMatchObject({
      outcome: 'not_applicable',
      title: 'Utstederkontrollen har ikke feilet',
      reason: 'UNKNOWN: tjenesten kontrollerer bare utstederen av norske dokumenter',
    });
    expect(ruleOf(assessment.results, 'essential_claims').reason).toBe('given_name, family_name, birthdate er oppgitt');
    expect(ruleOf(assess(input({}, { trustFramework: 'eidas' }), OWN_SELECTION_POLICY, 'nb').results, 'trust_framework')).toMatchObject({
      title: 'Verifisert etter tillitsrammeverket som ble bedt om (standard)',
      reason: 'tokenet oppgir eidas, ikke standard som ble bedt om',
    });
    expect(
      ruleOf(assess(input({}, documentWith({ active_authentication_result: 'failed' })), OWN_SELECTION_POLICY, 'nb').results, 'chip_authentication').reason,
    ).toBe('active_authentication_result = failed, ikke passed');
  });

  it('words the badge, the panel and the policy card in Norwegian', () => {
    const { nb } = ASSURANCE_MESSAGES;
    expect(nb.verdicts).toEqual({ verified: 'Verifisert', verified_with_warnings: 'Verifisert med advarsler', not_verified: 'Ikke verifisert' });
    expect(nb.outcomes).toEqual({ met: 'Oppfylt', warning: 'Advarsel', failed: 'Ikke oppfylt', not_applicable: 'Ikke aktuelt' });
    expect(`${nb.panel.judgedBy} Full KYC${nb.panel.tally(5, 1, 2)}`).toBe(
      'Vurdert etter regelsettet Full KYC: 5 av reglene er oppfylt, 1 er ikke oppfylt, 2 har advarsel. Reglene står under «Regelsett» nedenfor.',
    );
    expect(nb.card.title('Full KYC')).toBe('Regelsett: Full KYC');
    expect(nb.card.intro('23. november 2026', nb.sources.auth_time)).toBe(
      'Reglene dette resultatet holdes opp mot, vurdert per 23. november 2026 (auth_time i ID-tokenet). En regel om noe som ikke ble bedt om, er ikke aktuell.',
    );
  });
});
