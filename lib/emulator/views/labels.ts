/**
 * The words the emulator's pages use for the spec's names: claims, document details, countries
 * and document types, in the page's language (views/messages.ts). One place, so the
 * authorization page, the identity app and the QA panel say the same.
 * @see spec 2.3
 */
import { countryName as intlCountryName } from '../../i18n/format';
import type { Locale } from '../../i18n/locale';
import type { Persona } from '../personas/personas';
import { EMULATOR_MESSAGES } from './messages';

/** The name of a country (ISO 3166-1 alpha-3) in the page's language, by Intl: "Norway" | "Norge". */
export function countryName(code: string, locale: Locale): string {
  return intlCountryName(code, locale);
}

/** "Norwegian" | "norsk"; the code itself for a country no persona has. */
export function countryAdjective(code: string, locale: Locale): string {
  const adjectives: Readonly<Record<string, string>> = EMULATOR_MESSAGES[locale].countryAdjectives;
  return Object.hasOwn(adjectives, code) ? adjectives[code]! : code;
}

/** In a sentence: "passport" | "pass". */
export function documentTypeName(type: Persona['document']['type'], locale: Locale): string {
  return EMULATOR_MESSAGES[locale].documentType[type];
}

/** In a sentence: "Norwegian passport FK4820713" | "norsk pass FK4820713". */
export function documentName(persona: Persona, locale: Locale): string {
  const { document } = persona;
  return `${countryAdjective(document.issuer.country_code, locale)} ${documentTypeName(document.type, locale)} ${document.document_number}`;
}

/** On a line of its own: "Norwegian passport FK4820713, expires 10 June 2031" | "Norsk pass FK4820713, utløper 10. juni 2031". */
export function documentSummary(persona: Persona, locale: Locale): string {
  return capitalize(EMULATOR_MESSAGES[locale].documentSummary(documentName(persona, locale), persona.document.date_of_expiry));
}

/** The first letter in upper case, for a phrase that starts a line ("norsk pass" → "Norsk pass"). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether the persona's document has expired on the emulator's clock (ms). */
export function documentExpired(persona: Persona, now: number): boolean {
  return persona.document.date_of_expiry < new Date(now).toISOString().slice(0, 10);
}

/** The persona's one line for a picker, in the page's language. */
export function personaDescription(persona: Persona, locale: Locale): string {
  const descriptions: Readonly<Record<string, string>> = EMULATOR_MESSAGES[locale].personaDescriptions;
  return Object.hasOwn(descriptions, persona.id) ? descriptions[persona.id]! : persona.description;
}
