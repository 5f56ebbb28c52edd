import { describe, expect, it } from 'vitest';
import { localeFromUiLocales, negotiateLocale } from './locale';

describe('negotiateLocale', () => {
  it.each([
    ['nb-NO,nb;q=0.9,en;q=0.8', 'nb'],
    ['en-US,en;q=0.9,nb;q=0.8', 'en'],
    ['no', 'nb'],
    ['nn-NO, en;q=0.5', 'nb'],
    ['de, nb;q=0.1, en;q=0.05', 'nb'],
    ['de, en;q=0.5, nb;q=0.4', 'en'],
    ['NB-no', 'nb'],
    ['*', 'en'],
  ])('answers %j with %s, in the browser’s order of preference', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });

  it.each([null, undefined, '', 'da, sv', ';;;q=x', 'nb;q=0'])('falls back to English for %j', (header) => {
    expect(negotiateLocale(header)).toBe('en');
  });
});

describe('localeFromUiLocales', () => {
  it('takes the first of ours from space-separated tags, in order', () => {
    expect(localeFromUiLocales('nb-NO en')).toBe('nb');
    expect(localeFromUiLocales('fr-CA en nb')).toBe('en');
    expect(localeFromUiLocales('no')).toBe('nb');
  });

  it('names none when none of the tags is ours, or there are none', () => {
    expect(localeFromUiLocales('fr de')).toBeUndefined();
    expect(localeFromUiLocales('')).toBeUndefined();
    expect(localeFromUiLocales(undefined)).toBeUndefined();
  });
});
