/**
 * GET / : the home page, as rendered once for every visitor who sees the same page
 * (lib/server/home-page.ts), with a Content-Security-Policy that allows its scripts by their
 * hashes. It costs a request next to nothing: no render, no proxy (proxy.ts leaves `/` alone but
 * for a shared link, which it sends to `/home-page`, rendered for its request).
 *
 * What proxy.ts does for every other page, this does for the home page:
 * - a request under another name of this server is sent to APP_URL (lib/server/app-address.ts);
 * - a browser without a session binding gets one before it posts any form, so that two tabs that
 *   start verifications at the same moment start under the same binding (lib/server/session.ts).
 *   Only its absence or expiry is looked at here (no seal is opened); POST /auth/start replaces
 *   one that does not open.
 *
 * A browser that accepts gzip (`acceptsGzip`) gets every answer here gzipped, the kept page as it
 * was compressed once: next.config.mjs has already given the response `Content-Encoding: gzip`
 * (lib/server/home-page.ts says why there).
 */
import type { NextRequest } from 'next/server';
import { appAddressRedirect, appPath, addressFacts } from '@/lib/server/app-address';
import { serverConfig, type ServerConfig } from '@/lib/server/env';
import { acceptsGzip, FRESH_MS, gzipped, HOME_PAGE_PATH, HomePages, ownOrigin, renderForRequest, sharedRenderer, type HomeVariant, type ServedPage } from '@/lib/server/home-page';
import { preferences } from '@/lib/server/preferences';
import { serviceHealth } from '@/lib/server/service-health';
import { newBindingCookie, sealExpiry, sessionCookie } from '@/lib/server/session';
import { serialize } from 'cookie';

let pages: HomePages | undefined;

/** The kept pages of this process, made at its first request (the configuration is known then, and does not change). */
function homePages(config: ServerConfig): HomePages {
  pages ??= new HomePages(
    sharedRenderer({ origin: ownOrigin(), host: new URL(config.appUrl).host, development: !config.production, https: config.secureCookies }),
    config.production ? FRESH_MS : 0,
  );
  return pages;
}

export async function GET(request: NextRequest): Promise<Response> {
  const encode = acceptsGzip(request.headers.get('accept-encoding'));
  const { pathname, search, searchParams } = request.nextUrl;
  const config = await serverConfig().catch(() => undefined);
  // A configuration that does not load: the page says what is wrong (app/error.tsx), rendered for this request.
  if (!config) return answer(renderedElsewhere(search), encode);

  const elsewhere = appAddressRedirect(`${pathname}${search}`, addressFacts(request.headers, config));
  if (elsewhere) return answer({ status: 307, headers: { location: `${config.appUrl}${appPath(`${pathname}${search}`)}`, 'cache-control': 'no-store' }, body: '' }, encode);

  const variant: HomeVariant = { ...(await preferences()), signedOut: searchParams.get('signed_out') === '1', health: JSON.stringify(await serviceHealth()) };
  const page = await homePages(config)
    .page(variant)
    .catch((error: unknown) => {
      console.error(`[idv] the home page did not render to be kept: ${String(error)}`);
      return undefined;
    });
  const served =
    page ??
    (await renderForRequest(variant, { origin: ownOrigin(), host: new URL(config.appUrl).host }).catch((error: unknown) => {
      console.error(`[idv] the home page could not be rendered here; the browser is sent to ${HOME_PAGE_PATH}: ${String(error)}`);
      return renderedElsewhere(search);
    }));
  const response = await answer(served, encode);

  const binding = request.cookies.get(sessionCookie(config.secureCookies).name)?.value;
  const expiry = binding ? sealExpiry(binding) : undefined;
  if (expiry === undefined || expiry <= Date.now()) {
    const cookie = await newBindingCookie();
    response.headers.append('set-cookie', serialize(cookie.name, cookie.value, cookie.options));
  }
  return response;
}

export const HEAD = GET;

/**
 * `page` as the response, gzipped when `encode` (next.config.mjs has then said `Content-Encoding:
 * gzip`): a kept page as it was compressed once, anything else (a page rendered for this request,
 * an empty redirect) now. Either way it varies with `Accept-Encoding`.
 */
async function answer(page: ServedPage, encode: boolean): Promise<Response> {
  const headers = { ...page.headers, vary: 'Accept-Encoding' };
  if (!encode) return new Response(page.body || null, { status: page.status, headers });
  return new Response(page.gzipped ?? (await gzipped(page.body)), { status: page.status, headers });
}

/**
 * The home page rendered for the browser's own request, at its other address: when this server
 * cannot ask itself for it (the configuration does not load, or its own address does not answer).
 */
function renderedElsewhere(search: string): ServedPage {
  return { status: 307, headers: { location: `${HOME_PAGE_PATH}${search}`, 'cache-control': 'no-store' }, body: '' };
}
