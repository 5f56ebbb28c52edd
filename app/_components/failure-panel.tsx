import type { Locale } from '@/lib/i18n/locale';
import { explainFailure, FAILURE_MESSAGES, type FailureCode } from '@/lib/view/failure-explanations';

/**
 * A failure: its stable code (`data-testid="error-code"`), a sentence, what to try next and, when
 * the failure was recorded, the service's own words or our detail and when the app asks the
 * service again, in `locale` (the code and the service's words as they are).
 */
export function FailurePanel({
  code,
  description,
  detail,
  eyebrow,
  retryAfterSeconds,
  refusedForSeconds,
  locale,
}: {
  code: FailureCode;
  description?: string;
  detail?: string;
  eyebrow?: string;
  /** after a failure the core backs off from: seconds from the failure until the endpoint is asked again */
  retryAfterSeconds?: number;
  /** a refusal's wait (`Retry-After`): the request was turned away before any work */
  refusedForSeconds?: number;
  locale: Locale;
}) {
  const t = FAILURE_MESSAGES[locale];
  const explanation = explainFailure(code, locale);
  return (
    <section aria-labelledby="failure-heading" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm sm:p-8">
      <p className="text-sm font-semibold uppercase tracking-wide text-red-700">{eyebrow ?? t.failed}</p>
      <h1 id="failure-heading" className="mt-2 text-2xl font-bold text-slate-900">{explanation.title}</h1>
      <p className="mt-3 text-slate-700">{explanation.sentence}</p>
      <dl className="mt-6 space-y-3 rounded-xl bg-slate-50 p-4 text-sm">
        <div className="flex flex-wrap gap-x-3">
          <dt className="text-slate-600">{t.errorCode}</dt>
          <dd><code data-testid="error-code" className="font-mono font-semibold text-red-800">{code}</code></dd>
        </div>
        {description && (
          <div>
            <dt className="text-slate-600">{t.serviceSaid}</dt>
            <dd className="mt-1 font-mono break-words text-slate-900" data-testid="error-description">{description}</dd>
          </div>
        )}
        {!description && detail && (
          <div>
            <dt className="text-slate-600">{t.detail}</dt>
            <dd className="mt-1 break-words text-slate-900">{detail}</dd>
          </div>
        )}
      </dl>
      {retryAfterSeconds !== undefined && (
        <p className="mt-4 text-slate-700" data-testid="retry-after">
          {t.retryAfter(retryAfterSeconds)}
        </p>
      )}
      {refusedForSeconds !== undefined && (
        <p className="mt-4 text-slate-700" data-testid="retry-after">
          {t.tryAgainIn(refusedForSeconds)}
        </p>
      )}
      <p className="mt-6 text-slate-700"><span className="font-semibold">{t.whatToTry} </span>{explanation.next}</p>
      <div className="mt-6">
        <a href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent hover:bg-indigo-800">
          {t.backToStart}
        </a>
      </div>
    </section>
  );
}
