import { personas } from '@/lib/emulator';
import { preferences } from '@/lib/server/preferences';
import { selectionProblemCodes } from '@/lib/oidc';
import { services } from '@/lib/server/services';
import { offeredTrustFrameworks } from '@/lib/server/trust-frameworks';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';
import { PRESETS } from '@/lib/verification/presets';
import { readSelectionQuery } from '@/lib/verification/selection';
import { Picker, START_SECTION_ID } from './_components/picker';
import { SkipToStart } from './_components/skip-to-start';

/**
 * The home page, rendered per request like every page (its scripts allowed by the nonce proxy.ts
 * gives it), a shared link's (`/?preset=…`) with the request it names. proxy.ts hands a browser
 * its session binding here, before any form is posted.
 */
export const dynamic = 'force-dynamic';

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { config } = await services();
  const query = await searchParams;
  const signedOut = query.signed_out === '1';
  const { presenter, locale } = await preferences();
  const t = PAGE_MESSAGES[locale];
  const frameworks = await offeredTrustFrameworks();
  // A shared link opens the same request, or only the part of it that could be read, never more
  // (lib/verification/selection.ts); a trust framework the service does not offer is one part.
  const link = readSelectionQuery(query, { presets: PRESETS, trustFrameworks: frameworks.values });
  const readNothing = selectionProblemCodes(link.selection).includes('nothing_requested');
  const emulator = config.mode === 'emulator';
  // Presets name the person they suggest (the embedded emulator's personas: emulator mode only).
  const personaNames = emulator ? Object.fromEntries(personas.map((persona) => [persona.id, persona.label])) : {};
  // IDV_CUSTOMER_MODE: no links to QA's tools, nor QA's controls, on a customer's screen (the tools stay reachable by URL).
  const qaLinks = !config.customerMode;

  return (
    <div className="space-y-8">
      {/* The first stop after "Skip to content": past the presets and claims, to Start, in two Tabs. */}
      <SkipToStart target={START_SECTION_ID} label={t.skipToStart} />
      {signedOut && (
        <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          {t.home.signedOut}
        </p>
      )}
      <section className="space-y-4">
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm text-slate-700" data-testid="service-issuer">
            {t.home.service} <code className="font-mono text-xs break-all text-slate-600">{config.issuer}</code>
          </span>
          {emulator && qaLinks && (
            <a href="/emulator" className="text-sm font-medium text-link underline underline-offset-2 hover:text-link-hover" data-testid="qa-panel-link">
              {t.home.qaPanel}
            </a>
          )}
          {qaLinks && (
            <a href="/doctor" className="text-sm font-medium text-link underline underline-offset-2 hover:text-link-hover" data-testid="doctor-link">
              {t.home.doctor}
            </a>
          )}
        </div>
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{t.home.heading}</h1>
        <p className="max-w-3xl text-lg text-slate-700">{t.home.intro}</p>
        {link.unread.length > 0 && (
          <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="link-problem">
            <p>{readNothing ? t.home.linkUnread : t.home.linkPartlyRead}</p>
            <ul className="mt-1 list-disc pl-5">
              {link.unread.map((part) => (
                <li key={`${part.reason} ${part.field} ${part.value ?? ''}`}>{t.home.unreadPart(part)}</li>
              ))}
              {link.moreUnread > 0 && <li>{t.home.moreUnread(link.moreUnread)}</li>}
            </ul>
          </div>
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
        emulator={emulator}
        personaNames={personaNames}
        populationRegisterName={config.populationRegisterName}
        presenter={presenter}
        qaTools={qaLinks}
        locale={locale}
      />
    </div>
  );
}
