import type { Metadata } from 'next';
import { preferences } from '@/lib/server/preferences';
import { getFailure } from '@/lib/server/verification';
import { isStoreError } from '@/lib/store/store';
import { FAILURE_MESSAGES, knownFailureCode, type FailureCode } from '@/lib/view/failure-explanations';
import { FailurePanel } from '../_components/failure-panel';
import { ProtocolTrace } from '../_components/protocol-trace';
import { disclosureFor, discloseTrace } from '@/lib/view/disclosure';
import { presentTrace } from '@/lib/view/trace-view';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: FAILURE_MESSAGES[(await preferences()).locale].failed };
}

export default async function FailurePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const { locale, presenter } = await preferences();
  // An unreachable store only loses the record's detail: the query's code still says what failed.
  const failure =
    typeof params.id === 'string'
      ? await getFailure(params.id).catch((error: unknown) => {
          if (isStoreError(error)) return undefined;
          throw error;
        })
      : undefined;
  // The recorded failure is the truth; the query's code only stands in once the record expired.
  // Its detail and trace are shown only to the browser whose failure it is.
  const own = failure?.own ? failure.record : undefined;
  const code: FailureCode = own?.code ?? (failure && !failure.own ? failure.code : undefined) ?? knownFailureCode(params.code) ?? 'internal_error';

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      {/* The service's error_description and our recorded detail are shown as they were written. */}
      <FailurePanel
        code={code}
        description={own?.description}
        detail={own?.message}
        retryAfterSeconds={own?.retryAt === undefined ? undefined : Math.max(1, Math.ceil((own.retryAt - own.createdAt) / 1000))}
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
