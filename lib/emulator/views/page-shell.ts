/**
 * The shell of every page the emulator serves (the authorization page and its error page, the
 * simulated identity app, the QA panel): the HTML document around a body, its Content-Security-
 * Policy and its security headers. Bodies are built with the escaping `html` tag of views/html.ts;
 * stylesheets come from views/assets.
 * @see spec part 1 (steps 3–6), 4.2
 */
import { createHash } from 'node:crypto';
import type { Locale } from '../../i18n/locale';
import { SafeHtml, html } from './html';
import { colorSchemeOf, type Theme } from './theme';

/** The sources a page may load besides its own inline stylesheet (allowed by hash). */
export interface PageSources {
  /** origins images come from ('self' is always allowed) */
  images: readonly string[];
  /** exact script URLs (no inline script is ever allowed) */
  scripts?: readonly string[];
  /** exact URLs the page's script may fetch */
  connect?: readonly string[];
  /**
   * Where the page's forms may post (CSP `form-action`), besides its own origin ('self', where
   * the language switch posts). Browsers apply `form-action` to the redirects that answer a form
   * post too, so a page whose forms end in a redirect to the client names the redirect URI's
   * origin here.
   */
  forms?: readonly string[];
}

export interface Page {
  status: number;
  /** the page's language: `<html lang>` and `Content-Language` (views/language.ts) */
  locale: Locale;
  /** light, dark, or `system` (prefers-color-scheme, the default): views/theme.ts */
  theme?: Theme;
  title: string;
  /** the stylesheet, inlined and allowed by its SHA-256 hash */
  styles: string;
  body: SafeHtml;
  sources: PageSources;
  /** class of <body>: the desktop page, the phone-sized app or the QA panel */
  layout: 'desk' | 'phone' | 'panel';
  /**
   * Default `no-referrer`: interaction ids and browser secrets in URLs never leak to other
   * sites. A page whose forms post to its own origin under a same-origin check needs
   * `same-origin`, since with `no-referrer` browsers send `Origin: null`.
   */
  referrer?: 'no-referrer' | 'same-origin';
  /** reload the page after this many seconds (a page that shows progress without a script) */
  refreshSeconds?: number;
}

const styleHashes = new Map<string, string>();

function styleHash(styles: string): string {
  let hash = styleHashes.get(styles);
  if (!hash) {
    hash = createHash('sha256').update(styles).digest('base64');
    styleHashes.set(styles, hash);
  }
  return hash;
}

/**
 * The Content-Security-Policy of a page: nothing but its own stylesheet and what `sources` names.
 * Without framing, which only a header can forbid (CSP3 §6.1: a `<meta>` policy ignores
 * `frame-ancestors`); `pageResponse` adds it to the header.
 */
export function contentSecurityPolicy(page: Pick<Page, 'styles' | 'sources'>): string {
  const { sources } = page;
  const unique = (values: readonly string[]) => [...new Set(values)].join(' ');
  return [
    "default-src 'none'",
    `style-src 'sha256-${styleHash(page.styles)}'`,
    ["img-src 'self'", unique(sources.images)].filter(Boolean).join(' '),
    sources.scripts?.length ? `script-src ${unique(sources.scripts)}` : undefined,
    sources.connect?.length ? `connect-src ${unique(sources.connect)}` : undefined,
    // Every page has a form (the language switch), so every page says where forms may go.
    `form-action ${unique(["'self'", ...(sources.forms ?? [])])}`,
    "base-uri 'none'",
  ]
    .filter((directive) => directive !== undefined)
    .join('; ');
}

/**
 * A complete HTML page, never cached. Its policy is sent as a header and repeated in a `<meta>`
 * element: a host app may replace a route's headers with its own (Next.js lets next.config.mjs
 * `headers()` do so), and the page keeps its policy anyway.
 */
export function pageResponse(page: Page): Response {
  const policy = contentSecurityPolicy(page);
  const referrer = page.referrer ?? 'no-referrer';
  const theme = page.theme ?? 'system';
  const scripts = (page.sources.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`);
  const document = html`<!doctype html>
<html lang="${page.locale}" data-theme="${theme}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="${referrer}">
<meta name="color-scheme" content="${colorSchemeOf(theme)}">
${page.refreshSeconds === undefined ? '' : html`<meta http-equiv="refresh" content="${String(page.refreshSeconds)}">`}
<title>${page.title}</title>
<style>${new SafeHtml(page.styles)}</style>
${scripts}
</head>
<body class="${page.layout}">
${page.body}
</body>
</html>`;
  return new Response(document.value, {
    status: page.status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Language': page.locale,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': `${policy}; frame-ancestors 'none'`,
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': referrer,
    },
  });
}

/** A 303 See Other to a page of the emulator (after a form post: RFC 9110 §15.4.4), never cached. */
export function seeOther(location: string): Response {
  return new Response(null, {
    status: 303,
    headers: { Location: location, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' },
  });
}
