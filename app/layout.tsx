import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import { LOCALE_NAMES, LOCALES } from '@/lib/i18n/locale';
import { serverConfig } from '@/lib/server/env';
import { preferences, THEMES } from '@/lib/server/preferences';
import { serviceHealth } from '@/lib/server/service-health';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';
import { AddressNotice } from './_components/address-notice';
import { ModeBadge } from './_components/mode-badge';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const t = PAGE_MESSAGES[(await preferences()).locale];
  return {
    title: { default: t.title, template: t.titleTemplate },
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
  const { presenter, theme, locale } = await preferences();
  // The doctor's findings, reused for 15 s, waited for at most a quarter of a second: the badge
  // never holds a page up, however slow the provider (lib/server/service-health.ts).
  const health = await serviceHealth();
  const { appUrl } = await serverConfig();
  const t = PAGE_MESSAGES[locale];
  return (
    // data-theme only when chosen: without it the stylesheet follows prefers-color-scheme.
    <html lang={locale} data-theme={theme === 'system' ? undefined : theme}>
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
          {t.skipToContent}
        </a>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
            {/* The badge under the name: the header keeps to one row of switches at desktop width in either language. */}
            <div className="flex min-w-0 flex-col items-start gap-1.5">
              <a href="/" className="flex items-center gap-2 font-semibold text-slate-900">
                <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-indigo-700 text-sm font-bold text-on-accent">
                  ID
                </span>
                <span>{t.appName}</span>
                <span className="hidden text-sm font-normal text-slate-500 sm:inline">{t.appRole}</span>
              </a>
              <ModeBadge health={health} locale={locale} />
            </div>
            {/* Forms, so the switches work without JavaScript; POST /preferences remembers them. */}
            <div className="flex flex-wrap items-center gap-2">
              {/* Each language named in itself, and marked as such for screen readers. */}
              <form method="post" action="/preferences" className="segmented" role="group" aria-label={t.language} data-testid="language-switch">
                {LOCALES.map((value) => (
                  <button key={value} type="submit" name="lang" value={value} lang={value} aria-pressed={locale === value}>
                    {LOCALE_NAMES[value]}
                  </button>
                ))}
              </form>
              <form method="post" action="/preferences" className="segmented" role="group" aria-label={t.theme} data-testid="theme-switch">
                {THEMES.map((value) => (
                  <button key={value} type="submit" name="theme" value={value} aria-pressed={theme === value}>
                    {t.themes[value]}
                  </button>
                ))}
              </form>
              <form method="post" action="/preferences">
                <input type="hidden" name="presenter" value={presenter ? 'off' : 'on'} />
                <button type="submit" className="presenter-switch" aria-pressed={presenter} data-testid="presenter-switch">
                  {t.presenterMode(presenter)}
                </button>
              </form>
            </div>
          </div>
        </header>
        {presenter && (
          <p role="status" className="presenter-banner" data-testid="presenter-banner">
            {t.presenterBanner}
          </p>
        )}
        <div className="px-4 sm:px-6">
          <AddressNotice appOrigin={appUrl} locale={locale} />
        </div>
        <main id="main" className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
          {children}
        </main>
      </body>
    </html>
  );
}
