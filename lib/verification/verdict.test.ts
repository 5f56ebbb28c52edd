import { describe, expect, it } from 'vitest';
import type { Selection, VerifiedClaims } from '@/lib/oidc';
import { basePolicy } from './policy';
import { evaluate } from './verdict';

const selection: Selection = {
  trustFramework: 'standard',
  claims: { given_name: { essential: true }, birthdate: { essential: true } },
  document: { details: ['type', 'date_of_expiry'] },
};
const verified = (expiry: string, birthdate = '2010-05-01'): VerifiedClaims[] => [
  {
    trustFramework: 'standard',
    evidence: [{ type: 'document', documentDetails: { type: 'passport', date_of_expiry: expiry } }],
    claims: { given_name: 'Lars', birthdate },
  },
];
const rules = basePolicy({ en: 'Age', nb: 'Alder' }, [{ rule: 'minimum_age', years: 18 }]).rules;
const byRule = (findings: ReturnType<typeof evaluate>['findings'], rule: string) => findings.find((finding) => finding.rule.rule === rule)!;

describe('the verdict, as facts', () => {
  it('gives each rule its outcome and its reason with the values compared, in no language', () => {
    const { verdict, verifiedOn, findings } = evaluate(
      { selection, verifiedClaims: verified('2026-01-31'), idTokenClaims: { auth_time: Date.UTC(2026, 1, 2) / 1000 }, today: '2026-11-24' },
      rules,
    );
    expect(verdict).toBe('not_verified');
    expect(verifiedOn).toEqual({ date: '2026-02-02', source: 'auth_time' });
    expect(byRule(findings, 'document_valid')).toMatchObject({ outcome: 'failed', reason: { reason: 'expired', expiry: '2026-01-31', day: '2026-02-02' } });
    expect(byRule(findings, 'minimum_age')).toMatchObject({ outcome: 'failed', reason: { reason: 'under_age', age: 15, day: '2026-02-02', years: 18 } });
    expect(byRule(findings, 'essential_claims')).toMatchObject({ outcome: 'met', reason: { reason: 'present', claims: ['given_name', 'birthdate'] } });
    expect(byRule(findings, 'register_match')).toMatchObject({ outcome: 'not_applicable', reason: { reason: 'not_requested' } });
    expect(JSON.stringify(findings)).not.toMatch(/expired on|years old| present/);
  });

  it('never judges on a day later than today, whatever the provider’s clock says', () => {
    const { verifiedOn, findings } = evaluate(
      { selection, verifiedClaims: verified('2027-01-01', '2008-11-25'), idTokenClaims: { iat: Date.UTC(2030, 0, 1) / 1000 }, today: '2026-11-24' },
      rules,
    );
    expect(verifiedOn).toEqual({ date: '2026-11-24', source: 'today' });
    expect(byRule(findings, 'minimum_age')).toMatchObject({ outcome: 'failed', reason: { reason: 'under_age', age: 17 } });
  });
});
