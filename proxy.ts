/**
 * Runs before every page:
 * - a Content-Security-Policy with a fresh nonce (lib/server/content-security-policy.ts), on the
 *   response and on the request, where Next.js reads it to put the nonce on its own scripts;
 * - on the home page, the browser's session binding, handed out before any form is posted (see
 *   lib/server/session.ts): two tabs that then start verifications at the same moment both carry
 *   the same binding, so both complete.
 * Not for the embedded emulator (it sends its own policy per page), static files or route handlers
 * that answer with data rather than a page.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, newNonce } from '@/lib/server/content-security-policy';
import { serverConfig } from '@/lib/server/env';
import { holdsBinding, newBindingCookie, sessionCookie } from '@/lib/server/session';

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const config = await serverConfig();
  const policy = contentSecurityPolicy({
    nonce: newNonce(),
    development: !config.production,
    https: config.secureCookies,
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('Content-Security-Policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('Content-Security-Policy', policy);

  if (request.nextUrl.pathname !== '/') return response;
  // A valid binding stays; none, or one expired or unreadable, is replaced by a new one.
  if (await holdsBinding(request.cookies.get(sessionCookie(config.secureCookies).name)?.value)) return response;
  const cookie = await newBindingCookie();
  response.cookies.set(cookie.name, cookie.value, cookie.options);
  return response;
}

export const config = {
  matcher: [
    {
      source: '/((?!emulator(?:/|$)|_next/static|_next/image|result/portrait|result/trace|auth/|healthz|readyz|favicon.ico|icon.svg|apple-touch-icon.png|manifest.webmanifest|icons/).*)',
    },
  ],
};
