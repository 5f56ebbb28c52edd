'use client';

/**
 * The assurance verdict of a result (lib/view/assurance.ts): a badge for the page's header, a
 * panel saying why, and the policy card listing every rule with its outcome. Client components
 * for the size of the page's payload, as the result cards (result-cards.tsx).
 */
import type { Assessment, RuleOutcome, Verdict } from '@/lib/view/assurance';
import { Card } from './card';
import { OutcomeList } from './outcome-list';

const VERDICTS: Record<Verdict, { text: string; mark: string }> = {
  verified: { text: 'Verified', mark: '✓' },
  verified_with_warnings: { text: 'Verified with warnings', mark: '!' },
  not_verified: { text: 'Not verified', mark: '✗' },
};

/** How each outcome is marked (the `.checks` rules of app/globals.css, by `data-outcome`). */
const OUTCOMES: Record<RuleOutcome, { mark: string; spoken: string }> = {
  met: { mark: '✓', spoken: 'Met' },
  warning: { mark: '!', spoken: 'Warning' },
  failed: { mark: '✗', spoken: 'Failed' },
  not_applicable: { mark: '–', spoken: 'Not applicable' },
};

const SOURCES: Record<Assessment['verifiedOn']['source'], string> = {
  'verification.time': 'verification.time of the evidence',
  auth_time: 'auth_time of the ID token',
  iat: 'iat of the ID token',
  today: 'today: the token gives no time',
};

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  const { text, mark } = VERDICTS[verdict];
  return (
    <p className="verdict-badge" data-verdict={verdict} data-testid="verdict-badge">
      <span aria-hidden="true">{mark}</span> {text}
    </p>
  );
}

/** The verdict with the reason for each failed rule and each warning; a plain line when all is met. */
export function VerdictPanel({ assessment }: { assessment: Assessment }) {
  const { verdict, policy, results } = assessment;
  const failed = results.filter((result) => result.outcome === 'failed');
  const warnings = results.filter((result) => result.outcome === 'warning');
  const met = results.filter((result) => result.outcome === 'met').length;
  return (
    <section aria-labelledby="verdict-heading" className="verdict" data-verdict={verdict} data-testid="verdict">
      <h2 id="verdict-heading" className="verdict-title">
        <span aria-hidden="true">{VERDICTS[verdict].mark}</span> {VERDICTS[verdict].text}
      </h2>
      <p className="mt-1 text-sm">
        Judged by the policy <strong>{policy.name}</strong>: {met} of its rules met
        {failed.length > 0 && `, ${failed.length} failed`}
        {warnings.length > 0 && `, ${warnings.length} with a warning`}. The rules are listed under “Policy” below.
      </p>
      {(failed.length > 0 || warnings.length > 0) && (
        <ul className="mt-2 space-y-1 text-sm" data-testid="verdict-reasons">
          {[...failed, ...warnings].map((result) => (
            <li key={result.rule} data-outcome={result.outcome}>
              <strong>{result.outcome === 'failed' ? 'Failed' : 'Warning'}: {result.title}</strong> — {result.reason}.
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Every rule of the policy with its outcome and reason, and the day the evidence was judged on (`judgedOn`, formatted). */
export function PolicyCard({ assessment, judgedOn }: { assessment: Assessment; judgedOn: string }) {
  const { policy, results, verifiedOn } = assessment;
  return (
    <Card title={`Policy: ${policy.name}`} id="policy-heading">
      <p className="mt-1 text-sm text-slate-600">
        The rules this result is held to, judged on {judgedOn} (the {SOURCES[verifiedOn.source]}). A rule about something not
        requested does not apply.
      </p>
      <OutcomeList
        testId="policy"
        items={results.map((result) => ({
          key: result.rule,
          outcome: result.outcome,
          ...OUTCOMES[result.outcome],
          label: result.title,
          detail: result.reason,
          data: { 'data-rule': result.rule },
        }))}
      />
    </Card>
  );
}
