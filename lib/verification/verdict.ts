/**
 * The verdict: the evidence of a verification judged against a policy (policy.ts). Signature,
 * issuer, nonce and the rest are checked before a token is accepted at all; this is the next
 * question, whether the identity that came back is good enough for what was asked: "verified",
 * "verified with warnings" (each with its reason) or "not verified" (each failed rule with its
 * reason).
 *
 * Facts only: each rule's outcome and the reason as data (what was compared, with the values);
 * lib/view/assurance.ts words them in the reader's language. Pure; dates are compared in UTC as
 * ISO strings (YYYY-MM-DD).
 */
import type { ClaimName, DocumentDetail, Selection } from '@/lib/oidc/types';
import type { VerifiedClaims } from '@/lib/oidc/verified-claims';
import type { PolicyRule } from './policy';
import type { SigningCertificateCheck } from './signing-certificate';
import { ageOn, mergeVerifiedClaims } from './verified-identity';

export type RuleOutcome = 'met' | 'warning' | 'failed' | 'not_applicable';
export type Verdict = 'verified' | 'verified_with_warnings' | 'not_verified';

/** Why a rule came out as it did, with the values it compared. */
export type Reason =
  | { reason: 'no_verified_claims' }
  | { reason: 'trust_framework_stated'; stated: string }
  | { reason: 'other_trust_framework'; stated: string | undefined; requested: string }
  | { reason: 'none_requested' }
  | { reason: 'present'; claims: ClaimName[] }
  | { reason: 'missing'; claims: ClaimName[] }
  | { reason: 'not_requested' }
  | { reason: 'not_provided' }
  | { reason: 'no_document_evidence' }
  | { reason: 'without_expiry'; day: string }
  | { reason: 'expiry_not_requested'; day: string }
  | { reason: 'expired'; expiry: string; day: string }
  | { reason: 'valid'; expiry: string; day: string }
  | { reason: 'chip_passed' }
  | { reason: 'chip_not_passed'; result: string }
  | { reason: 'etsi_issuer_check_not_requested' }
  | { reason: 'issuer_check_valid' }
  | { reason: 'issuer_check_not_valid'; status: string }
  | { reason: 'norwegian_documents_only'; status: string | undefined }
  | { reason: 'issuer_check_status'; status: string }
  | { reason: 'register_matched'; source: string | undefined }
  | { reason: 'no_register_match' }
  | { reason: 'birthdate_not_provided' }
  | { reason: 'birthdate_not_requested' }
  | { reason: 'birthdate_without_year' }
  | { reason: 'old_enough'; age: number; day: string }
  | { reason: 'under_age'; age: number; day: string; years: number }
  | { reason: 'no_certificate' }
  | { reason: 'certificate_differs' }
  | { reason: 'certificate_unreadable' }
  | { reason: 'chain_not_valid'; detail: string }
  | { reason: 'chain_validated'; anchor: string }
  | { reason: 'chain_not_validated' };

/** One rule judged. `etsi`: the issuer check's rule under standard_etsi, where it is required. */
export interface Finding {
  rule: PolicyRule;
  outcome: RuleOutcome;
  reason: Reason;
  /** the trust framework requested (the title of the trust framework's rule names it) */
  requested: string;
}

export interface Evaluation {
  verdict: Verdict;
  /** the day the evidence is judged on (YYYY-MM-DD) and where it came from */
  verifiedOn: { date: string; source: 'verification.time' | 'auth_time' | 'iat' | 'today' };
  findings: Finding[];
}

export interface EvaluationInput {
  selection: Selection;
  verifiedClaims: VerifiedClaims[];
  /** the ID token's claims (auth_time and iat date the verification when verification.time is absent) */
  idTokenClaims: Record<string, unknown>;
  signingCertificateCheck?: SigningCertificateCheck | undefined;
  /** YYYY-MM-DD: the last resort for the day of the verification */
  today: string;
}

/** A YYYY-MM-DD within years 0001–9999, or undefined. */
function plainDay(value: string): string | undefined {
  return /^(?!0000)\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

function dayOfNumericDate(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value * 1000) > 8.64e15) return undefined;
  return plainDay(new Date(value * 1000).toISOString().slice(0, 10));
}

/**
 * The day of the verification: verification.time (the date as the provider wrote it, in its own
 * offset), else auth_time, else iat, else today; never later than today, so that a provider's
 * clock running ahead cannot make a document valid or a person older.
 */
function verificationDay(verified: VerifiedClaims | undefined, claims: Record<string, unknown>, today: string): Evaluation['verifiedOn'] {
  const time = verified?.verificationTime;
  const written = time && !Number.isNaN(Date.parse(time)) ? plainDay(time.slice(0, 10)) : undefined;
  const found: Evaluation['verifiedOn'] | undefined = written
    ? { date: written, source: 'verification.time' }
    : dayOfNumericDate(claims.auth_time)
      ? { date: dayOfNumericDate(claims.auth_time)!, source: 'auth_time' }
      : dayOfNumericDate(claims.iat)
        ? { date: dayOfNumericDate(claims.iat)!, source: 'iat' }
        : undefined;
  return found && found.date <= today ? found : { date: today, source: 'today' };
}

