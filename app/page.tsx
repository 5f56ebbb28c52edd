import { preferences } from '@/lib/server/preferences';
import { DEFAULT_SELECTION } from '@/lib/oidc';
import { readSelectionLink } from '@/lib/server/selection-form';
import { services } from '@/lib/server/services';
import { offeredTrustFrameworks } from '@/lib/server/trust-frameworks';
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
  const { presenter } = await preferences();
  const frameworks = await offeredTrustFrameworks();
  // A link may name a trust framework the service does not offer: the picker has no choice for it.
  const link = read.problem || frameworks.values.includes(read.selection.trustFramework)
    ? read
    : { selection: DEFAULT_SELECTION, problem: 'its trust framework is not one the service offers' };

  return (
    <div className="space-y-8">
      {signedOut && (
        <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          Signed out. The verified identity and the session were deleted.
        </p>
      )}
      <section className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <ModeBadge mode={config.mode} issuer={config.issuer} />
          {config.mode === 'emulator' && (
            <a href="/emulator" className="text-sm font-medium text-link underline underline-offset-2 hover:text-link-hover">
              QA panel: personas, keys and faults
            </a>
          )}
          <a href="/doctor" className="text-sm font-medium text-link underline underline-offset-2 hover:text-link-hover">
            Doctor: the configuration against the service
          </a>
        </div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Verify an identity</h1>
        <p className="max-w-3xl text-lg text-slate-700">
          Choose what to ask for. The person scans their passport or ID card and passes a face check in the mobile identity
          app; we receive the verified identity as an encrypted, signed ID token, check every part of it, and show what came back.
          Only what you tick is requested.
        </p>
        {link.problem && (
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="link-problem">
            The link’s request could not be read ({link.problem}); the default request is shown instead.
          </p>
        )}
        {frameworks.discoveryError && (
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
            The service’s discovery document could not be loaded ({frameworks.discoveryError}); the trust frameworks shown are the specification’s.
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
      />
    </div>
  );
}
