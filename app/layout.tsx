import type { Metadata, Viewport } from 'next';
import { connection } from 'next/server';
import { preferences } from '@/lib/server/preferences';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Identity verification — relying party', template: '%s · Identity verification' },
  description: 'Reference relying party for an OpenID Connect for Identity Assurance verification service.',
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

const THEME_CHOICES = [
  ['system', 'Auto'],
  ['light', 'Light'],
  ['dark', 'Dark'],
] as const;

export const viewport: Viewport = { width: 'device-width', initialScale: 1, themeColor: '#312e81' };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page is rendered per request, the not-found page included: its scripts must carry the
  // nonce of that response's Content-Security-Policy (proxy.ts), which a prerendered page cannot.
  await connection();
  const { presenter, theme } = await preferences();
  return (
    // data-theme only when chosen: without it the stylesheet follows prefers-color-scheme.
    <html lang="en" data-theme={theme === 'system' ? undefined : theme}>
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-4 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3 sm:px-6">
            <a href="/" className="flex items-center gap-2 font-semibold text-slate-900">
              <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-indigo-700 text-sm font-bold text-on-accent">
                ID
              </span>
              <span>Identity verification</span>
              <span className="hidden text-sm font-normal text-slate-500 sm:inline">relying party</span>
            </a>
            {/* Forms, so the switches work without JavaScript; POST /preferences remembers them. */}
            <div className="flex flex-wrap items-center gap-2">
              <form method="post" action="/preferences" className="theme-switch" role="group" aria-label="Theme" data-testid="theme-switch">
                {THEME_CHOICES.map(([value, label]) => (
                  <button key={value} type="submit" name="theme" value={value} aria-pressed={theme === value}>
                    {label}
                  </button>
                ))}
              </form>
              <form method="post" action="/preferences">
                <input type="hidden" name="presenter" value={presenter ? 'off' : 'on'} />
                <button type="submit" className="presenter-switch" aria-pressed={presenter} data-testid="presenter-switch">
                  Presenter mode{presenter ? ': on' : ''}
                </button>
              </form>
            </div>
          </div>
        </header>
        {presenter && (
          <p role="status" className="presenter-banner" data-testid="presenter-banner">
            Presenter mode: names are shown as initials, dates of birth hidden, the portrait blurred and every number masked, on every page and in
            what is copied or downloaded.
          </p>
        )}
        <main id="main" className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-10">
          {children}
        </main>
      </body>
    </html>
  );
}
