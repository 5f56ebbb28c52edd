/**
 * The assurance verdict: the evidence of a verification judged against a policy, the rules the
 * relying party holds it to. Signature, issuer, nonce and the rest are checked before a token is
 * accepted at all (buildChecks lists them); this is the next question, whether the identity that
 * came back is good enough for what was asked: "Verified", "Verified with warnings" (each with its
 * reason) or "Not verified" (each failed rule with its reason).
 *
 * A policy is a list of rules. Every rule that concerns something not requested is "not
 * applicable" rather than met, so one policy serves any selection. Presets carry their own
 * (lib/view/presets.ts); a selection of one's own gets OWN_SELECTION_POLICY.
 * Pure functions; dates are compared in UTC as ISO strings (YYYY-MM-DD).
 */
import type { ClaimName, Selection } from '@/lib/oidc/types';
import type { VerifiedClaims } from '@/lib/oidc/verified-claims';
import { ageOn, formatDate, mergeVerifiedClaims, type SigningCertificateCheck } from './result-view';

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
  /** what the policy is called on the page, e.g. "Full KYC" */
  name: string;
  rules: PolicyRule[];
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
export function basePolicy(name: string, extra: PolicyRule[] = []): AssurancePolicy {
  return { name, rules: [...BASE_RULES, ...extra] };
}

/** The policy of a selection made by hand (and of a result stored before policies): the base rules. */
export const OWN_SELECTION_POLICY: AssurancePolicy = basePolicy('Your selection');

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
  policy: AssurancePolicy;
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

