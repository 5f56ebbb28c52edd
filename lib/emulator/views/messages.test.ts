import { describe, expect, it } from 'vitest';
import { personas } from '../personas/personas';
import { APP_MESSAGES } from './app-messages';
import { AUTHORIZATION_MESSAGES } from './authorization-messages';
import { documentName, documentSummary } from './labels';
import { EMULATOR_MESSAGES, PERSONA_IDS } from './messages';
import { PANEL_MESSAGES } from './panel-messages';

describe('the emulator’s catalogs', () => {
  it('know every persona (PERSONA_IDS is personas.ts’s list), and English describes each as personas.ts does', () => {
    expect([...PERSONA_IDS]).toEqual(personas.map((persona) => persona.id));
    for (const persona of personas) {
      expect(EMULATOR_MESSAGES.en.personaDescriptions[persona.id as (typeof PERSONA_IDS)[number]]).toBe(persona.description);
      expect(EMULATOR_MESSAGES.nb.personaDescriptions[persona.id as (typeof PERSONA_IDS)[number]]).toMatch(/\S/);
    }
  });

  it('name every persona’s country, in both languages', () => {
    const codes = new Set(personas.flatMap((persona) => [persona.document.issuer.country_code, ...persona.claims.nationalities]));
    for (const code of codes) {
      expect(Object.keys(EMULATOR_MESSAGES.en.countryAdjectives)).toContain(code);
      expect(Object.keys(EMULATOR_MESSAGES.nb.countryAdjectives)).toContain(code);
    }
  });

  it('write documents as Digdir would: "norsk pass", "svensk ID-kort"; English as before', () => {
    const ingrid = personas.find((persona) => persona.id === 'ingrid-haugen')!;
    const lars = personas.find((persona) => persona.id === 'lars-eriksson')!;
    expect(documentName(ingrid, 'nb')).toBe('norsk pass FK4820713');
    expect(documentName(ingrid, 'en')).toBe('Norwegian passport FK4820713');
    expect(documentName(lars, 'nb')).toMatch(/^svensk (pass|ID-kort) /);
    expect(documentSummary(ingrid, 'en')).toBe('Norwegian passport FK4820713, expires 10 June 2031');
    expect(documentSummary(ingrid, 'nb')).toBe('Norsk pass FK4820713, utløper 10. juni 2031');
  });

  it('keep English and Norwegian apart: no Norwegian string is left in English', () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : value && typeof value === 'object' && !Array.isArray(value)
          ? Object.values(value).flatMap(strings)
          : Array.isArray(value)
            ? value.flatMap(strings)
            : [];
    for (const catalogs of [EMULATOR_MESSAGES, AUTHORIZATION_MESSAGES, APP_MESSAGES, PANEL_MESSAGES] as Array<Record<'en' | 'nb', unknown>>) {
      const english = new Set(strings(catalogs.en));
      // Brand and protocol names are the same in both; every sentence differs.
      const same = strings(catalogs.nb).filter((text) => english.has(text) && /\s/.test(text) && !/^(ID Check|IDV)/.test(text));
      expect(same).toEqual([]);
    }
  });
});
