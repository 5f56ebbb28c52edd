import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION } from '@/lib/oidc';
import type { AppError } from './failures';
import { OWN_SELECTION_POLICY } from './policy';
import { findPreset } from './presets';
import { parseSelectionForm, parseStartForm } from './selection';

describe('parseSelectionForm', () => {
  it('treats an empty form as the default selection', () => {
    expect(parseSelectionForm(new URLSearchParams())).toBe(DEFAULT_SELECTION);
  });

  it('reads claims, essential flags, evidence and document details', () => {
    const form = new URLSearchParams(
      'trust_framework=standard&claim=given_name&claim=birthdate&essential=birthdate&evidence=document&document_detail=type&evidence=population_register&personal_number=14038712345',
    );
    expect(parseSelectionForm(form)).toEqual({
      trustFramework: 'standard',
      claims: { given_name: { essential: false }, birthdate: { essential: true } },
      document: { details: ['type'] },
      populationRegister: { personalNumber: '14038712345' },
    });
  });

  it('uses a preset’s selection when a preset button was pressed', () => {
    expect(parseSelectionForm(new URLSearchParams('claim=name&preset=etsi')).trustFramework).toBe('standard_etsi');
    expect(() => parseSelectionForm(new URLSearchParams('preset=nope'))).toThrow(expect.objectContaining({ code: 'invalid_selection' }));
  });

  it.each([
    ['an unknown claim', 'claim=shoe_size'],
    ['an unknown field', 'claim=name&colour=blue'],
    ['an unknown document detail', 'claim=name&evidence=document&document_detail=height'],
    ['a trust framework with odd characters', 'trust_framework=%3Cscript%3E&claim=name'],
    ['ETSI without names', 'trust_framework=standard_etsi&claim=birthdate'],
  ])('refuses %s with invalid_selection', (_name, body) => {
    expect(() => parseSelectionForm(new URLSearchParams(body))).toThrow(expect.objectContaining({ code: 'invalid_selection' }));
  });

  it('gives a preset’s result its policy, and a selection of one’s own the base rules', () => {
    expect(parseStartForm(new URLSearchParams('preset=age-and-name')).policy.rules).toContainEqual({ rule: 'minimum_age', years: 18 });
    expect(parseStartForm(new URLSearchParams('claim=name')).policy).toBe(OWN_SELECTION_POLICY);
    expect(parseStartForm(new URLSearchParams()).policy).toBe(OWN_SELECTION_POLICY);
    expect(() => parseStartForm(new URLSearchParams('claim=name&policy=lenient'))).toThrow(expect.objectContaining({ code: 'invalid_selection' }));
    // the preset's own selection keeps its policy; a changed one is judged as one's own
    const ageFields =
      'trust_framework=standard&claim=given_name&claim=family_name&claim=birthdate&essential=given_name&essential=family_name&essential=birthdate';
    expect(parseStartForm(new URLSearchParams(`${ageFields}&policy=age-and-name`)).policy).toBe(findPreset('age-and-name')!.policy);
    expect(parseStartForm(new URLSearchParams('trust_framework=standard&claim=given_name&policy=full-kyc')).policy).toBe(OWN_SELECTION_POLICY);
  });

  it.each([
    ['an unknown claim', 'claim=shoe_size', { kind: 'unknown_value', field: 'claim', value: { text: 'shoe_size' } }, '"shoe_size" is not a known claim'],
    [
      'an unknown claim of 100 characters',
      `claim=${'c'.repeat(100)}`,
      { kind: 'unknown_value', field: 'claim', value: { length: 100 } },
      'a value of 100 characters is not a known claim',
    ],
    [
      'an unknown claim to mark essential',
      'claim=name&essential=x',
      { kind: 'unknown_value', field: 'essential', value: { text: 'x' } },
      '"x" is not a known claim',
    ],
    [
      'an unknown evidence type',
      'claim=name&evidence=dna',
      { kind: 'unknown_value', field: 'evidence', value: { text: 'dna' } },
      '"dna" is not a known evidence type',
    ],
    [
      'an unknown document detail',
      'claim=name&evidence=document&document_detail=height',
      { kind: 'unknown_value', field: 'document_detail', value: { text: 'height' } },
      '"height" is not a known document detail',
    ],
    ['an unknown preset', 'preset=nope', { kind: 'unknown_value', field: 'preset', value: { text: 'nope' } }, '"nope" is not a known preset'],
    [
      'a trust framework with odd characters',
      'trust_framework=%3Cscript%3E&claim=name',
      { kind: 'unknown_value', field: 'trust_framework', value: { length: 8 } },
      'The trust framework is not a valid value',
    ],
    ['an unknown field', 'claim=name&colour=blue', { kind: 'unknown_field', name: { text: 'colour' } }, 'Unknown form field "colour"'],
    [
      'a personal number over 32 characters',
      `claim=name&evidence=population_register&personal_number=${'1'.repeat(33)}`,
      { kind: 'personal_number_too_long', max: 32 },
      'The personal number to look up is too long',
    ],
    [
      'ETSI without names',
      'trust_framework=standard_etsi&claim=birthdate',
      { kind: 'selection_problem', problem: 'etsi_requires_names' },
      'The standard_etsi trust framework requires given_name and family_name to be requested.',
    ],
    ['nothing requested', 'trust_framework=standard', { kind: 'selection_problem', problem: 'nothing_requested' }, expect.any(String)],
  ])('refuses %s with its detail as a code with values, never the value at length, and an English message for the log', (_name, body, detail, message) => {
    const refusal = (() => {
      try {
        parseSelectionForm(new URLSearchParams(body));
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toMatchObject({ code: 'invalid_selection', detail, message });
    expect(JSON.stringify((refusal as AppError).detail)).not.toContain('c'.repeat(41));
  });

  it('refuses a policy that names no preset with the detail of an unknown preset', () => {
    expect(() => parseStartForm(new URLSearchParams('claim=name&policy=lenient'))).toThrow(
      expect.objectContaining({ detail: { kind: 'unknown_value', field: 'preset', value: { text: 'lenient' } } }),
    );
  });

  it('sends a selection that breaks the service’s rules when QA asks for it', () => {
    const selection = parseSelectionForm(new URLSearchParams('trust_framework=standard_etsi&claim=birthdate&send_anyway=1'));
    expect(selection.trustFramework).toBe('standard_etsi');
  });

  it('carries the persona a preset suggests, and drops a persona field that is not shaped like an id or comes without a preset', () => {
    // a preset button pressed without JavaScript: the preset's own persona, whatever the field says
    expect(parseStartForm(new URLSearchParams('preset=age-and-name&persona=amira-nilsen')).persona).toBe('lars-eriksson');
    // the picker's hidden field beside the preset's policy
    const ageFields =
      'trust_framework=standard&claim=given_name&claim=family_name&claim=birthdate&essential=given_name&essential=family_name&essential=birthdate';
    expect(parseStartForm(new URLSearchParams(`${ageFields}&policy=age-and-name&persona=lars-eriksson`)).persona).toBe('lars-eriksson');
    for (const odd of ['', 'Lars Eriksson', '<script>', 'x'.repeat(41), 'lars-eriksson%0Aevil']) {
      expect(parseStartForm(new URLSearchParams({ claim: 'name', policy: 'full-kyc', persona: odd })).persona).toBeUndefined();
    }
    expect(parseStartForm(new URLSearchParams('claim=name&persona=lars-eriksson'))).not.toHaveProperty('persona');
  });
});
