/**
 * Hands a browser its session binding on the home page, before any form is posted (see
 * lib/server/session.ts): two tabs that then start verifications at the same moment both carry
 * the same binding, so both complete.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { newBindingCookie, sessionOptions } from '@/lib/server/session';
import { serverConfig } from '@/lib/server/env';

export async function proxy(request: NextRequest): Promise<NextResponse> {
  const response = NextResponse.next();
  const config = await serverConfig();
  if (request.cookies.has(sessionOptions(config.sessionSecret, config.secureCookies).cookieName)) return response;
  const cookie = await newBindingCookie();
  response.cookies.set(cookie.name, cookie.value, cookie.options);
  return response;
}

export const config = { matcher: ['/'] };
