/**
 * The app's Content-Security-Policy for its pages, with a fresh nonce per response (proxy.ts):
 * scripts run only when they carry the nonce (Next.js puts it on its own scripts when it finds it
 * in the request's Content-Security-Policy header) or are loaded by one that does
 * ('strict-dynamic'). An injected `<script>` or inline event handler does not run, so React's
 * escaping is no longer the only defence on the page that shows personal data.
 *
 * Deliberately absent: `form-action`, since browsers apply it to the redirect that follows a
 * form post, and POST /auth/start redirects to the service's authorization endpoint on another
 * origin. Styles may be inline (`style` attributes of React elements); they cannot run code.
 * @see https://nextjs.org/docs/app/guides/content-security-policy
 * @see https://www.w3.org/TR/CSP3/#strict-dynamic-usage
 */

/** A nonce: 16 random bytes, base64 (a CSP nonce-source). */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

export interface PolicyOptions {
  /** this response's nonce */
  nonce: string;
  /** `next dev`: React's development build needs eval for its call stacks */
  development: boolean;
  /** the app is served over https: ask the browser to upgrade any http subresource */
  https: boolean;
}

/**
 * The policy's header value: scripts allowed by this response's nonce, and what those load
 * ('strict-dynamic'). 'self' is for browsers before CSP Level 3, which ignore 'strict-dynamic';
 * the others ignore 'self' beside it.
 */
export function contentSecurityPolicy({ nonce, development, https }: PolicyOptions): string {
  const scriptSources = ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", ...(development ? ["'unsafe-eval'"] : [])];
  const directives = [
    "default-src 'self'",
    `script-src ${scriptSources.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    // the portrait comes from /result/portrait; icons and the manifest from the app itself
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}
