/**
 * Dates, times, ages and country names in a reader's language, all by Intl (Node and browsers carry
 * the CLDR data). Dates are the spec's `YYYY-MM-DD` calendar dates and are formatted as written,
 * never moved by a time zone; times are shown in UTC, named as such.
 */
import countries from 'i18n-iso-countries';
import { INTL_TAGS, type Locale } from './locale';

/** Formatters are costly to build and cheap to reuse. */
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.DisplayNames>(key: string, build: () => T): T {
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) {
    formatter = build();
    cache.set(key, formatter);
  }
  return formatter;
}

const dateFormat = (locale: Locale) =>
  cached(`date:${locale}`, () => new Intl.DateTimeFormat(INTL_TAGS[locale], { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }));

/** `2030-05-01` → "1 May 2030" | "1. mai 2030"; anything else is returned as it is. */
export function formatDate(iso: string, locale: Locale): string {
  const date = new Date(`${iso}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) && !Number.isNaN(date.getTime()) ? dateFormat(locale).format(date) : iso;
}

/** Between a date and its time of day: Norwegian writes "kl." (Språkrådet). */
const AT: Record<Locale, string> = { en: ' ', nb: ' kl. ' };

/** An instant → "1 May 2030 14:05 UTC" | "1. mai 2030 kl. 14:05 UTC"; an unreadable one is returned as it is. */
export function formatDateTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${formatDate(date.toISOString().slice(0, 10), locale)}${AT[locale]}${formatTime(date.getTime(), locale)} UTC`;
}

/** The time of day in UTC, "14:05" (both languages write 24-hour times). */
export function formatTime(epochMs: number, locale: Locale): string {
  return cached(
    `time:${locale}`,
    () => new Intl.DateTimeFormat(INTL_TAGS[locale], { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }),
  ).format(epochMs);
}

/** A number of years: "34 years" | "34 år" (and "1 year" | "1 år"). */
export function formatYears(years: number, locale: Locale): string {
  return cached(`years:${locale}`, () => new Intl.NumberFormat(INTL_TAGS[locale], { style: 'unit', unit: 'year', unitDisplay: 'long' })).format(years);
}

/** A list: "A, B and C" | "A, B og C". */
export function formatList(items: readonly string[], locale: Locale): string {
  return new Intl.ListFormat(INTL_TAGS[locale], { type: 'conjunction' }).format(items);
}

/**
 * The name of the country with an ISO 3166-1 alpha-3 code (the service's codes, 2.3), "Norway" |
 * "Norge"; a code that names no country is returned as it is.
 */
export function countryName(alpha3: string, locale: Locale): string {
  const alpha2 = countries.alpha3ToAlpha2(alpha3.toUpperCase());
  if (!alpha2) return alpha3;
  return cached(`region:${locale}`, () => new Intl.DisplayNames([INTL_TAGS[locale]], { type: 'region', fallback: 'code' })).of(alpha2) ?? alpha3;
}
