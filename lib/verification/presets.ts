/**
 * Ready-made selections for demos and QA. Each names the persona that shows it best.
 */
import { DEFAULT_SELECTION } from '@/lib/oidc/claims-request';
import { DOCUMENT_DETAILS, type Selection } from '@/lib/oidc/types';
import type { Locale } from '@/lib/i18n/locale';
import { basePolicy, type AssurancePolicy } from './policy';

export interface Preset {
  id: string;
  label: Record<Locale, string>;
  description: Record<Locale, string>;
  /** a persona of the embedded emulator that fits the preset */
  persona: string;
  selection: Selection;
  /** the rules its result is judged by (policy.ts) */
  policy: AssurancePolicy;
}

export const PRESETS: readonly Preset[] = [
  {
    id: 'age-and-name',
    label: { en: 'Age and name', nb: 'Alder og navn' },
    description: { en: 'Name and date of birth only: enough for an age check.', nb: 'Bare navn og fødselsdato: nok til en alderskontroll.' },
    persona: 'lars-eriksson',
    selection: {
      trustFramework: 'standard',
      claims: { given_name: { essential: true }, family_name: { essential: true }, birthdate: { essential: true } },
    },
    policy: basePolicy({ en: 'Age check: 18 or older', nb: 'Alderskontroll: 18 år eller eldre' }, [{ rule: 'minimum_age', years: 18 }]),
  },
  {
    id: 'full-kyc',
    label: { en: 'Full KYC with document', nb: 'Full kundekontroll med dokument' },
    description: {
      en: 'Every identity claim with the portrait, and every document detail.',
      nb: 'Alle identitetsopplysninger med portrett, og alle detaljer om dokumentet.',
    },
    persona: 'ingrid-haugen',
    selection: DEFAULT_SELECTION,
    policy: basePolicy({ en: 'Full KYC', nb: 'Full kundekontroll' }),
  },
  {
    id: 'etsi',
    label: { en: 'ETSI', nb: 'ETSI' },
    description: {
      en: 'standard_etsi: names are required and the issuer check must be valid (Norwegian documents).',
      nb: 'standard_etsi: navn er påkrevd, og utstederkontrollen må være gyldig (norske dokumenter).',
    },
    persona: 'ingrid-haugen',
    selection: {
      trustFramework: 'standard_etsi',
      claims: {
        given_name: { essential: true },
        family_name: { essential: true },
        birthdate: { essential: true },
        nationalities: { essential: false },
        picture: { essential: false },
      },
      document: { details: [...DOCUMENT_DETAILS] },
    },
    policy: basePolicy({ en: 'ETSI', nb: 'ETSI' }),
  },
  {
    id: 'population-register',
    label: { en: 'Population register', nb: 'Folkeregisteret' },
    description: {
      en: 'Name and date of birth, confirmed by a match in the Norwegian population register.',
      nb: 'Navn og fødselsdato, bekreftet av et treff i Folkeregisteret.',
    },
    persona: 'amira-nilsen',
    selection: {
      trustFramework: 'standard',
      claims: { name: { essential: true }, birthdate: { essential: true } },
      // the expiry date too, so that the verdict can tell the card is valid
      document: { details: ['type', 'date_of_expiry', 'personal_number'] },
      populationRegister: {},
    },
    policy: basePolicy({ en: 'Population register match', nb: 'Treff i folkeregisteret' }),
  },
];

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((preset) => preset.id === id);
}
