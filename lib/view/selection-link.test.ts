import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type Selection } from '@/lib/oidc';
import { PRESETS } from './presets';
import { selectionLink, selectionQuery } from './selection-link';

describe('selectionLink', () => {
  it('is the bare home page for the default selection, and ?preset= for an unchanged preset', () => {
    expect(selectionLink(DEFAULT_SELECTION)).toBe('/');
    expect(selectionLink(structuredClone(DEFAULT_SELECTION))).toBe('/');
    expect(selectionLink(PRESETS[2]!.selection, PRESETS[2]!.id)).toBe(`/?preset=${PRESETS[2]!.id}`);
  });

  it('writes a selection with the start form’s field names, in one order whatever the order of the choices', () => {
    const selection: Selection = {
      trustFramework: 'standard',
      claims: { birthdate: { essential: true }, given_name: { essential: false } },
      document: { details: ['date_of_expiry', 'type'] },
      populationRegister: {},
    };
    expect(selectionLink(selection)).toBe(
      '/?trust_framework=standard&claim=given_name&claim=birthdate&essential=birthdate&evidence=document&document_detail=type&document_detail=date_of_expiry&evidence=population_register',
    );
  });

  it('never carries the personal number to look up in the register', () => {
    const query = selectionQuery({ trustFramework: 'standard', claims: { name: { essential: true } }, populationRegister: { personalNumber: '14038712345' } });
    expect(query.toString()).not.toContain('14038712345');
    expect(query.getAll('evidence')).toEqual(['population_register']);
  });
});
