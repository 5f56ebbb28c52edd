/**
 * Ready-made selections for demos and QA. Each names the persona that shows it best.
 */
import { DEFAULT_SELECTION } from '@/lib/oidc/claims-request';
import { DOCUMENT_DETAILS, type Selection } from '@/lib/oidc/types';
import { basePolicy, type AssurancePolicy } from './assurance';

export interface Preset {
  id: string;
  label: string;
  description: string;
  /** a persona of the embedded emulator that fits the preset */
  persona: string;
  selection: Selection;
  /** the rules its result is judged by (lib/view/assurance.ts) */
  policy: AssurancePolicy;
}

export const PRESETS: readonly Preset[] = [
  {
    id: 'age-and-name',
    label: 'Age and name',
    description: 'Name and date of birth only: enough for an age check.',
    persona: 'lars-eriksson',
    selection: {
      trustFramework: 'standard',
      claims: { given_name: { essential: true }, family_name: { essential: true }, birthdate: { essential: true } },
    },
    policy: basePolicy('Age check: 18 or older', [{ rule: 'minimum_age', years: 18 }]),
  },
  {
    id: 'full-kyc',
    label: 'Full KYC with document',
    description: 'Every identity claim with the portrait, and every document detail.',
    persona: 'ingrid-haugen',
    selection: DEFAULT_SELECTION,
    policy: basePolicy('Full KYC'),
  },
  {
    id: 'etsi',
    label: 'ETSI',
    description: 'standard_etsi: names are required and the issuer check must be valid (Norwegian documents).',
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
    policy: basePolicy('ETSI'),
  },
  {
    id: 'population-register',
    label: 'Population register',
    description: 'Name and date of birth, confirmed by a match in the Norwegian population register.',
    persona: 'amira-nilsen',
    selection: {
      trustFramework: 'standard',
      claims: { name: { essential: true }, birthdate: { essential: true } },
      // the expiry date too, so that the verdict can tell the card is valid
      document: { details: ['type', 'date_of_expiry', 'personal_number'] },
      populationRegister: {},
    },
    policy: basePolicy('Population register match'),
  },
];

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((preset) => preset.id === id);
}
