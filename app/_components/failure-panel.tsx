import type { Locale } from '@/lib/i18n/locale';
import type { CheckView } from '@/lib/view/checks-view';
import type { FailureDetailView } from '@/lib/view/failure-detail';
import { explainFailure, FAILURE_MESSAGES, type EmulatorAnswerView, type FailureCode } from '@/lib/view/failure-explanations';
import { IdTokenChecks } from './id-token-checks';

/**
 * A failure: its stable code (`data-testid="error-code"`), a sentence, what to try next and, when
 * the failure was recorded, what explains it, near the top: the service's own `error` and
 * `error_description` as it sent them, the check that failed with what it expected and received,
 * and in emulator mode the fault that caused it. With the request that failed, a button asks for
 * it again (POST /failure/again: the same selection and policy, and in emulator mode the same
 * answer); after a redirect whose `state` matched none of this browser's flows, the request is not
 * known, and the page says so and offers the picker. In `locale` (codes, values and the service's
 * words as they are).
 */
export function FailurePanel({
  code,
  serviceError,
  description,
  detail,
  failedCheck,
  comparison,
  emulatorAnswer,
  retryId,
  requestUnknown,
  eyebrow,
  retryAfterSeconds,
  refusedForSeconds,
  locale,
}: {
  code: FailureCode;
  /** the `error` the service sent, verbatim */
  serviceError?: string;
  /** the service's `error_description`, verbatim */
  description?: string;
  /** the recorded detail, worded (the core's own sentence is marked English) */
  detail?: FailureDetailView;
  /** the check of the ID token that failed */
  failedCheck?: CheckView;
  /** for another failure: what was compared, worded */
  comparison?: { claim?: string; expected?: string; received?: string };
  emulatorAnswer?: EmulatorAnswerView;
  /** the failure record whose request "Try the same request again" asks for again (POST /failure/again) */
  retryId?: string;
  /** the redirect's `state` matched none of this browser's flows: which request it answered is not known */
  requestUnknown?: boolean;
  eyebrow?: string;
  /** after a failure the core backs off from: seconds from the failure until the endpoint is asked again */
  retryAfterSeconds?: number;
  /** a refusal's wait (`Retry-After`): the request was turned away before any work */
  refusedForSeconds?: number;
  locale: Locale;
}) {
  const t = FAILURE_MESSAGES[locale];
  const explanation = explainFailure(code, locale);
  const answered = emulatorAnswer && (emulatorAnswer.faults.length > 0 || emulatorAnswer.unreached.length > 0 || emulatorAnswer.error !== undefined);
  const causes = emulatorAnswer?.faults.filter((fault) => !fault.acceptance) ?? [];
  const variants = emulatorAnswer?.faults.filter((fault) => fault.acceptance) ?? [];
  // A fault of the emulator caused it: the code's own advice (check the clock, tell the provider)
  // would send the reader after a cause that is not there.
  const causedByFault = causes.length > 0 || emulatorAnswer?.error !== undefined;
  const next = causedByFault ? t.faultNext[emulatorAnswer?.chosen ?? 'flow'] : explanation.next;
  return (
    <section aria-labelledby="failure-heading" className="rounded-2xl border border-red-200 bg-white p-6 shadow-sm sm:p-8">
      <p className="text-sm font-semibold uppercase tracking-wide text-red-700">{eyebrow ?? t.failed}</p>
      <h1 id="failure-heading" className="mt-2 text-2xl font-bold text-slate-900">
        {explanation.title}
      </h1>
      {(serviceError !== undefined || description !== undefined) && (
        <div className="mt-4 rounded-xl border border-red-200 bg-red-50 p-4" data-testid="service-answer">
          <p className="text-sm font-semibold text-red-900">{t.serviceAnswered}</p>
          {serviceError !== undefined && (
            <p className="mt-1 font-mono text-lg font-semibold break-words text-red-900" data-testid="service-error">
              {serviceError}
            </p>
          )}
          {description !== undefined && (
            <p className="mt-1 break-words text-slate-900" data-testid="error-description">
              {description}
            </p>
          )}
        </div>
      )}
      {answered && (
        <div className="mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950" data-testid="fault-cause">
          {(causes.length > 0 || emulatorAnswer.error !== undefined) && <p className="text-sm font-semibold">{t.fromFault(causes.length || 1)}</p>}
          <ul className="mt-1 space-y-1">
            {causes.map((fault) => (
              <li key={fault.id} data-fault={fault.id}>
                <code className="font-mono text-sm font-semibold">{fault.id}</code> <span className="font-medium">{fault.label}</span>: {fault.effect}
              </li>
            ))}
            {emulatorAnswer.error !== undefined && <li data-fault-error={emulatorAnswer.error}>{t.chosenError(emulatorAnswer.error)}</li>}
          </ul>
          {variants.length > 0 && (
            <>
              <p className="mt-2 text-sm font-semibold">{t.variantsApplied}</p>
              <ul className="mt-1 space-y-1">
                {variants.map((fault) => (
                  <li key={fault.id} data-variant={fault.id}>
                    <code className="font-mono text-sm font-semibold">{fault.id}</code> <span className="font-medium">{fault.label}</span>: {fault.effect}
                  </li>
                ))}
              </ul>
            </>
          )}
          {emulatorAnswer.unreached.length > 0 && (
            <>
              <p className="mt-2 text-sm font-semibold">{t.notReached}</p>
              <ul className="mt-1 space-y-1">
                {emulatorAnswer.unreached.map((fault) => (
                  <li key={fault.id} data-unreached={fault.id}>
                    <code className="font-mono text-sm font-semibold">{fault.id}</code> <span className="font-medium">{fault.label}</span>: {fault.effect}
                  </li>
                ))}
              </ul>
            </>
          )}
          {(emulatorAnswer.faults.length > 0 || emulatorAnswer.unreached.length > 0) && emulatorAnswer.chosen && (
            <p className="mt-1 text-sm">{{ panel: t.armedOnPanel, flow: t.chosenForFlow, again: t.appliedAgain }[emulatorAnswer.chosen]}</p>
          )}
        </div>
      )}
      <p className="mt-4 text-slate-700">{explanation.sentence}</p>
      {failedCheck && (
        <div className="mt-4 rounded-xl border border-slate-200 bg-slate-50 p-4" data-testid="failure-check">
          <IdTokenChecks checks={[failedCheck]} locale={locale} />
        </div>
      )}
      {!failedCheck && comparison && (
        <div className="mt-4 rounded-xl border border-slate-200 bg-slate-50 p-4" data-testid="failure-comparison">
          <p className="text-sm font-semibold text-slate-900">{t.compared(comparison.claim)}</p>
          <dl className="check-values">
            <div>
              <dt>{t.expected}</dt>
              <dd data-testid="check-expected">{comparison.expected ?? t.absent}</dd>
            </div>
            <div>
              <dt>{t.received}</dt>
              <dd data-testid="check-received">{comparison.received ?? t.absent}</dd>
            </div>
          </dl>
        </div>
      )}
      <dl className="mt-6 space-y-3 rounded-xl bg-slate-50 p-4 text-sm">
        <div className="flex flex-wrap gap-x-3">
          <dt className="text-slate-600">{t.errorCode}</dt>
          <dd>
            <code data-testid="error-code" className="font-mono font-semibold text-red-800">
              {code}
            </code>
          </dd>
        </div>
        {!description && detail && failedCheck?.reason !== detail.text && (
          <div>
            <dt className="text-slate-600">{detail.label}</dt>
            <dd lang={detail.lang} className="mt-1 break-words text-slate-900" data-testid="error-detail">
              {detail.text}
            </dd>
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
      <p className="mt-6 text-slate-700">
        <span className="font-semibold">{t.whatToTry} </span>
        <span data-testid="what-to-try">{next}</span>
      </p>
      {requestUnknown && (
        <p className="mt-4 text-slate-700" data-testid="request-unknown">
          {t.requestUnknown}
        </p>
      )}
      <div className="mt-6 flex flex-wrap items-center gap-3">
        {retryId && (
          <form method="post" action="/failure/again" data-testid="retry-form">
            <input type="hidden" name="id" value={retryId} />
            <button type="submit" className="rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent hover:bg-indigo-800">
              {t.tryAgain}
            </button>
          </form>
        )}
        <a
          href="/"
          className={
            retryId
              ? 'inline-block rounded-lg border border-slate-300 bg-white px-5 py-2.5 font-semibold text-slate-800 hover:bg-slate-50'
              : 'inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent hover:bg-indigo-800'
          }
        >
          {requestUnknown ? t.chooseAgain : t.backToStart}
        </a>
      </div>
    </section>
  );
}
