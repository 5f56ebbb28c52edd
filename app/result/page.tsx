import type { Metadata } from 'next';
import Link from 'next/link';
import { buildChecks, buildResultView, buildVerificationView } from '@/lib/view/result-view';
import { services } from '@/lib/server/services';
import { currentResult, RESULT_TTL_SECONDS } from '@/lib/server/verification';
import { ModeBadge } from '../_components/mode-badge';
import { FieldRow } from '../_components/field-row';
import { ProtocolTrace } from '../_components/protocol-trace';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Verified identity' };

function Card({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}


export default async function ResultPage() {
  const result = await currentResult();
  if (!result) {
    return (
      <div className="mx-auto max-w-xl space-y-4 text-center">
        <h1 className="text-2xl font-bold">No verified identity</h1>
        <p className="text-slate-700">There is no result in this browser session: it was deleted, it expired after {RESULT_TTL_SECONDS / 60} minutes, or no verification has run yet.</p>
        <Link href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-white hover:bg-indigo-800">
          Start a verification
        </Link>
      </div>
    );
  }

  const today = new Date().toISOString().slice(0, 10);
  const view = buildResultView(result.verifiedClaims, result.selection, today);
  const { identity, document, populationRegister } = view;
  const verification = buildVerificationView(result);
  const checks = buildChecks(result);
  const { config } = await services();
  const keptUntil = new Intl.DateTimeFormat('en-GB', { timeStyle: 'short', timeZone: 'UTC' }).format(new Date(result.expiresAt));

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            {verification.hasVerifiedClaims && verification.trustFrameworkMatches ? (
              <p className="inline-flex items-center gap-2 rounded-full bg-emerald-50 px-3 py-1 text-sm font-medium text-emerald-800">
                <span aria-hidden="true">✓</span> Identity verified
              </p>
            ) : (
              <p role="alert" className="inline-flex items-center gap-2 rounded-full bg-amber-50 px-3 py-1 text-sm font-medium text-amber-900" data-testid="verification-warning">
                <span aria-hidden="true">!</span>
                {verification.hasVerifiedClaims
                  ? `Verified under ${verification.trustFramework.state === 'value' ? verification.trustFramework.text : 'no stated trust framework'}, not the ${result.selection.trustFramework} requested`
                  : 'The token holds no verified claims'}
              </p>
            )}
            <ModeBadge config={config} />
          </div>
          <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900">
            {identity.name.state === 'value' ? identity.name.text : 'Verified identity'}
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            Trust framework <code className="font-mono text-slate-800">{view.trustFramework ?? 'not stated'}</code> · issued by{' '}
            <span className="font-mono break-all text-slate-800">{result.issuer}</span>
          </p>
        </div>
        <form method="post" action="/auth/signout">
          <button type="submit" className="rounded-lg border border-slate-300 bg-white px-4 py-2 font-medium text-slate-800 shadow-sm hover:bg-slate-50">
            Sign out and delete
          </button>
        </form>
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <Card title="Person" id="person-heading">
          <div className="mt-4 flex flex-col gap-5 sm:flex-row">
            <div className="w-36 shrink-0">
              {identity.portrait.state === 'value' ? (
                // A data: URI from the verified token; next/image adds nothing for it.
                // eslint-disable-next-line @next/next/no-img-element
                <img
                  src={identity.portrait.src}
                  alt={`Portrait from the identity document${identity.name.state === 'value' ? ` of ${identity.name.text}` : ''}`}
                  width={144}
                  height={192}
                  className="aspect-[3/4] w-36 rounded-lg border border-slate-200 bg-slate-100 object-cover"
                  data-testid="portrait"
                />
              ) : (
                <div className="grid aspect-[3/4] w-36 place-items-center rounded-lg border border-dashed border-slate-300 bg-slate-50 p-3 text-center text-sm text-slate-600">
                  Portrait {identity.portrait.state === 'not_provided' ? 'not provided' : 'not requested'}
                </div>
              )}
            </div>
            <dl className="min-w-0 flex-1 divide-y divide-slate-100">
              <FieldRow label="Full name" field={identity.name} />
              <FieldRow label="Given name" field={identity.givenName} />
              <FieldRow label="Family name" field={identity.familyName} />
              <FieldRow label="Date of birth" field={identity.birthdate} />
              <FieldRow label="Gender" field={identity.gender} />
              <FieldRow label="Nationalities" field={identity.nationalities} />
            </dl>
          </div>
        </Card>

        <Card title="Identity document" id="document-heading">
          {!document.requested ? (
            <p className="mt-3 text-sm text-slate-600">Document evidence was not requested.</p>
          ) : !document.provided ? (
            <p className="mt-3 text-sm italic text-amber-800">Document evidence was requested but not provided.</p>
          ) : (
            <dl className="mt-2 divide-y divide-slate-100">
              <FieldRow label="Type" field={document.type} />
              <FieldRow label="Number" field={document.number} mono />
              <FieldRow label="Issuing country" field={document.issuingCountry} />
              <FieldRow label="Issuing authority" field={document.issuingAuthority} />
              <FieldRow label="Date of issue" field={document.dateOfIssuance} />
              <div className="grid grid-cols-[minmax(8rem,40%)_1fr] gap-3 py-2.5">
                <dt className="text-sm text-slate-600">Date of expiry</dt>
                <dd className="flex flex-wrap items-center gap-2">
                  {document.dateOfExpiry.state === 'value' ? (
                    <span className="font-medium text-slate-900">{document.dateOfExpiry.text}</span>
                  ) : (
                    <span className="text-sm text-slate-500">{document.dateOfExpiry.state === 'not_provided' ? 'Not provided' : 'Not requested'}</span>
                  )}
                  {document.expired !== undefined && (
                    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${document.expired ? 'bg-red-50 text-red-800' : 'bg-emerald-50 text-emerald-800'}`}>
                      {document.expired ? 'Expired' : 'Valid'}
                    </span>
                  )}
                </dd>
              </div>
              <FieldRow label="National identity number" field={document.personalNumber} masked />
              <FieldRow label="Chip authentication" field={document.chipAuthentication} />
              <FieldRow label="Issuer check" field={document.issuerCheck} />
            </dl>
          )}
        </Card>
      </div>

      {populationRegister.requested && (
        <Card title="Population register" id="register-heading">
          {populationRegister.provided ? (
            <dl className="mt-2 grid gap-x-8 sm:grid-cols-2">
              <FieldRow label="Register" field={populationRegister.source} />
              <FieldRow label="Matched national identity number" field={populationRegister.personalNumber} masked />
            </dl>
          ) : (
            <p className="mt-3 text-sm italic text-amber-800" data-testid="register-not-provided">
              Not provided: the register returned no match{populationRegister.lookedUp ? ` for ${populationRegister.lookedUp}` : ' for the document'}, or this client is not entitled to register data.
            </p>
          )}
        </Card>
      )}

      <Card title="Verification" id="verification-heading">
        <dl className="mt-2 grid gap-x-8 sm:grid-cols-2">
          <FieldRow label="Trust framework" field={verification.trustFramework} mono />
          <FieldRow label="Authentication context (acr)" field={verification.acr} mono />
          <FieldRow label="Methods (amr)" field={verification.amr} mono />
          <FieldRow label="Authenticated at (auth_time)" field={verification.authTime} />
          <FieldRow label="Subject (sub)" field={verification.subject} mono />
        </dl>
      </Card>

      <Card title="Checks performed" id="checks-heading">
        <ol className="mt-3 space-y-2" data-testid="checks">
          {checks.map((check) => (
            <li key={check.label} className="flex gap-3">
              <span aria-hidden="true" className="mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-emerald-100 text-xs font-bold text-emerald-800">✓</span>
              <div className="min-w-0">
                <p className="font-medium text-slate-900">{check.label}</p>
                <p className="break-words font-mono text-xs text-slate-600">{check.detail}</p>
              </div>
            </li>
          ))}
        </ol>
      </Card>

      <ProtocolTrace entries={result.trace} fileName="verification-trace.json" />

      <p className="text-sm text-slate-600">
        This result is kept on the server for {RESULT_TTL_SECONDS / 60} minutes (until {keptUntil} UTC) and only this browser session can see it. Signing out deletes it at once.
      </p>
    </div>
  );
}
