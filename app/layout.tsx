import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { connection } from 'next/server';
import { LOCALE_NAMES, LOCALES } from '@/lib/i18n/locale';
import { appAddressLocation } from '@/lib/server/app-address';
import { DEMO_LOGO_PATH } from '@/lib/server/env';
import { serverConfig } from '@/lib/server/configuration';
import { preferences, THEMES } from '@/lib/server/preferences';
import { serviceHealth } from '@/lib/server/service-health';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';
import { AddressNotice } from './_components/address-notice';
import { ModeBadge } from './_components/mode-badge';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = PAGE_MESSAGES[(await preferences()).locale];
  const customerMode = (await serverConfig().catch(() => undefined))?.customerMode === true;
  return {
    title: { default: customerMode ? t.customerTitle : t.title, template: t.titleTemplate },
    description: t.description,
    referrer: 'same-origin',
    // public/: the header's "ID" mark, drawn by scripts/generate-icons.mjs
    icons: {
      icon: [
        { url: '/favicon.ico', sizes: '16x16 32x32 48x48' },
        { url: '/icon.svg', type: 'image/svg+xml' },
      ],
      apple: '/apple-touch-icon.png',
    },
    manifest: '/manifest.webmanifest',
  };
}

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#312e81' };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, the not-found page included: its scripts must carry the
  // nonce of that response's Content-Security-Policy (proxy.ts), which a prerendered page cannot.
  await connection();
  // The customer's name and logo (IDV_DEMO_NAME, IDV_DEMO_LOGO), and whether QA's links are left
  // out (IDV_CUSTOMER_MODE). A configuration that does not load shows the app's own frame: the
  // page below says what is wrong.
  const config = await serverConfig().catch(() => undefined);
  // A page opened under another name of this server goes to APP_URL, path and query kept (proxy.ts says where).
  const elsewhere = config && appAddressLocation(await headers(), config.appUrl);
  if (elsewhere) redirect(elsewhere);
  const { presenter, theme, locale } = await preferences();
  // The doctor's findings, reused for 15 s, waited for at most a quarter of a second: the badge
  // never holds a page up, however slow the provider (lib/server/service-health.ts).
  const health = await serviceHealth();
  const t = PAGE_MESSAGES[locale];
  const demoName = config?.demo.name;
  const name = demoName ?? t.appName;
  const [presenterShort, presenterRest] = t.presenterMode(presenter);
  return (
    // data-theme only when chosen: without it the stylesheet follows prefers-color-scheme.
    <html lang={locale} data-theme={theme === 'system' ? undefined : theme}>
      <body className="min-h-screen">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
        >
          {t.skipToContent}
        </a>
        <header className="border-b border-slate-200 bg-white" data-testid="site-header">
          {/*
            Two short rows on a phone (the name and the badge; the switches, smaller), so the page
            starts near the top; at desktop width the badge sits under the name and the switches
            keep to one row beside them, in either language.
          */}
          <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-3 py-2 sm:px-6 sm:py-3">
            <div className="flex w-full min-w-0 items-center justify-between gap-x-3 gap-y-1 sm:w-auto sm:flex-col sm:items-start sm:gap-1.5">
              <a href="/" className="flex min-w-0 items-center gap-2 font-semibold text-slate-900" data-testid="site-name">
                {config?.demo.logo ? (
                  // The customer's logo at the mark's fixed size, its shape kept (object-contain); PNG, JPEG or WebP only (lib/server/env.ts).
                  // eslint-disable-next-line @next/next/no-img-element
                  <img
                    src={DEMO_LOGO_PATH}
                    alt={t.logoOf(name)}
                    width={32}
                    height={32}
                    className="size-7 shrink-0 rounded-md object-contain sm:size-8"
                    data-testid="demo-logo"
                  />
                ) : (
                  <span
                    aria-hidden="true"
                    className="grid size-7 shrink-0 place-items-center rounded-lg bg-indigo-700 text-xs font-bold text-on-accent sm:size-8 sm:text-sm"
                  >
                    ID
                  </span>
                )}
                <span className="truncate text-sm sm:text-base" title={demoName}>
                  {name}
                </span>
                {!config?.customerMode && <span className="hidden shrink-0 text-sm font-normal text-slate-500 sm:inline">{t.appRole}</span>}
              </a>
              {/* IDV_CUSTOMER_MODE: nothing of QA's in front of a customer, the service's health included (the doctor has it). */}
              {!config?.customerMode && <ModeBadge health={health} locale={locale} />}
            </div>
            {/* Forms, so the switches work without JavaScript; POST /preferences remembers them. */}
            <div className="flex flex-wrap items-center gap-1.5 sm:gap-2 [&_button]:px-1.5 [&_button]:py-1 [&_button]:text-xs min-[380px]:[&_button]:px-2 sm:[&_button]:px-3 sm:[&_button]:text-sm">
              {/* Each language named in itself, and marked as such for screen readers. Each group is a
                  div in a form that takes no box: ARIA in HTML allows a form no role but search. */}
              <form method="post" action="/preferences" className="contents">
                <div className="segmented" role="group" aria-label={t.language} data-testid="language-switch">
                  {LOCALES.map((value) => (
                    <button key={value} type="submit" name="lang" value={value} lang={value} aria-pressed={locale === value}>
                      {LOCALE_NAMES[value]}
                    </button>
                  ))}
                </div>
              </form>
              <form method="post" action="/preferences" className="contents">
                <div className="segmented" role="group" aria-label={t.theme} data-testid="theme-switch">
                  {THEMES.map((value) => (
                    <button key={value} type="submit" name="theme" value={value} aria-pressed={theme === value}>
                      {t.themes[value]}
                    </button>
                  ))}
                </div>
              </form>
              <form method="post" action="/preferences">
                <input type="hidden" name="presenter" value={presenter ? 'off' : 'on'} />
                <button type="submit" className="presenter-switch" aria-pressed={presenter} data-testid="presenter-switch">
                  {presenterShort}
                  <span className="hidden sm:inline">{presenterRest}</span>
                </button>
              </form>
            </div>
          </div>
        </header>
        {presenter && (
          <p role="status" className="presenter-banner px-3 py-1 text-xs sm:px-4 sm:py-2 sm:text-sm" data-testid="presenter-banner">
            {/* One short line on a phone, above the page it is about; the whole of it where there is room. */}
            <span className="sm:hidden">{t.presenterBannerShort}</span>
            <span className="hidden sm:inline">{t.presenterBanner}</span>
          </p>
        )}
        <main id="main" className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
          {config && <AddressNotice appOrigin={config.appUrl} locale={locale} />}
          {children}
        </main>
      </body>
    </html>
  );
}
