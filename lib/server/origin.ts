import 'server-only';
/**
 * DESIGN.md: POST /auth/start is same-origin only. Browsers send `Origin` on every form POST and
 * `Sec-Fetch-Site` on every request; a cross-site form (login CSRF into our flow) is refused.
 * A request with neither comes from a script, not a browser, and cannot ride a user's cookies.
 */
export function isSameOriginRequest(headers: Headers, appUrl: string): boolean {
  const origin = headers.get('origin');
  if (origin !== null && origin !== new URL(appUrl).origin) return false;
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return false;
  return true;
}
