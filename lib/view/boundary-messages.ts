/**
 * The words of the error boundaries (app/error.tsx, app/global-error.tsx), in each language
 * (lib/i18n). A client components' catalog: both languages travel to the browser, so it holds the
 * boundaries' own words only, and it imports nothing but types.
 *
 * A boundary is a client component and cannot read the language cookie (it is HttpOnly), so it
 * takes the language the page was rendered in, `<html lang>`, which the layout sets from the
 * cookie or Accept-Language; failing that, the browser's languages (`navigator.languages`).
 */
import type { Locale } from '@/lib/i18n/locale';

const en = {
  title: 'Something went wrong',
  errorCode: 'Error code',
  /** before the digest, the server log's reference of the error */
  reference: 'reference',
  backToStart: 'Back to the start',
};

export type BoundaryMessages = typeof en;

const nb: BoundaryMessages = {
  title: 'Noe gikk galt',
  errorCode: 'Feilkode',
  reference: 'referanse',
  backToStart: 'Tilbake til start',
};

export const BOUNDARY_MESSAGES: Record<Locale, BoundaryMessages> = { en, nb };

/**
 * Ours for each primary language subtag, as lib/i18n/locale.ts answers Accept-Language (`no` and
 * `nn` read bokmål). Repeated here, as a boundary must not bring the negotiator to the browser.
 */
const ANSWERS: Record<string, Locale> = { en: 'en', nb: 'nb', no: 'nb', nn: 'nb' };

/**
 * The first of `tags` (BCP 47, in order of preference: `<html lang>`, then the browser's
 * languages) that names one of ours, else English. Empty and unknown tags are passed over.
 */
export function boundaryLocale(tags: readonly (string | null | undefined)[]): Locale {
  for (const tag of tags) {
    const language = tag?.split('-')[0]!.toLowerCase();
    if (language && Object.hasOwn(ANSWERS, language)) return ANSWERS[language]!;
  }
  return 'en';
}