/** Judges one rule. */
function judge(rule: PolicyRule, input: EvaluationInput, verified: VerifiedClaims | undefined, day: string): Finding {
  const { selection } = input;
  const claims = verified?.claims ?? {};
  const requested = Object.entries(selection.claims) as [ClaimName, { essential: boolean }][];
  const has = (name: ClaimName) => claims[name] !== undefined;
  const document = verified?.evidence.find((evidence) => evidence.type === 'document');
  const details = document?.type === 'document' ? document.documentDetails : undefined;
  const askedDetail = (detail: DocumentDetail) => selection.document?.details.includes(detail) ?? false;
  const found = (outcome: RuleOutcome, reason: Reason): Finding => ({ rule, outcome, reason, requested: selection.trustFramework });

  switch (rule.rule) {
    case 'trust_framework': {
      if (!verified) return found('failed', { reason: 'no_verified_claims' });
      return verified.trustFramework === selection.trustFramework
        ? found('met', { reason: 'trust_framework_stated', stated: verified.trustFramework })
        : found('failed', { reason: 'other_trust_framework', stated: verified.trustFramework, requested: selection.trustFramework });
    }
    case 'essential_claims':
    case 'voluntary_claims': {
      const essential = rule.rule === 'essential_claims';
      const names = requested.filter(([, flags]) => flags.essential === essential).map(([name]) => name);
      if (names.length === 0) return found('not_applicable', { reason: 'none_requested' });
      const missing = names.filter((name) => !has(name));
      if (missing.length === 0) return found('met', { reason: 'present', claims: names });
      return found(essential ? 'failed' : 'warning', { reason: 'missing', claims: missing });
    }
    case 'document_valid': {
      if (!selection.document) return found('not_applicable', { reason: 'not_requested' });
      if (!details) return found('failed', { reason: 'not_provided' });
      const expiry = details.date_of_expiry;
      if (!expiry) return found('warning', askedDetail('date_of_expiry') ? { reason: 'without_expiry', day } : { reason: 'expiry_not_requested', day });
      return expiry < day ? found('failed', { reason: 'expired', expiry, day }) : found('met', { reason: 'valid', expiry, day });
    }
    case 'chip_authentication': {
      if (!selection.document || !askedDetail('active_authentication_result')) return found('not_applicable', { reason: 'not_requested' });
      if (!details) return found('not_applicable', { reason: 'no_document_evidence' });
      const result = details.active_authentication_result;
      if (result === undefined) return found('warning', { reason: 'not_provided' });
      return result === 'passed' ? found('met', { reason: 'chip_passed' }) : found('failed', { reason: 'chip_not_passed', result });
    }
    case 'issuer_check': {
      const etsi = selection.trustFramework === 'standard_etsi';
      if (!selection.document || !askedDetail('issuer_check')) {
        return etsi ? found('warning', { reason: 'etsi_issuer_check_not_requested' }) : found('not_applicable', { reason: 'not_requested' });
      }
      if (!details) return found('not_applicable', { reason: 'no_document_evidence' });
      const status = details.issuer_check?.valid;
      if (status === 'VALID') return found('met', { reason: 'issuer_check_valid' });
      if (etsi) return found('failed', status === undefined ? { reason: 'not_provided' } : { reason: 'issuer_check_not_valid', status });
      // Under standard the check is only available for Norwegian documents: UNKNOWN is the norm.
      if (status === undefined || status === 'UNKNOWN') return found('not_applicable', { reason: 'norwegian_documents_only', status });
      return found('warning', { reason: 'issuer_check_status', status });
    }
    case 'register_match': {
      if (!selection.populationRegister) return found('not_applicable', { reason: 'not_requested' });
      const record = verified?.evidence.find((evidence) => evidence.type === 'electronic_record');
      return record?.type === 'electronic_record'
        ? found('met', { reason: 'register_matched', source: record.record.sourceName })
        : found('failed', { reason: 'no_register_match' });
    }
    case 'minimum_age': {
      const birthdate = claims.birthdate;
      if (!birthdate) return found('failed', { reason: selection.claims.birthdate ? 'birthdate_not_provided' : 'birthdate_not_requested' });
      // OpenID Connect Core §5.1: a year 0000 means the year was left out.
      if (birthdate.startsWith('0000')) return found('failed', { reason: 'birthdate_without_year' });
      const age = ageOn(birthdate, day);
      return age >= rule.years ? found('met', { reason: 'old_enough', age, day }) : found('failed', { reason: 'under_age', age, day, years: rule.years });
    }
    case 'signing_certificate': {
      const check = input.signingCertificateCheck;
      if (!check || check.key === 'no_certificate') return found('not_applicable', { reason: 'no_certificate' });
      if (check.key === 'differs') return found('warning', { reason: 'certificate_differs' });
      if (check.key === 'unreadable') return found('warning', { reason: 'certificate_unreadable' });
      if (check.chain.state === 'not_valid') return found('warning', { reason: 'chain_not_valid', detail: check.chain.reason });
      return found('met', check.chain.state === 'validated' ? { reason: 'chain_validated', anchor: check.chain.anchor } : { reason: 'chain_not_validated' });
    }
  }
}

/** Judges the evidence of a verification against the rules of a policy. */
export function evaluate(input: EvaluationInput, rules: readonly PolicyRule[]): Evaluation {
  const verified = mergeVerifiedClaims(input.verifiedClaims);
  const verifiedOn = verificationDay(verified, input.idTokenClaims, input.today);
  const findings = rules.map((rule) => judge(rule, input, verified, verifiedOn.date));
  const verdict: Verdict = findings.some((f) => f.outcome === 'failed')
    ? 'not_verified'
    : findings.some((f) => f.outcome === 'warning')
      ? 'verified_with_warnings'
      : 'verified';
  return { verdict, verifiedOn, findings };
}
