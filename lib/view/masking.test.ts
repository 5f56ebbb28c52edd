import { describe, expect, it } from 'vitest';
import { maskPersonal, maskValuesInJson, personalValues, wantsNumbersRevealed } from './masking';

describe('the one masking rule for personal numbers', () => {
  it('keeps the last four characters', () => {
    expect(maskPersonal('01017012345')).toBe('•••••••2345');
    expect(maskPersonal('NP123')).toBe('•P123');
    expect(maskPersonal('123')).toBe('123');
  });

  it('finds national identity and document numbers anywhere in verified claims', () => {
    const payload = {
      sub: 'abc',
      verified_claims: {
        verification: {
          evidence: [
            { type: 'document', document_details: { document_number: 'NP1234567', personal_number: { type: 'no-fnr', value: '01017012346' } } },
            { type: 'electronic_record', record: { personal_number: '01017012345' } },
          ],
        },
        claims: { name: 'Ingrid' },
      },
    };
    expect([...personalValues(payload)].sort()).toEqual(['01017012345', '01017012346', 'NP1234567']);
  });

  it('masks each value as a JSON string, wherever it appears', () => {
    const text = JSON.stringify({ a: { personal_number: '01017012345' }, b: ['01017012345'], name: 'x01017012345' }, null, 2);
    const masked = maskValuesInJson(text, ['01017012345']);
    expect(masked).not.toContain('"01017012345"');
    expect(masked.match(/"•••••••2345"/g)).toHaveLength(2);
    // Only whole values: a longer string that contains it is another value.
    expect(masked).toContain('"x01017012345"');
  });

  it('reveals only on reveal=numbers', () => {
    expect(wantsNumbersRevealed(new URLSearchParams('reveal=numbers'))).toBe(true);
    expect(wantsNumbersRevealed(new URLSearchParams('reveal=1'))).toBe(false);
    expect(wantsNumbersRevealed({ reveal: ['numbers', 'numbers'] })).toBe(false);
    expect(wantsNumbersRevealed({})).toBe(false);
  });
});

describe('maskResultView', () => {
  it('masks the document number and both national identity numbers, and nothing else', async () => {
    const { buildResultView } = await import('./result-view');
    const { maskResultView } = await import('./masking');
    const verified = {
      trustFramework: 'standard',
      claims: { name: 'Ingrid Haugen' },
      evidence: [
        {
          type: 'document' as const,
          documentDetails: { type: 'passport', document_number: 'NP1234567', personal_number: { value: '01017012345', type: 'fnr' } },
        },
        { type: 'electronic_record' as const, record: { type: 'population_register', sourceName: 'Folkeregisteret', personalNumber: '01017012345' } },
      ],
    };
    const selection = {
      trustFramework: 'standard',
      claims: { name: { essential: true } },
      document: { details: ['document_number' as const, 'personal_number' as const, 'type' as const] },
      populationRegister: { personalNumber: '01017012345' },
    };
    const view = buildResultView([verified as never], selection, '2026-11-23', 'en');
    expect([view.document.number.state, view.document.personalNumber.state, view.populationRegister.personalNumber.state]).toEqual(['value', 'value', 'value']);
    const masked = maskResultView(view);
    expect(JSON.stringify(masked)).not.toContain('01017012345');
    expect(JSON.stringify(masked)).not.toContain('NP1234567');
    expect(masked.document.number).toMatchObject({ state: 'value', text: '•••••4567' });
    expect(masked.populationRegister.lookedUp).toBe('•••••••2345');
    expect(masked.identity).toEqual(view.identity);
  });
});
