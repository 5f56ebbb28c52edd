import 'server-only';
/** How route handlers answer: 303 See Other after a state change, and failures to /error. */
import { isStoreError, type StoreError } from '@/lib/store/store';
import type { Locale } from '@/lib/i18n/locale';
import { explainFailure, type FailureCode } from '@/lib/view/failure-explanations';
import { FAILURE_MESSAGES } from '@/lib/view/failure-messages';
import { PAGE_MESSAGES } from '@/lib/view/page-messages';
import { serverConfig } from './env';
import { isRateLimited, type RateLimited } from './rate-limits';
import { failureCodeOf, recordFailure } from './verification';

export function redirect303(location: string | URL): Response {
  return new Response(null, { status: 303, headers: { location: location.toString(), 'cache-control': 'no-store' } });
}

/** 303 to a page of this app (`path` with its query, resolved against APP_URL). */
export async function redirectToPage(path: string): Promise<Response> {
  return redirect303(new URL(path, (await serverConfig()).appUrl));
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * A store that cannot take new work (full, or unreachable) answers 503 with `Retry-After` and a
 * page of its own: the failure page could not be recorded, and nothing was lost.
 */
export function storeRefusal(error: StoreError, locale: Locale): Response {
  return refusalPage(error.code, 503, error.retryAfterSeconds, locale);
}

/** A start over a rate limit: 429 with `Retry-After`, and nothing stored for it. */
export function rateLimitRefusal(error: RateLimited, locale: Locale): Response {
  return refusalPage('rate_limited', 429, error.retryAfterSeconds, locale);
}

/** A request refused before any work: the failure page's content, with its status and `Retry-After`. */
function refusalPage(code: FailureCode, status: number, retryAfterSeconds: number, locale: Locale): Response {
  const explanation = explainFailure(code, locale);
  const t = FAILURE_MESSAGES[locale];
  const page = `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(PAGE_MESSAGES[locale].titleTemplate.replace('%s', explanation.title))}</title>
<style>
body { margin: 0; background: #f8fafc; color: #0f172a; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 40rem; margin: 4rem auto; padding: 2rem; background: #fff; border: 1px solid #fecaca; border-radius: 1rem; }
.eyebrow { margin: 0; font-size: .85rem; font-weight: 600; letter-spacing: .05em; text-transform: uppercase; color: #b91c1c; }
code { font: .95em ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 600; color: #991b1b; }
a { display: inline-block; margin-top: 1rem; padding: .6rem 1.2rem; border-radius: .5rem; background: #4338ca; color: #fff; font-weight: 600; text-decoration: none; }
</style>
</head>
<body>
<main>
<p class="eyebrow">${escapeHtml(t.notStarted)}</p>
<h1>${escapeHtml(explanation.title)}</h1>
<p>${escapeHtml(explanation.sentence)}</p>
<p>${escapeHtml(t.errorCode)} <code data-testid="error-code">${escapeHtml(code)}</code></p>
<p><strong>${escapeHtml(t.whatToTry)}</strong> ${escapeHtml(explanation.next)}</p>
<a href="/">${escapeHtml(t.backToStart)}</a>
</main>
</body>
</html>
`;
  return new Response(page, {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'retry-after': String(retryAfterSeconds), 'cache-control': 'no-store' },
  });
}

/**
 * Records the failure (within the failure records' limits, for a browser with a binding: see
 * failure-records.ts) and sends the browser to the failure page, which shows its code (the 503
 * and 429 pages in `locale`, the reader's language). A store refusal is answered at once (503);
 * a failure that is not recorded (no binding, over the limits, the failure records' store
 * refuses, or its trace cannot be presented) still reaches the failure page with its code,
 * without the record's detail and trace.
 */
export async function failureRedirect(error: unknown, request: Request, locale: Locale): Promise<Response> {
  if (isStoreError(error)) return storeRefusal(error, locale);
  if (isRateLimited(error)) return rateLimitRefusal(error, locale);
  try {
    const { appUrl } = await serverConfig();
    const url = new URL('/error', appUrl);
    try {
      const failure = await recordFailure(error, request.headers);
      url.searchParams.set('code', failure.code);
      if (failure.id !== undefined) url.searchParams.set('id', failure.id);
    } catch (recordError) {
      // The failure still reaches its page with its code, only without the record's detail.
      if (!isStoreError(recordError)) console.error('[idv] cannot record a failure', recordError);
      url.searchParams.set('code', failureCodeOf(error));
    }
    return redirect303(url);
  } catch (configError) {
    // The configuration itself is broken: there is no app URL to send anyone to.
    console.error('[idv] cannot record a failure', configError);
    return new Response('The app is misconfigured; see the server log.', { status: 500 });
  }
}
