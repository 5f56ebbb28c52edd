/**
 * The languages the app and the emulator's pages speak, and how one is chosen for a request.
 * Shared by both (like lib/store): it knows nothing of either. Protocol codes and claim names are
 * never translated; only the words around them are.
 */
import Negotiator from 'negotiator';

export const LOCALES = ['en', 'nb'] as const;
/** `en` English, `nb` Norwegian bokmål */
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language named in itself, for a switch between them. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', nb: 'Norsk' };

/** The BCP 47 tag Intl formats with: British English writes "1 May 2030", as the app always has. */
export const INTL_TAGS: Record<Locale, string> = { en: 'en-GB', nb: 'nb-NO' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Languages a browser may ask for, and ours that answers each. `no` is Norwegian without a written
 * standard, and a reader of nynorsk reads bokmål (CLDR's language matching puts nn next to nb).
 */
const ANSWERS: Record<string, Locale> = { en: 'en', nb: 'nb', no: 'nb', nn: 'nb' };
const ASKABLE = Object.keys(ANSWERS);

/**
 * Our language for an `Accept-Language` header (RFC 9110 §12.5.4): the first of ours in the
 * browser's order of preference (`nb-NO`, `no` and `nn` all mean Norwegian), else English. A
 * header that cannot be read is treated as absent.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE;
  const best = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(ASKABLE);
  return (best ? ANSWERS[best.toLowerCase()] : undefined) ?? DEFAULT_LOCALE;
}

/**
 * Our language for an OpenID Connect `ui_locales` value (Core §3.1.2.1: BCP 47 tags separated by
 * spaces, in order of preference), or undefined when it names none of ours.
 */
export function localeFromUiLocales(value: string | null | undefined): Locale | undefined {
  for (const tag of (value ?? '').split(' ')) {
    const answer = ANSWERS[tag.split('-')[0]!.toLowerCase()];
    if (answer) return answer;
  }
  return undefined;
}
