/**
 * The assurance verdict: the evidence of a verification judged against a policy, the rules the
 * relying party holds it to. Signature, issuer, nonce and the rest are checked before a token is
 * accepted at all (buildChecks lists them); this is the next question, whether the identity that
 * came back is good enough for what was asked: "Verified", "Verified with warnings" (each with its
 * reason) or "Not verified" (each failed rule with its reason).
 *
 * A policy is a list of rules. Every rule that concerns something not requested is "not
 * applicable" rather than met, so one policy serves any selection. Presets carry their own
 * (lib/verification/presets.ts); a selection of one's own gets OWN_SELECTION_POLICY.
 * Pure functions; dates are compared in UTC as ISO strings (YYYY-MM-DD). Titles and reasons are
 * written in the reader's language (lib/view/assurance-messages.ts); the codes they name are not.
 */
import type { ClaimName, Selection } from '@/lib/oidc/types';
import type { VerifiedClaims } from '@/lib/oidc/verified-claims';
import { formatDate } from '@/lib/i18n/format';
import type { Locale } from '@/lib/i18n/locale';
import { policyName, type AssurancePolicy, type PolicyRule } from '@/lib/verification/policy';
import { ASSURANCE_MESSAGES } from './assurance-messages';
import type { SigningCertificateCheck } from '@/lib/verification/signing-certificate';
import { ageOn, mergeVerifiedClaims } from '@/lib/verification/verified-identity';

export type RuleOutcome = 'met' | 'warning' | 'failed' | 'not_applicable';

export interface RuleResult {
  rule: PolicyRule['rule'];
  /** the rule in words, as the policy card lists it */
  title: string;
  outcome: RuleOutcome;
  /** why: what was compared, in words */
  reason: string;
}

export type Verdict = 'verified' | 'verified_with_warnings' | 'not_verified';

export interface Assessment {
  verdict: Verdict;
  /** the policy judged by, named in the assessment's language */
  policy: { name: string; rules: PolicyRule[] };
  /** the day the evidence is judged on (YYYY-MM-DD) and where it came from */
  verifiedOn: { date: string; source: 'verification.time' | 'auth_time' | 'iat' | 'today' };
  results: RuleResult[];
}

