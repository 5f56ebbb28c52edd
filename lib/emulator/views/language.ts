/**
 * The language of the emulator's pages (English or Norwegian bokmål, lib/i18n), chosen for each
 * request in this order:
 * 1. the reader's own choice, made with the switch every page shows and kept in a cookie
 *    (`idv_emulator_lang`, scoped to the emulator's base path, for a year);
 * 2. the `ui_locales` of the interaction's request object (OpenID Connect Core §3.1.2.1), which the
 *    relying party sends and the interaction keeps, so the app on a phone speaks it too;
 * 3. the browser's `Accept-Language` (RFC 9110 §12.5.4);
 * 4. English.
 *
 * The switch is a form posting `lang` and `return_to` (the page to come back to) to
 * {base}/language (endpoints/language.ts), so it works without JavaScript.
 * @see DECISIONS.md "Language of the pages"
 */
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { LOCALES, LOCALE_NAMES, isLocale, localeFromUiLocales, negotiateLocale, type Locale } from '../../i18n/locale';
import { ENDPOINT_PATHS } from '../config';
import { basePathOf, type EmulatorContext } from '../context';
import { html, type SafeHtml } from './html';
import { EMULATOR_MESSAGES } from './messages';
import { chooseTheme, type Theme } from './theme';

/** The cookie that keeps the reader's choice. */
export const LANGUAGE_COOKIE = 'idv_emulator_lang';

/** How long a choice is kept: a year. */
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** The longest return path accepted: the app's links with two secrets are a few hundred characters. */
const MAX_RETURN_PATH_LENGTH = 2048;

/** A page's language, and what its switch needs; and its theme, read from the same request (views/theme.ts). */
export interface PageLanguage {
  locale: Locale;
  /** light or dark, as the host app's theme cookie asks; absent: `system` (prefers-color-scheme) */
  theme?: Theme;
  /** the emulator's base path ("" at an origin's root): the switch posts under it */
  basePath: string;
  /** where the switch brings the reader back to: a path (and query) under the base path */
  returnTo: string;
}

/** What a handler learns about a request's language as it goes: the interaction's `ui_locales`, a better way back. */
export interface LanguageHints {
  uiLocales?: string;
  returnTo?: string;
}

/** The page language of a request: its cookie, else `uiLocales`, else its Accept-Language, else English. */
export function chooseLocale(request: Request, uiLocales?: string): Locale {
  const chosen = parseCookies(request.headers.get('cookie') ?? '')[LANGUAGE_COOKIE];
  if (isLocale(chosen)) return chosen;
  return localeFromUiLocales(uiLocales) ?? negotiateLocale(request.headers.get('accept-language'));
}

/**
 * The language of a page answering `request`. The switch comes back to `hints.returnTo`, else to
 * the request itself when it was a GET, else (a form post cannot be repeated) to its path.
 */
export function pageLanguage(request: Request, context: Pick<EmulatorContext, 'issuer'>, hints: LanguageHints = {}): PageLanguage {
  const basePath = basePathOf(context);
  const url = new URL(request.url);
  const method = request.method.toUpperCase();
  const own = method === 'GET' || method === 'HEAD' ? `${url.pathname}${url.search}` : url.pathname;
  const returnTo =
    (hints.returnTo === undefined ? undefined : checkReturnPath(hints.returnTo, basePath)) ?? checkReturnPath(own, basePath) ?? homePath(basePath);
  return { locale: chooseLocale(request, hints.uiLocales), theme: chooseTheme(request), basePath, returnTo };
}

/** The emulator's own page at its base path (the QA panel). */
export function homePath(basePath: string): string {
  return basePath === '' ? '/' : basePath;
}

/** The path and query of an absolute URL of the emulator, for a return path. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * `value` as a return path, normalised, or undefined when it is not one: it must be a path
 * (starting with one `/`, not `//` or `/\`, which browsers read as another host) that stays, once
 * `.` and `..` segments are resolved, at or under the base path. Any origin, scheme or fragment is
 * refused or dropped, so the redirect can only lead back into the emulator on the same site.
 */
export function checkReturnPath(value: string, basePath: string): string | undefined {
  if (value.length === 0 || value.length > MAX_RETURN_PATH_LENGTH) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u0020\u007f]/.test(value)) return undefined;
  const base = 'http://return-path.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (url.origin !== base || url.pathname.startsWith('//')) return undefined;
  if (basePath !== '' && url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)) return undefined;
  return `${url.pathname}${url.search}`;
}

/**
 * The Set-Cookie header value that keeps `locale`: scoped to the base path, for a year, sent on
 * the top-level navigation from a relying party (SameSite=Lax), never readable by script, and
 * Secure when every address of the emulator is https (a phone on plain http would refuse it).
 */
export function languageCookie(locale: Locale, context: Pick<EmulatorContext, 'issuer' | 'deviceBaseUrl' | 'flowBaseUrl'>): string {
  const secure = [context.issuer, context.deviceBaseUrl, context.flowBaseUrl].every((url) => new URL(url).protocol === 'https:');
  return serializeCookie(LANGUAGE_COOKIE, locale, {
    path: homePath(basePathOf(context)),
    maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS,
    sameSite: 'lax',
    httpOnly: true,
    secure,
  });
}

/**
 * The switch where a page has no header to hold it (the identity app's screens): in a landmark of
 * its own, so that all of the page's content is in one (axe's region rule).
 */
export function languageSwitchNav(language: PageLanguage): SafeHtml {
  return html`<nav class="language-nav" aria-label="${EMULATOR_MESSAGES[language.locale].language}">${languageSwitch(language)}</nav>`;
}

/**
 * The switch every page shows: one button per language, each named in itself and marked with its
 * own `lang`, the current one pressed; a plain form post, so it needs no JavaScript.
 */
export function languageSwitch(language: PageLanguage): SafeHtml {
  const t = EMULATOR_MESSAGES[language.locale];
  // The group is a div inside the form: ARIA in HTML allows a form no role but search (axe's aria-allowed-role).
  return html`<form class="language-switch-form" method="post" action="${language.basePath}${ENDPOINT_PATHS.language}">
<div class="language-switch" role="group" aria-label="${t.language}" data-testid="language-switch">
<input type="hidden" name="return_to" value="${language.returnTo}">
${LOCALES.map(
  (locale) =>
    html`<button type="submit" name="lang" value="${locale}" lang="${locale}" aria-pressed="${String(locale === language.locale)}">${LOCALE_NAMES[locale]}</button>`,
)}
</div>
</form>`;
}
