import type { Metadata } from 'next';
import { getFailure } from '@/lib/server/failures';
import { preferences } from '@/lib/server/preferences';
import { services } from '@/lib/server/services';
import { currentBrowser } from '@/lib/server/session';
import { isStoreError } from '@/lib/store/store';
import { readFailureLink, refusalStatus, type FailureCode } from '@/lib/verification/failures';
import { presentCheck, presentComparison } from '@/lib/view/checks-view';
import { disclosureFor, discloseTrace } from '@/lib/view/disclosure';
import { describeFailureDetail } from '@/lib/view/failure-detail';
import { emulatorAnswerView, FAILURE_MESSAGES } from '@/lib/view/failure-explanations';
import { presentTrace } from '@/lib/view/trace-view';
import { FailurePanel } from '../_components/failure-panel';
import { ProtocolTrace } from '../_components/protocol-trace';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: FAILURE_MESSAGES[(await preferences()).locale].failed };
}

/**
 * GET /failure: every failure of the app, one page (failures.ts). A refusal (429, 503) is served
 * with its status and `Retry-After` by proxy.ts, and says how long to wait.
 */
export default async function FailurePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const link = readFailureLink(await searchParams);
  const { locale, presenter } = await preferences();
  const app = await services();
  // An unreachable store only loses the record's detail: the link's code still says what failed.
  const failure =
    link.id !== undefined
      ? await getFailure(app, link.id, await currentBrowser()).catch((error: unknown) => {
          if (isStoreError(error)) return undefined;
          throw error;
        })
      : undefined;
  // The recorded failure is the truth; the link's code only stands in once the record expired.
  // Its detail and trace are shown only to the browser whose failure it is.
  const own = failure?.own ? failure.record : undefined;
  const code: FailureCode = own?.code ?? (failure && !failure.own ? failure.code : undefined) ?? link.code;
  const refused = failure === undefined && refusalStatus(code) !== undefined;

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      {/* The service's error_description is shown as it was written; our recorded detail is worded in the reader's language. */}
      <FailurePanel
        code={code}
        serviceError={own?.serviceError}
        description={own?.description}
        detail={own?.detail && describeFailureDetail(own.detail, locale)}
        failedCheck={own?.failedCheck && presentCheck(own.failedCheck, locale)}
        comparison={own?.comparison && presentComparison(own.comparison, locale)}
        retryId={own?.request && own.id}
        requestUnknown={own !== undefined && !own.request && (code === 'state_mismatch' || code === 'state_missing')}
        emulatorAnswer={own?.emulatorAnswer && app.diagnostics && emulatorAnswerView(own.emulatorAnswer, app.diagnostics, locale)}
        retryAfterSeconds={own?.retryAt === undefined ? undefined : Math.max(1, Math.ceil((own.retryAt - own.createdAt) / 1000))}
        {...(refused ? { eyebrow: FAILURE_MESSAGES[locale].notStarted, refusedForSeconds: link.retryAfterSeconds } : {})}
        locale={locale}
      />
      {/* A failure's trace holds no ID token, so no numbers; disclosed all the same, as every trace leaves the server. */}
      {own && (
        <ProtocolTrace
          entries={discloseTrace(presentTrace(own.trace, { locale }), disclosureFor({ presenter, query: {} }))}
          fileName="failed-verification-trace.json"
          locale={locale}
        />
      )}
    </div>
  );
}
