import { describe, expect, it } from 'vitest';
import { localeFromUiLocales } from '@/lib/i18n/locale';
import { BOUNDARY_MESSAGES, boundaryLocale } from './boundary-messages';

describe('the error boundaries’ language', () => {
  it.each([
    [['nb'], 'nb'],
    [['en', 'nb'], 'en'],
    [['', 'nb-NO', 'en-GB'], 'nb'],
    [[undefined, 'de-DE', 'nn-NO'], 'nb'],
    [['no'], 'nb'],
    [['de', 'fr'], 'en'],
    [['constructor', 'toString'], 'en'],
    [[], 'en'],
  ] as const)('is the first of %j that is ours, else English: %s', (tags, locale) => {
    expect(boundaryLocale(tags)).toBe(locale);
  });

  it('answers a language as the server does (lib/i18n/locale.ts)', () => {
    for (const tags of [['nb-NO'], ['nn'], ['no', 'en'], ['en-US', 'nb'], ['sv', 'da', 'no'], ['EN-gb']]) {
      expect(boundaryLocale(tags)).toBe(localeFromUiLocales(tags.join(' ')));
    }
  });

  it('has every word in Norwegian, none a copy of the English', () => {
    for (const [key, english] of Object.entries(BOUNDARY_MESSAGES.en)) {
      expect(BOUNDARY_MESSAGES.nb[key as keyof typeof BOUNDARY_MESSAGES.en], key).not.toBe(english);
    }
    expect(BOUNDARY_MESSAGES.nb.title).toBe('Noe gikk galt');
  });
});
