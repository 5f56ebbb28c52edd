import type { Metadata } from 'next';
import { preferences } from '@/lib/server/preferences';
import { services } from '@/lib/server/services';
import { currentResult, RESULT_TTL_SECONDS } from '@/lib/server/verification';
import { isStoreError } from '@/lib/store/store';
import { assess, OWN_SELECTION_POLICY } from '@/lib/view/assurance';
import { presenterReplacements, presentResultView, presentSubject, replaceInText } from '@/lib/view/presenter';
import { maskResultView, REVEAL_PARAMETER, REVEAL_VALUE, wantsNumbersRevealed } from '@/lib/view/masking';
import { buildChecks, buildResultView, buildVerificationView, formatDate, keptUntilText } from '@/lib/view/result-view';
import { FailurePanel } from '../_components/failure-panel';
import { ModeBadge } from '../_components/mode-badge';
import { NumbersSwitch } from '../_components/numbers-switch';
import { ProtocolTrace } from '../_components/protocol-trace';
import { ChecksCard, DocumentCard, PersonCard, PopulationRegisterCard, VerificationCard } from '../_components/result-cards';
import { PolicyCard, VerdictBadge, VerdictPanel } from '../_components/verdict';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Verified identity' };

export default async function ResultPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const numbersRevealed = wantsNumbersRevealed(await searchParams);
  let result;
  try {
    result = await currentResult();
  } catch (error) {
    if (!isStoreError(error)) throw error;
    return (
      <div className="mx-auto max-w-3xl">
        <FailurePanel code={error.code} eyebrow="Result not available" />
      </div>
    );
  }
  if (!result) {
    return (
      <div className="mx-auto max-w-xl space-y-4 text-center">
        <h1 className="text-2xl font-bold">No verified identity</h1>
        <p className="text-slate-700">There is no result in this browser session: it was deleted, it expired after {RESULT_TTL_SECONDS / 60} minutes, or no verification has run yet.</p>
        <a href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent hover:bg-indigo-800">
          Start a verification
        </a>
      </div>
    );
  }

  const today = new Date().toISOString().slice(0, 10);
  // Masked on the server: unless revealed, the page and its React payload never hold the whole numbers.
  const built = buildResultView(result.verifiedClaims, result.selection, today);
  // Presenter mode hides more, and the numbers whatever the reveal switch says (lib/view/presenter.ts).
  const { presenter } = await preferences();
  const revealed = numbersRevealed && !presenter;
  const view = presenter ? presentResultView(built) : revealed ? built : maskResultView(built);
  const { document, populationRegister, trustFramework } = view;
  // The portrait is served on its own (/result/portrait): as a data: URI the page would carry it twice.
  const identity = view.identity.portrait.state === 'value' ? { ...view.identity, portrait: { state: 'value' as const, src: '/result/portrait' } } : view.identity;
  const shown = buildVerificationView(result);
  const verification =
    presenter && shown.subject.state === 'value' ? { ...shown, subject: { ...shown.subject, text: presentSubject(shown.subject.text) } } : shown;
  const replacements = presenter ? presenterReplacements(result.verifiedClaims, result.idToken.claims.sub) : undefined;
  const checks = buildChecks(result).map((check) => (replacements ? { ...check, detail: replaceInText(check.detail, replacements) } : check));
  const assessment = assess(
    { selection: result.selection, verifiedClaims: result.verifiedClaims, idTokenClaims: result.idToken.claims, signingCertificateCheck: result.signingCertificateCheck, today },
    result.policy ?? OWN_SELECTION_POLICY,
  );
  const revealQuery = `?${REVEAL_PARAMETER}=${REVEAL_VALUE}`;
  const traceUrl = revealed ? `/result/trace${revealQuery}` : '/result/trace';
  const { config } = await services();

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            <VerdictBadge verdict={assessment.verdict} />
            <ModeBadge mode={config.mode} issuer={config.issuer} />
          </div>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900">
            {identity.name.state === 'value' ? identity.name.text : 'Verified identity'}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            Trust framework <code className="font-mono text-slate-800">{trustFramework ?? 'not stated'}</code> · issued by{' '}
            <span className="font-mono break-all text-slate-800">{result.issuer}</span>
          </p>
        </div>
        <form method="post" action="/auth/signout">
          <button type="submit" className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 shadow-sm hover:bg-slate-50">
            Sign out and delete
          </button>
        </form>
      </div>

      <VerdictPanel assessment={assessment} />
      <NumbersSwitch presenter={presenter} revealed={revealed} revealHref={`/result${revealQuery}`} maskHref="/result" />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <PersonCard identity={identity} blurPortrait={presenter} />
        <DocumentCard document={document} numbersRevealed={revealed} />
      </div>
      {populationRegister.requested && <PopulationRegisterCard register={populationRegister} numbersRevealed={revealed} />}
      <VerificationCard verification={verification} />
      <PolicyCard assessment={assessment} judgedOn={formatDate(assessment.verifiedOn.date)} />
      <ChecksCard checks={checks} />
      {/* The exchanges' detail is loaded when one is opened (/result/trace), keeping the page small. */}
      <ProtocolTrace
        key={traceUrl}
        entries={result.trace.map((entry) => ({ ...entry, sections: [] }))}
        detailUrl={traceUrl}
        fileName="verification-trace.json"
      />

      <p className="text-sm text-slate-600">
        This result is kept on the server for {RESULT_TTL_SECONDS / 60} minutes (until {keptUntilText(result.expiresAt)} UTC) and only this browser session can see it. Signing out deletes it at once.
      </p>
    </div>
  );
}
