/**
 * A policy: the rules the relying party holds the evidence of a verification to (the verdict,
 * lib/verification/verdict.ts, judges them). Every rule that concerns something not requested is "not
 * applicable" rather than met, so one policy serves any selection. Presets carry their own
 * (presets.ts); a selection of one's own gets OWN_SELECTION_POLICY.
 */
import type { Locale } from '@/lib/i18n/locale';

/** One rule of a policy. */
export type PolicyRule =
  /** the token's trust framework is the one requested */
  | { rule: 'trust_framework' }
  /** every claim requested as essential came back */
  | { rule: 'essential_claims' }
  /** voluntary claims that did not come back: a warning each, never a failure */
  | { rule: 'voluntary_claims' }
  /** document evidence came back, its document not expired on the day of the verification */
  | { rule: 'document_valid' }
  /** the document's chip passed active authentication, when that result was requested */
  | { rule: 'chip_authentication' }
  /** the issuer check is VALID: required under standard_etsi, a warning otherwise when it is not UNKNOWN */
  | { rule: 'issuer_check' }
  /** population register evidence came back (the register matched) */
  | { rule: 'register_match' }
  /** the person was at least `years` old on the day of the verification */
  | { rule: 'minimum_age'; years: number }
  /** the signing key's certificate: a mismatch or an invalid chain is a warning */
  | { rule: 'signing_certificate' };

export interface AssurancePolicy {
  /**
   * what the policy is called on the page in each language, e.g. "Full KYC"; a result stored
   * before names had languages holds the English one alone (see `policyName`)
   */
  name: Record<Locale, string> | string;
  rules: PolicyRule[];
}

/** The policy's name in `locale`. */
export function policyName(policy: AssurancePolicy, locale: Locale): string {
  return typeof policy.name === 'string' ? policy.name : policy.name[locale];
}

/** The rules every policy starts from: each applies only to what the selection requests. */
const BASE_RULES: PolicyRule[] = [
  { rule: 'trust_framework' },
  { rule: 'essential_claims' },
  { rule: 'voluntary_claims' },
  { rule: 'document_valid' },
  { rule: 'chip_authentication' },
  { rule: 'issuer_check' },
  { rule: 'register_match' },
  { rule: 'signing_certificate' },
];

/** A policy of the base rules, plus any `extra` (a minimum age, say). */
export function basePolicy(name: Record<Locale, string>, extra: PolicyRule[] = []): AssurancePolicy {
  return { name, rules: [...BASE_RULES, ...extra] };
}

/** The policy of a selection made by hand (and of a result stored before policies): the base rules. */
export const OWN_SELECTION_POLICY: AssurancePolicy = basePolicy({ en: 'Your selection', nb: 'Ditt eget utvalg' });
