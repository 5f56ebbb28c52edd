/**
 * POST {base}/language: the language switch every page of the emulator shows (views/language.ts).
 * It keeps the choice in a cookie scoped to the emulator's base path for a year and answers 303
 * to the page the form came from (`return_to`), which must be a path under the base path: never
 * another origin or `//host`, so the switch cannot be used as an open redirect.
 *
 * Like the QA panel's forms, posts from other sites are refused (403): a present `Origin` must be
 * one of the emulator's own origins (the issuer, the phone's address, the flow URL), and a present
 * `Sec-Fetch-Site` must be `same-origin`. The authorization page and the identity app send
 * `Referrer-Policy: no-referrer` (their URLs carry secrets), with which browsers send `Origin:
 * null` on their form posts; such a post is accepted only when `Sec-Fetch-Site: same-origin` says
 * it came from the emulator's own page.
 * @see DECISIONS.md "Language of the pages"; OpenID Connect Core §3.1.2.1 (ui_locales)
 */
import { LOCALES, isLocale } from '../../i18n/locale';
import { readFormBody, type RequestParameters } from '../checks/request-parameters';
import { basePathOf, type EmulatorContext } from '../context';
import { OAuthError, describeValue } from '../errors';
import { desktopPage } from '../views/authorization-page';
import { AUTHORIZATION_MESSAGES, type AuthorizationMessages } from '../views/authorization-messages';
import { html } from '../views/html';
import { checkReturnPath, homePath, languageCookie, pageLanguage } from '../views/language';

/** The switch's form is two short fields. */
const MAX_LANGUAGE_FORM_BYTES = 4 * 1024;

type Message = (t: AuthorizationMessages) => string;

/**
 * Handles POST {base}/language with `lang` (`en` or `nb`) and `return_to` (a path under the base
 * path): Set-Cookie and 303 to the return path. Cross-site post: 403 page; anything malformed
 * (no or an unknown language, a return path that leads elsewhere, a bad body): 400 page.
 */
export async function languageEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const basePath = basePathOf(context);
  const crossSite = crossSiteReason(request, context);
  if (crossSite) return refused(request, context, 403, crossSite);

  let parameters: RequestParameters;
  try {
    parameters = await readFormBody(request, MAX_LANGUAGE_FORM_BYTES);
  } catch (error) {
    if (error instanceof OAuthError && error.status < 500) return refused(request, context, error.status, (t) => t.unreadableForm(error.description));
    throw error;
  }

  const rawReturn = parameters.get('return_to');
  const returnTo = rawReturn === undefined ? undefined : checkReturnPath(rawReturn, basePath);
  const lang = parameters.get('lang');
  if (!isLocale(lang)) {
    return refused(request, context, 400, (t) => t.unknownLanguage(lang === undefined ? undefined : describeValue(lang), LOCALES.join(', ')), returnTo);
  }
  if (returnTo === undefined) {
    return refused(request, context, 400, (t) => t.badReturnPath(rawReturn === undefined ? undefined : describeValue(rawReturn), basePath));
  }
  return new Response(null, {
    status: 303,
    headers: {
      Location: returnTo,
      'Set-Cookie': languageCookie(lang, context),
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}

/**
 * Why a post must be refused as cross-site, or undefined for one from the emulator's own pages
 * (or from no browser at all: curl sends neither header).
 */
export function crossSiteReason(request: Request, context: EmulatorContext): Message | undefined {
  const origin = request.headers.get('origin');
  const site = request.headers.get('sec-fetch-site');
  const own = [context.issuer, context.deviceBaseUrl, context.flowBaseUrl].map((url) => new URL(url).origin);
  // `Origin: null` from our own no-referrer pages: only with the browser's word that it is same-origin.
  const ownNoReferrerPage = origin === 'null' && site === 'same-origin';
  if (origin !== null && !own.includes(origin) && !ownNoReferrerPage) {
    return (t) => t.crossSiteOrigin(describeValue(origin), [...new Set(own)].join(', '));
  }
  if (site !== null && site !== 'same-origin') return (t) => t.crossSiteFetch(describeValue(site));
  return undefined;
}

/** The page for a refused switch: why, in the reader's current language, and the way back when there is one. */
function refused(request: Request, context: EmulatorContext, status: number, message: Message, returnTo?: string): Response {
  const language = pageLanguage(request, context, { returnTo: returnTo ?? homePath(basePathOf(context)) });
  const t = AUTHORIZATION_MESSAGES[language.locale];
  const body = html`
<section class="card error-card">
<h1>${t.languageErrorHeading}</h1>
<p class="alert" role="alert" data-testid="language-error">${message(t)}</p>
${returnTo ? html`<p><a href="${returnTo}">${t.back}</a></p>` : ''}
</section>`;
  return desktopPage(context, language, { status, title: t.languageErrorTitle, body });
}
