'use client';

/**
 * The assurance verdict of a result (lib/view/assurance.ts): a panel saying it, once, and why;
 * and the policy card listing every rule with its outcome. Client components for the size of the
 * page's payload, as the result cards (result-cards.tsx); each takes the
 * reader's `locale` and picks its words from lib/view/assurance-messages.ts (functions cannot be
 * passed from the server).
 */
import type { Locale } from '@/lib/i18n/locale';
import type { Assessment, RuleOutcome, Verdict } from '@/lib/view/assurance';
import { ASSURANCE_MESSAGES } from '@/lib/view/assurance-messages';
import { Card } from './card';
import { OutcomeList } from './outcome-list';

const VERDICT_MARKS: Record<Verdict, string> = { verified: '✓', verified_with_warnings: '!', not_verified: '✗' };

/** How each outcome is marked (the `.checks` rules of app/globals.css, by `data-outcome`). */
const OUTCOME_MARKS: Record<RuleOutcome, string> = { met: '✓', warning: '!', failed: '✗', not_applicable: '–' };

/** The verdict with the reason for each failed rule and each warning; a plain line when all is met. */
export function VerdictPanel({ assessment, locale }: { assessment: Assessment; locale: Locale }) {
  const { verdict, policy, results } = assessment;
  const t = ASSURANCE_MESSAGES[locale];
  const failed = results.filter((result) => result.outcome === 'failed');
  const warnings = results.filter((result) => result.outcome === 'warning');
  const met = results.filter((result) => result.outcome === 'met').length;
  return (
    <section aria-labelledby="verdict-heading" className="verdict" data-verdict={verdict} data-testid="verdict">
      <h2 id="verdict-heading" className="verdict-title" data-testid="verdict-title">
        <span aria-hidden="true">{VERDICT_MARKS[verdict]}</span> {t.verdicts[verdict]}
      </h2>
      <p className="mt-1 text-sm">
        {t.panel.judgedBy} <strong>{policy.name}</strong>
        {t.panel.tally(met, failed.length, warnings.length)}
      </p>
      {(failed.length > 0 || warnings.length > 0) && (
        <ul className="mt-2 space-y-1 text-sm" data-testid="verdict-reasons">
          {[...failed, ...warnings].map((result) => (
            <li key={result.rule} data-outcome={result.outcome}>
              <strong>
                {t.outcomes[result.outcome]}: {result.title}
              </strong>{' '}
              — {result.reason}.
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Every rule of the policy with its outcome and reason, and the day the evidence was judged on
 * (`judgedOn`, formatted in `locale`: lib/i18n/format's formatDate, kept on the server).
 */
export function PolicyCard({ assessment, judgedOn, locale }: { assessment: Assessment; judgedOn: string; locale: Locale }) {
  const { policy, results, verifiedOn } = assessment;
  const t = ASSURANCE_MESSAGES[locale];
  return (
    <Card title={t.card.title(policy.name)} id="policy-heading">
      <p className="mt-1 text-sm text-slate-600">{t.card.intro(judgedOn, t.sources[verifiedOn.source])}</p>
      <OutcomeList
        testId="policy"
        items={results.map((result) => ({
          key: result.rule,
          outcome: result.outcome,
          mark: OUTCOME_MARKS[result.outcome],
          spoken: t.outcomes[result.outcome],
          label: result.title,
          detail: result.reason,
          data: { 'data-rule': result.rule },
        }))}
      />
    </Card>
  );
}
