/**
 * Runs before every page rendered per request:
 * - a Content-Security-Policy with a fresh nonce (lib/server/content-security-policy.ts), on the
 *   response and on the request, where Next.js reads it to put the nonce on its own scripts;
 *   none for the home page rendered to be served with hashes (`SHARED_RENDER_HEADER`,
 *   lib/server/home-page.ts);
 * - on the failure page of a refusal, the refusal's status and `Retry-After`;
 * - a page opened under another name of this server (127.0.0.1 for localhost) is sent to APP_URL,
 *   where sign-in works (lib/server/app-address.ts);
 * - a shared link to a request (`/?preset=…`) goes to the home page rendered for it (`/home-page`), with
 *   the browser's session binding handed out before any form is posted (see lib/server/session.ts):
 *   two tabs that then start verifications at the same moment both carry the same binding, so both
 *   complete.
 * Not for `/` without a link (app/route.ts serves it, kept), the embedded emulator (it sends its own
 * policy per page), static files, or route handlers.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { addressFacts, appAddressRedirect, APP_ADDRESS_ROUTE } from '@/lib/server/app-address';
import { contentSecurityPolicy, newNonce } from '@/lib/server/content-security-policy';
import { serverConfig } from '@/lib/server/env';
import { HOME_PAGE_PATH, SHARED_RENDER_HEADER } from '@/lib/server/home-page';
import { holdsBinding, newBindingCookie, sessionCookie } from '@/lib/server/session';
import { FAILURE_PAGE, readFailureLink, refusalStatus } from '@/lib/verification/failures';

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const config = await serverConfig();
  const elsewhere = request.method === 'GET' || request.method === 'HEAD' ? sentToAppUrl(request, config) : undefined;
  if (elsewhere) return elsewhere;
  const { pathname } = request.nextUrl;
  // Next.js hands the proxy's response headers to the page too, and takes its scripts' nonce from
  // them: the home page rendered to be served with hashes gets a policy without one (which allows
  // none of its scripts, should it ever reach a browser as it is; app/route.ts serves it with hashes).
  const shared = pathname === HOME_PAGE_PATH && request.headers.get(SHARED_RENDER_HEADER) === '1';
  const policy = contentSecurityPolicy({
    ...(shared ? { scriptHashes: [] } : { nonce: newNonce() }),
    development: !config.production,
    https: config.secureCookies,
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('Content-Security-Policy', policy);
  const response =
    pathname === '/'
      ? NextResponse.rewrite(new URL(`${HOME_PAGE_PATH}${request.nextUrl.search}`, request.url), { request: { headers: requestHeaders } })
      : (refusalPage(request, requestHeaders) ?? NextResponse.next({ request: { headers: requestHeaders } }));
  response.headers.set('Content-Security-Policy', policy);

  if (pathname !== '/') return response;
  // A valid binding stays; none, or one expired or unreadable, is replaced by a new one.
  if (await holdsBinding(request.cookies.get(sessionCookie(config.secureCookies).name)?.value)) return response;
  const cookie = await newBindingCookie();
  response.cookies.set(cookie.name, cookie.value, cookie.options);
  return response;
}

/**
 * A page opened under another name of this server goes to APP_URL, through the route that
 * answers the 307 (app/app-address/route.ts): Next.js makes a Location that a proxy returns
 * relative when its host is the one Next.js believes it serves (its own listening name), which
 * for APP_URL http://localhost:3000 would send the browser back where it came from, in a loop.
 */
function sentToAppUrl(request: NextRequest, config: { appUrl: string; trustedProxies: number }): NextResponse | undefined {
  const path = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  if (!appAddressRedirect(path, addressFacts(request.headers, config))) return undefined;
  const route = new URL(APP_ADDRESS_ROUTE, request.url);
  route.searchParams.set('to', path);
  return NextResponse.rewrite(route);
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
 * Every path but `/` (app/route.ts), the emulator's, static files and route handlers; `/` only with
 * a field of a link to a request (lib/verification/selection.ts `LINK_FIELDS`: Next.js reads the
 * matcher at build time, so they are written out here; test/proxy-matcher.test.ts keeps the two lists the same).
 */
export const config = {
  matcher: [
    {
      source:
        '/((?!emulator(?:/|$)|_next/static|_next/image|result/portrait|result/trace|result/again|auth/|healthz|readyz|preferences|demo-logo|app-address|favicon.ico|icon.svg|apple-touch-icon.png|manifest.webmanifest|icons/).+)',
    },
    { source: '/', has: [{ type: 'query', key: 'preset' }] },
    { source: '/', has: [{ type: 'query', key: 'trust_framework' }] },
    { source: '/', has: [{ type: 'query', key: 'claim' }] },
    { source: '/', has: [{ type: 'query', key: 'essential' }] },
    { source: '/', has: [{ type: 'query', key: 'evidence' }] },
    { source: '/', has: [{ type: 'query', key: 'document_detail' }] },
  ],
};