export interface AssessmentInput {
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
function verificationDay(verified: VerifiedClaims | undefined, claims: Record<string, unknown>, today: string): Assessment['verifiedOn'] {
  const time = verified?.verificationTime;
  const written = time && !Number.isNaN(Date.parse(time)) ? plainDay(time.slice(0, 10)) : undefined;
  const found: Assessment['verifiedOn'] | undefined = written
    ? { date: written, source: 'verification.time' }
    : dayOfNumericDate(claims.auth_time)
      ? { date: dayOfNumericDate(claims.auth_time)!, source: 'auth_time' }
      : dayOfNumericDate(claims.iat)
        ? { date: dayOfNumericDate(claims.iat)!, source: 'iat' }
        : undefined;
  return found && found.date <= today ? found : { date: today, source: 'today' };
}

const list = (names: readonly string[]) => names.join(', ');

/** Judges one rule, in the words of `locale`. */
function judge(rule: PolicyRule, input: AssessmentInput, verified: VerifiedClaims | undefined, day: string, locale: Locale): RuleResult {
  const { selection } = input;
  const claims = verified?.claims ?? {};
  const requested = Object.entries(selection.claims) as [ClaimName, { essential: boolean }][];
  const has = (name: ClaimName) => claims[name] !== undefined;
  const document = verified?.evidence.find((evidence) => evidence.type === 'document');
  const details = document?.type === 'document' ? document.documentDetails : undefined;
  const askedDetail = (detail: string) => selection.document?.details.includes(detail as never) ?? false;
  const result = (title: string, outcome: RuleOutcome, reason: string): RuleResult => ({ rule: rule.rule, title, outcome, reason });
  const t = ASSURANCE_MESSAGES[locale].rules;
  const date = (iso: string) => formatDate(iso, locale);

  switch (rule.rule) {
    case 'trust_framework': {
      const m = t.trust_framework;
      const title = m.title(selection.trustFramework);
      if (!verified) return result(title, 'failed', m.noVerifiedClaims);
      return verified.trustFramework === selection.trustFramework
        ? result(title, 'met', m.states(verified.trustFramework))
        : result(title, 'failed', m.statesOther(verified.trustFramework, selection.trustFramework));
    }
    case 'essential_claims': {
      const m = t.essential_claims;
      const essential = requested.filter(([, { essential }]) => essential).map(([name]) => name);
      if (essential.length === 0) return result(m.title, 'not_applicable', m.noneRequested);
      const missing = essential.filter((name) => !has(name));
      return missing.length === 0 ? result(m.title, 'met', t.present(list(essential))) : result(m.title, 'failed', m.missing(list(missing)));
    }
    case 'voluntary_claims': {
      const m = t.voluntary_claims;
      const voluntary = requested.filter(([, { essential }]) => !essential).map(([name]) => name);
      if (voluntary.length === 0) return result(m.title, 'not_applicable', m.noneRequested);
      const missing = voluntary.filter((name) => !has(name));
      return missing.length === 0 ? result(m.title, 'met', t.present(list(voluntary))) : result(m.title, 'warning', m.missing(list(missing)));
    }
    case 'document_valid': {
      const m = t.document_valid;
      if (!selection.document) return result(m.title, 'not_applicable', m.notRequested);
      if (!details) return result(m.title, 'failed', m.notProvided);
      const expiry = details.date_of_expiry;
      if (!expiry) return result(m.title, 'warning', askedDetail('date_of_expiry') ? m.withoutExpiry(date(day)) : m.expiryNotRequested(date(day)));
      return expiry < day ? result(m.title, 'failed', m.expired(date(expiry), date(day))) : result(m.title, 'met', m.valid(date(expiry), date(day)));
    }
    case 'chip_authentication': {
      const m = t.chip_authentication;
      if (!selection.document || !askedDetail('active_authentication_result')) return result(m.title, 'not_applicable', m.notRequested);
      if (!details) return result(m.title, 'not_applicable', t.noDocumentEvidence);
      const outcome = details.active_authentication_result;
      if (outcome === undefined) return result(m.title, 'warning', m.notProvided);
      return outcome === 'passed' ? result(m.title, 'met', 'active_authentication_result = passed') : result(m.title, 'failed', m.notPassed(outcome));
    }
    case 'issuer_check': {
      const m = t.issuer_check;
      const etsi = selection.trustFramework === 'standard_etsi';
      const title = etsi ? m.titleEtsi : m.title;
      if (!selection.document || !askedDetail('issuer_check')) {
        return etsi ? result(title, 'warning', m.etsiNotRequested) : result(title, 'not_applicable', m.notRequested);
      }
      if (!details) return result(title, 'not_applicable', t.noDocumentEvidence);
      const status = details.issuer_check?.valid;
      if (status === 'VALID') return result(title, 'met', 'issuer_check.valid = VALID');
      if (etsi) return result(title, 'failed', status === undefined ? m.notProvided : m.notValid(status));
      // Under standard the check is only available for Norwegian documents: UNKNOWN is the norm.
      if (status === undefined || status === 'UNKNOWN') return result(title, 'not_applicable', m.norwegianOnly(status));
      return result(title, 'warning', `issuer_check.valid = ${status}`);
    }
    case 'register_match': {
      const m = t.register_match;
      if (!selection.populationRegister) return result(m.title, 'not_applicable', m.notRequested);
      const record = verified?.evidence.find((evidence) => evidence.type === 'electronic_record');
      return record?.type === 'electronic_record' ? result(m.title, 'met', m.matched(record.record.sourceName)) : result(m.title, 'failed', m.noMatch);
    }
    case 'minimum_age': {
      const m = t.minimum_age;
      const title = m.title(rule.years);
      const birthdate = claims.birthdate;
      if (!birthdate) return result(title, 'failed', selection.claims.birthdate ? m.birthdateNotProvided : m.birthdateNotRequested);
      // OpenID Connect Core §5.1: a year 0000 means the year was left out.
      if (birthdate.startsWith('0000')) return result(title, 'failed', m.withoutYear);
      const age = ageOn(birthdate, day);
      return age >= rule.years ? result(title, 'met', m.old(age, date(day))) : result(title, 'failed', m.under(age, date(day), rule.years));
    }
    case 'signing_certificate': {
      const m = t.signing_certificate;
      const check = input.signingCertificateCheck;
      if (!check || check.key === 'no_certificate') return result(m.title, 'not_applicable', m.noCertificate);
      if (check.key === 'differs') return result(m.title, 'warning', m.differs);
      if (check.key === 'unreadable') return result(m.title, 'warning', m.unreadable);
      if (check.chain.state === 'not_valid') return result(m.title, 'warning', m.chainNotValid(check.chain.reason));
      return result(m.title, 'met', check.chain.state === 'validated' ? m.validated(check.chain.anchor) : m.notValidated);
    }
  }
}

/** Judges the evidence of a verification against `policy`, its titles and reasons in the words of `locale`. */
export function assess(input: AssessmentInput, policy: AssurancePolicy, locale: Locale): Assessment {
  const verified = mergeVerifiedClaims(input.verifiedClaims);
  const verifiedOn = verificationDay(verified, input.idTokenClaims, input.today);
  const results = policy.rules.map((rule) => judge(rule, input, verified, verifiedOn.date, locale));
  const verdict: Verdict = results.some((r) => r.outcome === 'failed')
    ? 'not_verified'
    : results.some((r) => r.outcome === 'warning')
      ? 'verified_with_warnings'
      : 'verified';
  return { verdict, policy: { name: policyName(policy, locale), rules: policy.rules }, verifiedOn, results };
}
