import { describe, expect, it } from 'vitest';
import { LOCALES } from '@/lib/i18n/locale';
import { FAILURE_CODES } from '@/lib/verification/failures';
import { explainFailure, FAILURE_MESSAGES, type FailureCode } from './failure-explanations';

const CODES = Object.keys(FAILURE_MESSAGES.en.codes) as FailureCode[];
const FIELDS = ['title', 'sentence', 'next'] as const;

/** What is never translated: `commands`, VARIABLE_NAMES, algorithms and protocol names, quoted values. */
function untranslated(text: string): string[] {
  const kept = text.match(/`[^`]+`|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b(?:RSA-OAEP-256|A256GCM|ES256|PAR|PKCE|Redis)\b/g) ?? [];
  const quoted = [...text.matchAll(/[“«]([^”»]+)[”»]/g)].map((match) => match[1]!);
  return [...kept, ...quoted].sort();
}

describe('failure explanations in English and Norwegian', () => {
  it('explain every code in both languages, the Norwegian in words of its own', () => {
    expect(CODES.length).toBeGreaterThan(50);
    expect([...CODES].sort()).toEqual([...FAILURE_CODES].sort());
    expect(Object.keys(FAILURE_MESSAGES.nb.codes).sort()).toEqual([...CODES].sort());
    for (const code of CODES) {
      for (const field of FIELDS) {
        const [english, norwegian] = LOCALES.map((locale) => explainFailure(code, locale)[field]);
        expect(norwegian, `${code}.${field}`).toBeTruthy();
        expect(norwegian, `${code}.${field} is a copy of the English`).not.toBe(english);
      }
    }
  });

  it('keep codes, variables, commands and quoted values as written', () => {
    for (const code of CODES) {
      for (const field of FIELDS) {
        expect(untranslated(explainFailure(code, 'nb')[field]), `${code}.${field}`).toEqual(
          expect.arrayContaining(untranslated(explainFailure(code, 'en')[field])),
        );
      }
    }
  });

  it('read right in Norwegian for representative codes', () => {
    expect(explainFailure('access_denied', 'nb')).toMatchObject({
      title: 'Tjenesten avviste verifiseringen',
      next: 'Start på nytt og fullfør stegene i appen.',
    });
    expect(explainFailure('invalid_grant', 'nb').next).toBe('Start en ny verifisering.');
    expect(explainFailure('invalid_client', 'nb')).toMatchObject({
      title: 'Klientautentiseringen mislyktes',
      next: 'Kontroller IDV_CLIENT_ID, og at den offentlige nøkkelen fra `npm run keys` er registrert hos tjenesten.',
    });
    expect(explainFailure('unauthorized_client', 'nb').sentence).toContain('dokumentasjon fra folkeregisteret');
    expect(explainFailure('store_unavailable', 'nb').title).toBe('Tilstandslageret er utilgjengelig');
    expect(explainFailure('temporarily_unavailable', 'nb').sentence).toBe('Identitetstjenesten er midlertidig utilgjengelig.');
  });

  it('keep the English as it was', () => {
    expect(explainFailure('internal_error', 'en').next).toBe('Start a new verification.');
    expect(explainFailure('access_denied', 'en').next).toBe('Start again and complete the steps in the app.');
  });

  it('title access_denied as a refusal, not a cancellation: a failed face check answers it too, and its description says so', () => {
    for (const locale of LOCALES) {
      const { title, sentence } = explainFailure('access_denied', locale);
      expect(title).not.toMatch(/cancel|avbrutt/i);
      expect(sentence).toContain('access_denied');
    }
    expect(explainFailure('access_denied', 'en').title).toBe('The service refused the verification');
  });

  it('give the pages’ own words in both languages, never a copy', () => {
    const words = (locale: 'en' | 'nb') => {
      const {
        failed,
        notStarted,
        errorCode,
        serviceAnswered,
        detail,
        whatToTry,
        backToStart,
        tryAgain,
        expected,
        received,
        armedOnPanel,
        chosenForFlow,
        noFault,
        notFound,
      } = FAILURE_MESSAGES[locale];
      const counted = { fromFault: FAILURE_MESSAGES[locale].fromFault(1), compared: FAILURE_MESSAGES[locale].compared('iss') };
      return {
        failed,
        notStarted,
        errorCode,
        serviceAnswered,
        detail,
        whatToTry,
        backToStart,
        tryAgain,
        expected,
        received,
        armedOnPanel,
        chosenForFlow,
        noFault,
        ...counted,
        ...notFound,
      };
    };
    const norwegian = words('nb');
    for (const [key, english] of Object.entries(words('en'))) {
      expect(norwegian[key as keyof typeof norwegian], key).toBeTruthy();
      expect(norwegian[key as keyof typeof norwegian], key).not.toBe(english);
    }
    expect(FAILURE_MESSAGES.nb.notFound.title).toBe('Fant ikke siden');
    expect(FAILURE_MESSAGES.nb.failed).toBe('Verifiseringen mislyktes');
  });
});
