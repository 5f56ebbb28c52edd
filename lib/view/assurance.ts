/**
 * The assurance verdict in words: the domain judges the evidence against a policy
 * (lib/verification/verdict.ts: outcomes and reasons as facts); this writes each rule's title and
 * reason in the reader's language (lib/view/assurance-messages.ts) for the verdict panel and the
 * policy card. The codes and values it names are not translated.
 */
import { formatDate } from '@/lib/i18n/format';
import type { Locale } from '@/lib/i18n/locale';
import { policyName, type AssurancePolicy, type PolicyRule } from '@/lib/verification/policy';
import { evaluate, type EvaluationInput, type Evaluation, type Finding, type RuleOutcome, type Verdict } from '@/lib/verification/verdict';
import { ASSURANCE_MESSAGES } from './assurance-messages';

export type { RuleOutcome, Verdict } from '@/lib/verification/verdict';

export interface RuleResult {
  rule: PolicyRule['rule'];
  /** the rule in words, as the policy card lists it */
  title: string;
  outcome: RuleOutcome;
  /** why: what was compared, in words */
  reason: string;
}

export interface Assessment {
  verdict: Verdict;
  /** the policy judged by, named in the assessment's language */
  policy: { name: string; rules: PolicyRule[] };
  /** the day the evidence is judged on (YYYY-MM-DD) and where it came from */
  verifiedOn: Evaluation['verifiedOn'];
  results: RuleResult[];
}

export type AssessmentInput = EvaluationInput;

const list = (names: readonly string[]) => names.join(', ');

/** How much of the person the words may say: in presenter mode, no age. */
export interface AssessmentWording {
  presenter?: boolean;
}

/** A finding in the words of `locale`: its rule's title and its reason. */
function word({ rule, outcome, reason, requested }: Finding, locale: Locale, { presenter = false }: AssessmentWording): RuleResult {
  const t = ASSURANCE_MESSAGES[locale].rules;
  const date = (iso: string) => formatDate(iso, locale);
  const result = (title: string, text: string): RuleResult => ({ rule: rule.rule, title, outcome, reason: text });
  switch (rule.rule) {
    case 'trust_framework': {
      const m = t.trust_framework;
      const title = m.title(requested);
      if (reason.reason === 'trust_framework_stated') return result(title, m.states(reason.stated));
      if (reason.reason === 'other_trust_framework') return result(title, m.statesOther(reason.stated, reason.requested));
      return result(title, m.noVerifiedClaims);
    }
    case 'essential_claims':
    case 'voluntary_claims': {
      const m = t[rule.rule];
      if (reason.reason === 'present') return result(m.title, t.present(list(reason.claims)));
      if (reason.reason === 'missing') return result(m.title, m.missing(list(reason.claims)));
      return result(m.title, m.noneRequested);
    }
    case 'document_valid': {
      const m = t.document_valid;
      switch (reason.reason) {
        case 'not_provided':
          return result(m.title, m.notProvided);
        case 'without_expiry':
          return result(m.title, m.withoutExpiry(date(reason.day)));
        case 'expiry_not_requested':
          return result(m.title, m.expiryNotRequested(date(reason.day)));
        case 'expired':
          return result(m.title, m.expired(date(reason.expiry), date(reason.day)));
        case 'valid':
          return result(m.title, m.valid(date(reason.expiry), date(reason.day)));
        default:
          return result(m.title, m.notRequested);
      }
    }
    case 'chip_authentication': {
      const m = t.chip_authentication;
      switch (reason.reason) {
        case 'no_document_evidence':
          return result(m.title, t.noDocumentEvidence);
        case 'not_provided':
          return result(m.title, m.notProvided);
        case 'chip_passed':
          return result(m.title, 'active_authentication_result = passed');
        case 'chip_not_passed':
          return result(m.title, m.notPassed(reason.result));
        default:
          return result(m.title, m.notRequested);
      }
    }
    case 'issuer_check': {
      const m = t.issuer_check;
      const title = requested === 'standard_etsi' ? m.titleEtsi : m.title;
      switch (reason.reason) {
        case 'etsi_issuer_check_not_requested':
          return result(title, m.etsiNotRequested);
        case 'no_document_evidence':
          return result(title, t.noDocumentEvidence);
        case 'issuer_check_valid':
          return result(title, 'issuer_check.valid = VALID');
        case 'not_provided':
          return result(title, m.notProvided);
        case 'issuer_check_not_valid':
          return result(title, m.notValid(reason.status));
        case 'norwegian_documents_only':
          return result(title, m.norwegianOnly(reason.status));
        case 'issuer_check_status':
          return result(title, `issuer_check.valid = ${reason.status}`);
        default:
          return result(title, m.notRequested);
      }
    }
    case 'register_match': {
      const m = t.register_match;
      if (reason.reason === 'register_matched') return result(m.title, m.matched(reason.source));
      return result(m.title, reason.reason === 'no_register_match' ? m.noMatch : m.notRequested);
    }
    case 'minimum_age': {
      const m = t.minimum_age;
      const title = m.title(rule.years);
      switch (reason.reason) {
        case 'old_enough':
          return result(title, presenter ? m.oldEnough(rule.years, date(reason.day)) : m.old(reason.age, date(reason.day)));
        case 'under_age':
          return result(title, presenter ? m.tooYoung(reason.years, date(reason.day)) : m.under(reason.age, date(reason.day), reason.years));
        case 'birthdate_without_year':
          return result(title, m.withoutYear);
        case 'birthdate_not_requested':
          return result(title, m.birthdateNotRequested);
        default:
          return result(title, m.birthdateNotProvided);
      }
    }
    case 'signing_certificate': {
      const m = t.signing_certificate;
      switch (reason.reason) {
        case 'certificate_differs':
          return result(m.title, m.differs);
        case 'certificate_unreadable':
          return result(m.title, m.unreadable);
        case 'chain_not_valid':
          return result(m.title, m.chainNotValid(reason.detail));
        case 'chain_validated':
          return result(m.title, m.validated(reason.anchor));
        case 'chain_not_validated':
          return result(m.title, m.notValidated);
        default:
          return result(m.title, m.noCertificate);
      }
    }
  }
}

/** Judges the evidence of a verification against `policy` (verdict.ts), its titles and reasons in the words of `locale`. */
export function assess(input: AssessmentInput, policy: AssurancePolicy, locale: Locale, wording: AssessmentWording = {}): Assessment {
  const { verdict, verifiedOn, findings } = evaluate(input, policy.rules);
  return {
    verdict,
    policy: { name: policyName(policy, locale), rules: policy.rules },
    verifiedOn,
    results: findings.map((finding) => word(finding, locale, wording)),
  };
}
