/**
 * Runs before every request but the embedded emulator's (it sends its own policy per page) and
 * static files:
 * - a Content-Security-Policy with a fresh nonce (lib/server/content-security-policy.ts), on the
 *   response and on the request, where Next.js reads it to put the nonce on its own scripts;
 * - on the failure page of a refusal, the refusal's status and `Retry-After`;
 * - a page opened under another name of this server (127.0.0.1 for localhost) is sent to APP_URL,
 *   path and query kept, where sign-in works: this decides where (lib/server/app-address.ts), and
 *   app/layout.tsx, which every page has, redirects there;
 * - on the home page, the browser's session binding, handed out before any form is posted (see
 *   lib/server/session.ts): two tabs that then start verifications at the same moment both carry
 *   the same binding, so both complete.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { addressFacts, APP_ADDRESS_HEADER, appAddressRedirect } from '@/lib/server/app-address';
import { contentSecurityPolicy, newNonce } from '@/lib/server/content-security-policy';
import { serverConfig } from '@/lib/server/configuration';
import { holdsBinding, newBindingCookie, sessionCookie } from '@/lib/server/session';
import { FAILURE_PAGE, readFailureLink, refusalStatus } from '@/lib/verification/failures';

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const config = await serverConfig();
  const { pathname, search } = new URL(request.url);
  const policy = contentSecurityPolicy({ nonce: newNonce(), development: !config.production, https: config.secureCookies });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('Content-Security-Policy', policy);
  // Where the page sends the browser is said here only, never by the request itself.
  requestHeaders.delete(APP_ADDRESS_HEADER);
  const elsewhere =
    request.method === 'GET' || request.method === 'HEAD' ? appAddressRedirect(`${pathname}${search}`, addressFacts(request.headers, config)) : undefined;
  if (elsewhere) requestHeaders.set(APP_ADDRESS_HEADER, elsewhere);
  const response = refusalPage(request, requestHeaders) ?? NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', policy);

  if (pathname !== '/' || elsewhere) return response;
  // A valid binding stays; none, or one expired or unreadable, is replaced by a new one.
  if (await holdsBinding(request.cookies.get(sessionCookie(config.secureCookies).name)?.value)) return response;
  const cookie = await newBindingCookie();
  response.cookies.set(cookie.name, cookie.value, cookie.options);
  return response;
}

/**
 * The failure page of a refusal (lib/server/failures.ts), served with the refusal's status, 429 or
 * 503, and its `Retry-After`: the page every failure has, and the status a client and a load
 * balancer read.
 */
function refusalPage(request: NextRequest, requestHeaders: Headers): NextResponse | undefined {
  if (request.nextUrl.pathname !== FAILURE_PAGE) return undefined;
  const { code, retryAfterSeconds } = readFailureLink(request.nextUrl.searchParams);
  const status = refusalStatus(code);
  if (status === undefined) return undefined;
  // The page as it is, with the refusal's status (a rewrite to itself would be proxied as another origin's).
  const response = NextResponse.next({ status, request: { headers: requestHeaders } });
  if (retryAfterSeconds !== undefined) response.headers.set('retry-after', String(retryAfterSeconds));
  return response;
}

/**
 * Every path but the embedded emulator's, Next.js's own files and the files of public/ (a path
 * whose last segment has an extension): pages and route handlers alike, so a new one needs no
 * entry here.
 */
export const config = {
  matcher: ['/((?!emulator(?:/|$)|_next/static/|_next/image|.*\\.\\w+$).*)'],
};
