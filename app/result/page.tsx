import type { Metadata } from 'next';
import { formatDate, formatTime } from '@/lib/i18n/format';
import { preferences } from '@/lib/server/preferences';
import { services } from '@/lib/server/services';
import { currentBrowser } from '@/lib/server/session';
import { currentResult, RESULT_TTL_SECONDS } from '@/lib/server/verification';
import { isStoreError } from '@/lib/store/store';
import { OWN_SELECTION_POLICY } from '@/lib/verification/policy';
import { assess } from '@/lib/view/assurance';
import { discloseChecks, disclosureFor, discloseResultView, discloseVerification } from '@/lib/view/disclosure';
import { REVEAL_PARAMETER, REVEAL_VALUE } from '@/lib/view/masking';
import { presentTrace, traceSummary } from '@/lib/view/trace-view';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';
import { buildChecks, buildResultView, buildVerificationView, keptUntilText } from '@/lib/view/result-view';
import { FailurePanel } from '../_components/failure-panel';
import { NumbersSwitch } from '../_components/numbers-switch';
import { ProtocolTrace } from '../_components/protocol-trace';
import { ReplacedResultNotice } from '../_components/replaced-result-notice';
import { ChecksCard, DocumentCard, PersonCard, PopulationRegisterCard, VerificationCard } from '../_components/result-cards';
import { PolicyCard, VerdictPanel } from '../_components/verdict';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: PAGE_MESSAGES[(await preferences()).locale].result.title };
}

export default async function ResultPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const { presenter, locale } = await preferences();
  const t = PAGE_MESSAGES[locale].result;
  let result;
  try {
    result = await currentResult(await services(), await currentBrowser());
  } catch (error) {
    if (!isStoreError(error)) throw error;
    return (
      <div className="mx-auto max-w-3xl">
        <FailurePanel code={error.code} eyebrow={t.notAvailable} locale={locale} />
      </div>
    );
  }
  if (!result) {
    return (
      <div className="mx-auto max-w-xl space-y-4 text-center">
        <h1 className="text-2xl font-bold">{t.none}</h1>
        <p className="text-slate-700">{t.noneExplained(RESULT_TTL_SECONDS / 60)}</p>
        <a href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent hover:bg-indigo-800">
          {t.start}
        </a>
      </div>
    );
  }

  const today = new Date().toISOString().slice(0, 10);
  // Disclosed on the server: the page and its React payload hold only what may be shown.
  const disclosure = disclosureFor({ presenter, query });
  const revealed = disclosure.numbersRevealed;
  const identityOfResult = { verifiedClaims: result.verifiedClaims, subject: result.idToken.claims.sub };
  const view = discloseResultView(buildResultView(result.verifiedClaims, result.selection, today, locale), disclosure);
  const { document, populationRegister } = view;
  // The portrait is served on its own (/result/portrait): as a data: URI the page would carry it twice.
  const identity =
    view.identity.portrait.state === 'value' ? { ...view.identity, portrait: { state: 'value' as const, src: '/result/portrait' } } : view.identity;
  const verification = discloseVerification(buildVerificationView(result, locale), disclosure);
  const checks = discloseChecks(buildChecks(result, locale), disclosure, identityOfResult);
  const assessment = assess(
    {
      selection: result.selection,
      verifiedClaims: result.verifiedClaims,
      idTokenClaims: result.idToken.claims,
      signingCertificateCheck: result.signingCertificateCheck,
      today,
    },
    result.policy ?? OWN_SELECTION_POLICY,
    locale,
    { presenter },
  );
  const revealQuery = `?${REVEAL_PARAMETER}=${REVEAL_VALUE}`;
  const traceUrl = revealed ? `/result/trace${revealQuery}` : '/result/trace';

  return (
    <div className="space-y-6">
      <ReplacedResultNotice resultAt={result.createdAt} message={t.replaced(formatTime(result.createdAt, locale))} />
      {/* The person and the verdict first, each said once; the actions beside the verdict. */}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <PersonCard identity={identity} blurPortrait={presenter} locale={locale} />
        <div className="space-y-4">
          <VerdictPanel assessment={assessment} locale={locale} />
          <nav aria-label={t.actions} className="flex flex-wrap gap-2" data-testid="result-actions">
            <a href="/" className="button-primary">
              {t.newVerification}
            </a>
            <form method="post" action="/result/again">
              <button type="submit" className="button-secondary" title={t.runAgainHint}>
                {t.runAgain}
              </button>
            </form>
            <form method="post" action="/auth/signout">
              <button type="submit" className="button-secondary">
                {t.signOut}
              </button>
            </form>
          </nav>
        </div>
      </div>

      <NumbersSwitch presenter={presenter} revealed={revealed} revealHref={`/result${revealQuery}`} maskHref="/result" locale={locale} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <DocumentCard document={document} numbersRevealed={revealed} locale={locale} />
          {populationRegister.requested && <PopulationRegisterCard register={populationRegister} numbersRevealed={revealed} locale={locale} />}
        </div>
        <VerificationCard verification={verification} locale={locale} />
      </div>
      <PolicyCard assessment={assessment} judgedOn={formatDate(assessment.verifiedOn.date, locale)} locale={locale} />
      <ChecksCard checks={checks} locale={locale} />
      {/* The exchanges' detail, and the ID token's checks that all passed, are loaded when one is opened (/result/trace), keeping the page small. */}
      <ProtocolTrace
        key={traceUrl}
        entries={traceSummary(presentTrace(result.trace, { locale }))}
        detailUrl={traceUrl}
        fileName="verification-trace.json"
        locale={locale}
      />

      <p className="text-sm text-slate-600">{t.kept(RESULT_TTL_SECONDS / 60, keptUntilText(result.expiresAt, locale))}</p>
    </div>
  );
}
