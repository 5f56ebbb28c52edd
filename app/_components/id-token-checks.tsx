import type { Locale } from '@/lib/i18n/locale';
import type { CheckView } from '@/lib/view/checks-view';
import { TRACE_MESSAGES } from '@/lib/view/trace-messages';

/**
 * The ID token's checks, in the order they were made: each one's verdict, what it expected and
 * what it received, and the facts behind it. The check that failed is `data-testid="failed-check"`
 * (the others `trace-check`). Its marks are the `.checks` rules of app/globals.css.
 */
export function IdTokenChecks({ checks, locale }: { checks: CheckView[]; locale: Locale }) {
  const t = TRACE_MESSAGES[locale].check;
  return (
    <ol className="checks space-y-3" data-testid="id-token-checks">
      {checks.map((check) => (
        <li
          key={check.check}
          data-outcome={check.passed ? 'passed' : 'failed'}
          data-check={check.check}
          data-testid={check.passed ? 'trace-check' : 'failed-check'}
        >
          <span aria-hidden="true" className="check-mark">
            {check.passed ? '✓' : '✕'}
          </span>
          <div className="min-w-0 flex-1">
            <p className="check-label">
              <span className="sr-only">{check.passed ? t.passed : t.failed}: </span>
              {check.label}
              {check.code && <code className="ml-2 font-mono text-xs font-semibold text-red-800">{check.code}</code>}
            </p>
            {(check.expected !== undefined || check.received !== undefined) && (
              <dl className="check-values">
                {check.expected !== undefined && (
                  <div>
                    <dt>{t.expected}</dt>
                    <dd data-testid="check-expected">{check.expected}</dd>
                  </div>
                )}
                {check.received !== undefined && (
                  <div>
                    <dt>{t.received}</dt>
                    <dd data-testid="check-received">{check.received}</dd>
                  </div>
                )}
              </dl>
            )}
            {check.notes.map((note) => (
              <p key={note} className="mt-1 text-sm text-slate-700">
                {note}
              </p>
            ))}
            {check.reason && (
              // The core's sentence, in English whatever the page's language.
              <p lang="en" className="mt-1 text-sm text-slate-700" data-testid="check-reason">
                {check.reason}
              </p>
            )}
            {check.dropped && (
              <ul aria-label={t.droppedMembers} className="mt-1 space-y-0.5 text-sm text-slate-700" data-testid="dropped-members">
                {check.dropped.map(({ path, reason }) => (
                  <li key={path}>
                    <code className="font-mono text-xs">{path}</code>: {reason}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