/** Judges one rule. */
function judge(rule: PolicyRule, input: AssessmentInput, verified: VerifiedClaims | undefined, day: string): RuleResult {
  const { selection } = input;
  const claims = verified?.claims ?? {};
  const requested = Object.entries(selection.claims) as [ClaimName, { essential: boolean }][];
  const has = (name: ClaimName) => claims[name] !== undefined;
  const document = verified?.evidence.find((evidence) => evidence.type === 'document');
  const details = document?.type === 'document' ? document.documentDetails : undefined;
  const askedDetail = (detail: string) => selection.document?.details.includes(detail as never) ?? false;
  const result = (title: string, outcome: RuleOutcome, reason: string): RuleResult => ({ rule: rule.rule, title, outcome, reason });

  switch (rule.rule) {
    case 'trust_framework': {
      const title = `Verified under the trust framework requested (${selection.trustFramework})`;
      if (!verified) return result(title, 'failed', 'the token holds no verified claims');
      return verified.trustFramework === selection.trustFramework
        ? result(title, 'met', `the token states ${verified.trustFramework}`)
        : result(title, 'failed', `the token states ${verified.trustFramework ?? 'no trust framework'}, not the ${selection.trustFramework} requested`);
    }
    case 'essential_claims': {
      const title = 'Every essential claim present';
      const essential = requested.filter(([, { essential }]) => essential).map(([name]) => name);
      if (essential.length === 0) return result(title, 'not_applicable', 'no claim was requested as essential');
      const missing = essential.filter((name) => !has(name));
      return missing.length === 0
        ? result(title, 'met', `${list(essential)} present`)
        : result(title, 'failed', `essential but not provided: ${list(missing)}`);
    }
    case 'voluntary_claims': {
      const title = 'Voluntary claims present';
      const voluntary = requested.filter(([, { essential }]) => !essential).map(([name]) => name);
      if (voluntary.length === 0) return result(title, 'not_applicable', 'no claim was requested as voluntary');
      const missing = voluntary.filter((name) => !has(name));
      return missing.length === 0
        ? result(title, 'met', `${list(voluntary)} present`)
        : result(title, 'warning', `requested but not provided: ${list(missing)} (voluntary, so the service may leave them out)`);
    }
    case 'document_valid': {
      const title = 'Identity document provided and not expired';
      if (!selection.document) return result(title, 'not_applicable', 'document evidence was not requested');
      if (!details) return result(title, 'failed', 'document evidence was requested but not provided');
      const expiry = details.date_of_expiry;
      if (!expiry) {
        return result(title, 'warning', `${askedDetail('date_of_expiry') ? 'the document came without its date of expiry' : 'the date of expiry was not requested'}, so its validity on ${formatDate(day)} is unknown`);
      }
      return expiry < day
        ? result(title, 'failed', `expired on ${formatDate(expiry)}, before the verification on ${formatDate(day)}`)
        : result(title, 'met', `valid until ${formatDate(expiry)}; verified on ${formatDate(day)}`);
    }
    case 'chip_authentication': {
      const title = 'Document chip authentication passed';
      if (!selection.document || !askedDetail('active_authentication_result')) return result(title, 'not_applicable', 'the chip authentication result was not requested');
      if (!details) return result(title, 'not_applicable', 'no document evidence came back (see the document rule)');
      const outcome = details.active_authentication_result;
      if (outcome === undefined) return result(title, 'warning', 'the chip authentication result was requested but not provided');
      return outcome === 'passed'
        ? result(title, 'met', 'active_authentication_result = passed')
        : result(title, 'failed', `active_authentication_result = ${outcome}, not passed`);
    }
    case 'issuer_check': {
      const etsi = selection.trustFramework === 'standard_etsi';
      const title = etsi ? 'Issuer check VALID (required under standard_etsi)' : 'Issuer check not failed';
      if (!selection.document || !askedDetail('issuer_check')) {
        return etsi
          ? result(title, 'warning', 'standard_etsi requires a valid issuer check; it was not requested, so it cannot be confirmed here')
          : result(title, 'not_applicable', 'the issuer check was not requested');
      }
      if (!details) return result(title, 'not_applicable', 'no document evidence came back (see the document rule)');
      const status = details.issuer_check?.valid;
      if (status === 'VALID') return result(title, 'met', 'issuer_check.valid = VALID');
      if (etsi) return result(title, 'failed', status === undefined ? 'the issuer check was not provided' : `issuer_check.valid = ${status}, not VALID`);
      // Under standard the check is only available for Norwegian documents: UNKNOWN is the norm.
      if (status === undefined || status === 'UNKNOWN') return result(title, 'not_applicable', `${status === undefined ? 'not provided' : 'UNKNOWN'}: the service checks only Norwegian documents' issuers`);
      return result(title, 'warning', `issuer_check.valid = ${status}`);
    }
    case 'register_match': {
      const title = 'Matched in the population register';
      if (!selection.populationRegister) return result(title, 'not_applicable', 'population register evidence was not requested');
      const record = verified?.evidence.find((evidence) => evidence.type === 'electronic_record');
      return record?.type === 'electronic_record'
        ? result(title, 'met', `matched in ${record.record.sourceName ?? 'the register'}`)
        : result(title, 'failed', 'no register evidence came back: no match, or this client is not entitled to register data');
    }
    case 'minimum_age': {
      const title = `At least ${rule.years} years old`;
      const birthdate = claims.birthdate;
      if (!birthdate) return result(title, 'failed', selection.claims.birthdate ? 'the date of birth was not provided' : 'the date of birth was not requested');
      // OpenID Connect Core §5.1: a year 0000 means the year was left out.
      if (birthdate.startsWith('0000')) return result(title, 'failed', 'the date of birth came without its year');
      const age = ageOn(birthdate, day);
      return age >= rule.years
        ? result(title, 'met', `${age} years old on ${formatDate(day)}`)
        : result(title, 'failed', `${age} years old on ${formatDate(day)}, under ${rule.years}`);
    }
    case 'signing_certificate': {
      const title = 'Signing certificate consistent';
      const check = input.signingCertificateCheck;
      if (!check || check.key === 'no_certificate') return result(title, 'not_applicable', 'the signing key came without a certificate');
      if (check.key === 'differs') return result(title, 'warning', 'x5c[0] holds another key than the one that verified the signature');
      if (check.key === 'unreadable') return result(title, 'warning', 'the certificate in x5c[0] cannot be read');
      if (check.chain.state === 'not_valid') return result(title, 'warning', `the certificate chain is not valid: ${check.chain.reason}`);
      return result(
        title,
        'met',
        check.chain.state === 'validated' ? `the key matches its certificate, whose chain leads to ${check.chain.anchor}` : 'the key matches its certificate (chain not validated: no IDV_TRUST_ANCHOR)',
      );
    }
  }
}

/** Judges the evidence of a verification against `policy`. */
export function assess(input: AssessmentInput, policy: AssurancePolicy): Assessment {
  const verified = mergeVerifiedClaims(input.verifiedClaims);
  const verifiedOn = verificationDay(verified, input.idTokenClaims, input.today);
  const results = policy.rules.map((rule) => judge(rule, input, verified, verifiedOn.date));
  const verdict: Verdict = results.some((r) => r.outcome === 'failed')
    ? 'not_verified'
    : results.some((r) => r.outcome === 'warning')
      ? 'verified_with_warnings'
      : 'verified';
  return { verdict, policy, verifiedOn, results };
}
