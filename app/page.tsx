import { preferences } from '@/lib/server/preferences';
import { DEFAULT_SELECTION } from '@/lib/oidc';
import { readSelectionLink } from '@/lib/server/selection-form';
import { services } from '@/lib/server/services';
import { offeredTrustFrameworks } from '@/lib/server/trust-frameworks';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';
import { PRESETS } from '@/lib/view/presets';
import { ModeBadge } from './_components/mode-badge';
import { Picker } from './_components/picker';

export const dynamic = 'force-dynamic';

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { config } = await services();
  const query = await searchParams;
  const signedOut = query.signed_out === '1';
  // A shared link opens the same request (lib/view/selection-link.ts).
  const read = readSelectionLink(query);
  const { presenter, locale } = await preferences();
  const t = PAGE_MESSAGES[locale];
  const frameworks = await offeredTrustFrameworks();
  // A link may name a trust framework the service does not offer: the picker has no choice for it.
  const link = read.problem || frameworks.values.includes(read.selection.trustFramework)
    ? read
    : { selection: DEFAULT_SELECTION, problem: t.home.frameworkNotOffered };

  return (
    <div className="space-y-8">
      {signedOut && (
        <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          {t.home.signedOut}
        </p>
      )}
      <section className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <ModeBadge mode={config.mode} issuer={config.issuer} locale={locale} />
          {config.mode === 'emulator' && (
            <a href="/emulator" className="text-sm font-medium text-link underline underline-offset-2 hover:text-link-hover">
              {t.home.qaPanel}
            </a>
          )}
          <a href="/doctor" className="text-sm font-medium text-link underline underline-offset-2 hover:text-link-hover">
            {t.home.doctor}
          </a>
        </div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{t.home.heading}</h1>
        <p className="max-w-3xl text-lg text-slate-700">
          {t.home.intro}
        </p>
        {link.problem && (
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="link-problem">
            {t.home.linkProblem(link.problem)}
          </p>
        )}
        {frameworks.discoveryError && (
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
            {t.home.discoveryError(frameworks.discoveryError)}
          </p>
        )}
      </section>
      <Picker
        trustFrameworks={frameworks.values}
        initial={link.selection}
        initialPreset={link.preset}
        presets={PRESETS}
        clientId={config.client.clientId}
        issuer={config.issuer}
        redirectUri={config.redirectUri}
        emulator={config.mode === 'emulator'}
        populationRegisterName={config.populationRegisterName}
        presenter={presenter}
        locale={locale}
      />
    </div>
  );
}
