import { describe, expect, it } from 'vitest';
import { DEFAULT_SELECTION, type VerifiedClaims } from '@/lib/oidc';
import { disclosureFor, discloseResultView, discloseVerification, portraitDisclosure } from './disclosure';
import { buildResultView, type VerificationView } from './result-view';

const verified: VerifiedClaims = {
  trustFramework: 'standard',
  evidence: [{ type: 'document', documentDetails: { document_number: 'FH1234567' } }],
  claims: { name: 'Ingrid Haugen', birthdate: '1987-03-14' },
};
const view = buildResultView([verified], DEFAULT_SELECTION, '2026-11-24', 'en');

describe('the disclosure rule', () => {
  it('reveals the numbers only when asked and never in presenter mode', () => {
    expect(disclosureFor({ presenter: false, query: {} })).toEqual({ numbersRevealed: false, presenter: false });
    expect(disclosureFor({ presenter: false, query: { reveal: 'numbers' } })).toEqual({ numbersRevealed: true, presenter: false });
    expect(disclosureFor({ presenter: false, query: new URLSearchParams('reveal=all') })).toEqual({ numbersRevealed: false, presenter: false });
    expect(disclosureFor({ presenter: true, query: { reveal: 'numbers' } })).toEqual({ numbersRevealed: false, presenter: true });
  });

  it('shows the cards masked, revealed or presented, and the portrait blurred only in presenter mode', () => {
    expect(discloseResultView(view, { numbersRevealed: false, presenter: false }).document.number).toEqual({ state: 'value', text: '•••••4567' });
    expect(discloseResultView(view, { numbersRevealed: true, presenter: false }).document.number).toEqual({ state: 'value', text: 'FH1234567' });
    const presented = discloseResultView(view, { numbersRevealed: true, presenter: true });
    expect(presented.document.number).toEqual({ state: 'value', text: '•••••4567' });
    expect(presented.identity.name).toEqual({ state: 'value', text: 'I. H.' });
    expect(portraitDisclosure({ numbersRevealed: false, presenter: false })).toBe('original');
    expect(portraitDisclosure({ numbersRevealed: false, presenter: true })).toBe('blurred');
  });

  it('masks the subject in presenter mode only', () => {
    const verification = { subject: { state: 'value', text: 'subject-abc-123' } } as VerificationView;
    expect(discloseVerification(verification, { numbersRevealed: false, presenter: false }).subject).toEqual({ state: 'value', text: 'subject-abc-123' });
    expect(discloseVerification(verification, { numbersRevealed: false, presenter: true }).subject).toEqual({ state: 'value', text: '•••••••••••-123' });
  });
});
