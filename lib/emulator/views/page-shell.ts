/**
 * The shell of the emulator's user-facing pages (the authorization page, the simulated identity
 * app, the error page): the HTML document around a body and its security headers. Bodies are
 * built with the escaping `html` tag of html.ts.
 * @see spec part 1 (steps 3–6), 4.2
 */
import { createHash } from 'node:crypto';
import { SafeHtml, html } from './html';

/** The sources a page may load besides its own inline stylesheet (allowed by hash). */
export interface PageSources {
  /** origins images come from ('self' is always allowed) */
  images: readonly string[];
  /** exact script URLs (no inline script is ever allowed) */
  scripts?: readonly string[];
  /** exact URLs the page's script may fetch */
  connect?: readonly string[];
}

export interface Page {
  status: number;
  title: string;
  /** the stylesheet, inlined and allowed by its SHA-256 hash */
  styles: string;
  body: SafeHtml;
  sources: PageSources;
  /** class of <body>: the desktop page or the phone-sized app */
  layout: 'desk' | 'phone';
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

/** The Content-Security-Policy of a page: nothing but its own stylesheet and what `sources` names. */
export function contentSecurityPolicy(styles: string, sources: PageSources): string {
  const unique = (values: readonly string[]) => [...new Set(values)].join(' ');
  return [
    "default-src 'none'",
    `style-src 'sha256-${styleHash(styles)}'`,
    `img-src 'self' ${unique(sources.images)}`,
    sources.scripts?.length ? `script-src ${unique(sources.scripts)}` : undefined,
    sources.connect?.length ? `connect-src ${unique(sources.connect)}` : undefined,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ]
    .filter((directive) => directive !== undefined)
    .join('; ');
}

/**
 * A complete HTML page, never cached. `form-action` is left out of the CSP on purpose: browsers
 * apply it to the redirect that follows a form post, which goes to the client's redirect URI.
 * `no-referrer` keeps interaction ids and browser secrets in URLs from leaking to other sites.
 */
export function pageResponse(page: Page): Response {
  const scripts = (page.sources.scripts ?? []).map((src) => html`<script src="${src}" defer></script>`);
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light">
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
      'Cache-Control': 'no-store',
      'Content-Security-Policy': contentSecurityPolicy(page.styles, page.sources),
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
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
