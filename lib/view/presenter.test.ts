import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type VerifiedClaims } from '@/lib/oidc';
import { replaceInJson } from './masking';
import { HIDDEN_DATE, initials, presentResultView, replaceInText } from './presenter';
import { buildResultView } from './result-view';
import { discloseTrace } from './disclosure';
import type { TraceEntryView } from './trace-view';

const verified: VerifiedClaims = {
  trustFramework: 'standard',
  evidence: [{ type: 'document', documentDetails: { document_number: 'FH1234567', personal_number: { type: 'no-fnr', value: '14038712345' } } }],
  claims: { name: 'Ingrid Solberg Haugen', given_name: 'Ingrid', family_name: 'Solberg Haugen', birthdate: '1987-03-14' },
};

describe('presenter mode', () => {
  it('reduces names to initials', () => {
    expect(initials('Ingrid Solberg Haugen')).toBe('I. S. H.');
    expect(initials(' anne-marie  Østby ')).toBe('A.-M. Ø.');
  });

  it('shows initials, hides the date of birth and the age, and masks every number of the result view', () => {
    const view = presentResultView(buildResultView([verified], DEFAULT_SELECTION, '2026-11-23', 'en'));
    expect(view.identity.name).toEqual({ state: 'value', text: 'I. S. H.' });
    expect(view.identity.familyName).toEqual({ state: 'value', text: 'S. H.' });
    expect(view.identity.birthdate).toEqual({ state: 'value', text: HIDDEN_DATE });
    expect(view.document.number).toEqual({ state: 'value', text: '•••••4567' });
    expect(view.document.personalNumber).toMatchObject({ text: '•••••••2345' });
  });

  it('hides names, birthdate and subject in the trace, and its numbers even when revealed', () => {
    const payload = JSON.stringify(
      { sub: 'subject-abc-123', verified_claims: { claims: verified.claims, evidence: [{ document_details: { personal_number: { value: '14038712345' } } }] } },
      null,
      2,
    );
    const trace: TraceEntryView[] = [
      {
        index: 1,
        step: 'id_token',
        expandable: true,
        title: 'ID token',
        at: '2026-11-23T10:00:00.000Z',
        sections: [{ label: 'payload', content: payload, personal: ['14038712345'] }],
      },
    ];
    const [entry] = discloseTrace(trace, { numbersRevealed: true, presenter: true }, { verifiedClaims: [verified], subject: 'subject-abc-123' });
    const content = entry!.sections[0]!.content;
    for (const hidden of ['Ingrid', 'Solberg Haugen', '1987-03-14', 'subject-abc-123', '14038712345']) expect(content).not.toContain(hidden);
    expect(content).toContain('"name": "I. S. H."');
    expect(content).toContain('"given_name": "I."');
    expect(content).toContain('•••••••2345');
    expect(discloseTrace(trace, { numbersRevealed: true, presenter: false })[0]!.sections[0]!.content).toContain('14038712345');
  });

  it('replaces the longer value first, so a full name is not half-replaced by its given name', () => {
    const replacements = new Map([
      ['Ingrid', 'I.'],
      ['Ingrid Haugen', 'I. H.'],
    ]);
    expect(replaceInJson('["Ingrid Haugen","Ingrid"]', replacements)).toBe('["I. H.","I."]');
    expect(replaceInText('sub present (Ingrid Haugen)', replacements)).toBe('sub present (I. H.)');
  });

  it('hides in the trace what the provider sent, also what the app did not parse or show, and nothing of the document’s issuer', () => {
    const payload = {
      sub: 'subject-abc-123',
      name: 'Ingrid Solberg Haugen',
      verified_claims: {
        claims: { given_name: 'Ingrid', birthdate: '1987-3-14', place_of_birth: { locality: 'Bergen' }, middle_name: 'Marie' },
        verification: { evidence: [{ document_details: { issuer: { name: 'Politiet' } } }] },
      },
    };
    const trace: TraceEntryView[] = [
      {
        index: 1,
        step: 'id_token',
        expandable: true,
        title: 'ID token',
        at: '2026-11-23T10:00:00.000Z',
        sections: [{ label: 'payload', content: JSON.stringify(payload, null, 2) }],
      },
    ];
    const content = discloseTrace(trace, { numbersRevealed: false, presenter: true }, { verifiedClaims: [], subject: 'subject-abc-123' })[0]!.sections[0]!
      .content;
    for (const hidden of ['Ingrid', 'Haugen', '1987-3-14', 'Bergen', 'Marie', 'subject-abc-123']) expect(content).not.toContain(hidden);
    expect(JSON.parse(content)).toMatchObject({
      name: 'I. S. H.',
      verified_claims: { claims: { given_name: 'I.', birthdate: HIDDEN_DATE, middle_name: 'M.' } },
    });
    expect(content).toContain('"name": "Politiet"');
  });
});
