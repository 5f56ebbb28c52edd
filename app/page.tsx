import { DEFAULT_SELECTION, DOCUMENT_DETAILS, CLAIM_NAMES } from '@/lib/oidc';
import { serverConfig } from '@/lib/server/env';
import { ModeBadge } from './_components/mode-badge';
import { CLAIM_LABELS, DOCUMENT_DETAIL_LABELS } from './_components/labels';

export const dynamic = 'force-dynamic';

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const config = await serverConfig();
  const signedOut = (await searchParams).signed_out === '1';
  const claims = CLAIM_NAMES.filter((name) => DEFAULT_SELECTION.claims[name]);
  const details = DOCUMENT_DETAILS.filter((detail) => DEFAULT_SELECTION.document?.details.includes(detail));

  return (
    <div className="space-y-8">
      {signedOut && (
        <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          Signed out. The verified identity and the session were deleted.
        </p>
      )}
      <section className="space-y-4">
        <ModeBadge config={config} />
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Verify an identity</h1>
        <p className="max-w-2xl text-lg text-slate-700">
          The person scans their passport or ID card and passes a face check in the mobile identity app. We receive the
          verified identity as an encrypted, signed ID token, check every part of it, and show what came back.
        </p>
      </section>

      <section aria-labelledby="request-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="request-heading" className="text-lg font-semibold">What will be requested</h2>
        <p className="mt-1 text-sm text-slate-600">
          Trust framework <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-800">{DEFAULT_SELECTION.trustFramework}</code>. Only
          these are asked for; anything the document does not hold is simply not returned.
        </p>
        <div className="mt-5 grid gap-6 sm:grid-cols-2">
          <div>
            <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Claims</h3>
            <ul className="mt-2 space-y-1.5">
              {claims.map((name) => (
                <li key={name} className="flex items-center justify-between gap-3 text-slate-800">
                  <span>{CLAIM_LABELS[name]}</span>
                  {DEFAULT_SELECTION.claims[name]?.essential && (
                    <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-800">essential</span>
                  )}
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Document evidence</h3>
            <ul className="mt-2 space-y-1.5 text-slate-800">
              {details.map((detail) => (
                <li key={detail}>{DOCUMENT_DETAIL_LABELS[detail]}</li>
              ))}
            </ul>
          </div>
        </div>
        <form method="post" action="/auth/start" className="mt-6 flex flex-wrap items-center gap-4 border-t border-slate-100 pt-6">
          <button
            type="submit"
            className="rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700"
          >
            Start verification
          </button>
          <p className="text-sm text-slate-600">
            Sends a pushed authorization request as client <code className="font-mono text-slate-800">{config.client.clientId}</code>, then opens the
            {config.mode === 'emulator' ? ' emulated ' : ' '}identity app.
          </p>
        </form>
      </section>
    </div>
  );
}
