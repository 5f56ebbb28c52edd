import { describe, expect, it } from 'vitest';
import { countryName, formatDate, formatDateTime, formatList, formatTime, formatYears } from './format';

describe('formatting in the reader’s language', () => {
  it('writes a calendar date as written, whatever the time zone', () => {
    expect(formatDate('2030-05-01', 'en')).toBe('1 May 2030');
    expect(formatDate('2030-05-01', 'nb')).toBe('1. mai 2030');
    expect(formatDate('1999-12-31', 'nb')).toBe('31. desember 1999');
  });

  it('returns what is not a calendar date as it is', () => {
    expect(formatDate('2030-13-45', 'en')).toBe('2030-13-45');
    expect(formatDate('soon', 'nb')).toBe('soon');
  });

  it('writes an instant in UTC, with a 24-hour time', () => {
    expect(formatDateTime('2030-05-01T14:05:09Z', 'en')).toBe('1 May 2030 14:05 UTC');
    expect(formatDateTime('2030-05-01T23:30:00-02:00', 'nb')).toBe('2. mai 2030 kl. 01:30 UTC');
    expect(formatDateTime('yesterday', 'nb')).toBe('yesterday');
    expect(formatTime(Date.UTC(2030, 0, 1, 9, 7), 'en')).toBe('09:07');
  });

  it('counts years and lists items in each language', () => {
    expect(formatYears(34, 'en')).toBe('34 years');
    expect(formatYears(1, 'en')).toBe('1 year');
    expect(formatYears(34, 'nb')).toBe('34 år');
    expect(formatList(['A', 'B', 'C'], 'en')).toBe('A, B and C');
    expect(formatList(['A', 'B', 'C'], 'nb')).toBe('A, B og C');
  });

  it('names a country by its alpha-3 code, any of ISO 3166-1, and returns an unknown code as it is', () => {
    expect(countryName('NOR', 'en')).toBe('Norway');
    expect(countryName('NOR', 'nb')).toBe('Norge');
    expect(countryName('DEU', 'nb')).toBe('Tyskland');
    expect(countryName('BTN', 'en')).toBe('Bhutan');
    expect(countryName('XXA', 'nb')).toBe('XXA');
  });
});
