import 'server-only';
/**
 * The browser's display preferences, each remembered in a cookie of its own for a year: presenter
 * mode (lib/view/presenter.ts), the theme (system, light or dark: app/globals.css) and the
 * language (lib/i18n: until one is chosen, the best of ours for the browser's Accept-Language). Not secrets and not personal data: plain cookies, HttpOnly all
 * the same (no script reads them; the server renders what they ask for). Set by POST
 * /preferences, read by every page.
 */
import { cookies, headers } from 'next/headers';
import { isLocale, negotiateLocale, type Locale } from '@/lib/i18n/locale';
import { AppError, quoteInput, sentValue } from '@/lib/verification/failures';

export const PRESENTER_COOKIE = 'idv_presenter';
export const THEME_COOKIE = 'idv_theme';
export const LANGUAGE_COOKIE = 'idv_lang';
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export interface Preferences {
  presenter: boolean;
  /** `system` follows prefers-color-scheme */
  theme: Theme;
  /** chosen with the switch, else negotiated from Accept-Language */
  locale: Locale;
}

/** The preferences of the browser making this request. */
export async function preferences(): Promise<Preferences> {
  const store = await cookies();
  const theme = store.get(THEME_COOKIE)?.value;
  const chosen = store.get(LANGUAGE_COOKIE)?.value;
  return {
    presenter: store.get(PRESENTER_COOKIE)?.value === 'on',
    theme: (THEMES as readonly string[]).includes(theme ?? '') ? (theme as Theme) : 'system',
    locale: isLocale(chosen) ? chosen : negotiateLocale((await headers()).get('accept-language')),
  };
}

/** A change of preferences, from the switches' forms: `presenter` = `on` | `off`; `theme` = `system` | `light` | `dark`; `lang` = `en` | `nb`. */
export function parsePreferenceForm(form: URLSearchParams): Partial<Preferences> {
  const change: Partial<Preferences> = {};
  for (const name of new Set(form.keys())) {
    const value = form.get(name);
    if (name === 'presenter' && (value === 'on' || value === 'off')) change.presenter = value === 'on';
    else if (name === 'theme' && (THEMES as readonly (string | null)[]).includes(value)) change.theme = value as Theme;
    else if (name === 'lang' && isLocale(value)) change.locale = value;
    else
      throw new AppError('invalid_preference', `${quoteInput(name)} = ${quoteInput(value ?? '')} is not a preference this app knows`, {
        kind: 'unknown_preference',
        name: sentValue(name),
        value: sentValue(value ?? ''),
      });
  }
  return change;
}

/** The cookies that remember `change`, for a response's Set-Cookie. */
export function preferenceCookies(
  change: Partial<Preferences>,
  secure: boolean,
): { name: string; value: string; options: { httpOnly: true; sameSite: 'lax'; secure: boolean; path: '/'; maxAge: number } }[] {
  const options = { httpOnly: true as const, sameSite: 'lax' as const, secure, path: '/' as const, maxAge: ONE_YEAR_SECONDS };
  return [
    ...(change.presenter === undefined ? [] : [{ name: PRESENTER_COOKIE, value: change.presenter ? 'on' : 'off', options }]),
    ...(change.theme === undefined ? [] : [{ name: THEME_COOKIE, value: change.theme, options }]),
    ...(change.locale === undefined ? [] : [{ name: LANGUAGE_COOKIE, value: change.locale, options }]),
  ];
}

/**
 * Where to send the browser back after a change: the page it came from (its Referer, same origin
 * only, path and query), else the home page.
 */
export function returnPath(referer: string | null, appUrl: string): string {
  if (!referer) return '/';
  try {
    const { origin } = new URL(appUrl);
    const url = new URL(referer);
    if (url.origin !== origin) return '/';
    // The path alone, checked again once resolved: `//other.example/` is a path of ours that
    // would resolve to another site.
    const path = `${url.pathname}${url.search}`;
    return new URL(path, appUrl).origin === origin ? path : '/';
  } catch {
    return '/';
  }
}
