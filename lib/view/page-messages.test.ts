import { describe, expect, it } from 'vitest';
import { TRUST_FRAMEWORKS } from '@/lib/oidc';
import { PRESETS } from '@/lib/verification/presets';
import { readSelectionQuery } from '@/lib/verification/selection';
import { PAGE_MESSAGES } from './page-messages';

/** The request a link to the home page holds (lib/verification/selection.ts), as the page reads it. */
function read(link: string) {
  const params = new URLSearchParams(link.replace(/^\/\??/, ''));
  const query = Object.fromEntries([...new Set(params.keys())].map((name) => [name, params.getAll(name)]));
  return readSelectionQuery(query, { presets: PRESETS, trustFrameworks: [...TRUST_FRAMEWORKS] });
}

describe('the home page’s words for what a link left out', () => {
  it('says which part was not understood, in English and in bokmål', () => {
    const [part] = read('/?claim=birthdate&claim=x').unread;
    expect(PAGE_MESSAGES.en.home.unreadPart(part!)).toBe('“x” is not a known claim.');
    expect(PAGE_MESSAGES.nb.home.unreadPart(part!)).toBe('«x» er ikke en kjent opplysning.');
    expect(PAGE_MESSAGES.en.home.unreadPart({ reason: 'unknown', field: 'claim' })).toBe('A value is not a known claim.');
    expect(PAGE_MESSAGES.nb.home.unreadPart({ reason: 'unknown', field: 'document_detail' })).toBe('En verdi er ikke en kjent dokumentdetalj.');
    expect(PAGE_MESSAGES.en.home.unreadPart({ reason: 'not_offered', field: 'trust_framework', value: 'eidas' })).toBe(
      'The trust framework “eidas” is not one the service offers.',
    );
    expect(PAGE_MESSAGES.nb.home.unreadPart({ reason: 'not_offered', field: 'trust_framework', value: 'eidas' })).toBe(
      'Tillitsrammeverket «eidas» tilbys ikke av tjenesten.',
    );
    expect(PAGE_MESSAGES.en.home.moreUnread(3)).toBe('And 3 more.');
    expect(PAGE_MESSAGES.nb.home.moreUnread(3)).toBe('Og 3 til.');
  });

  it('says that only the readable part is ticked, or nothing, never that the default is shown', () => {
    for (const locale of ['en', 'nb'] as const) {
      const { linkPartlyRead, linkUnread } = PAGE_MESSAGES[locale].home;
      expect(`${linkPartlyRead} ${linkUnread}`).not.toMatch(/default|standardforespørsel/i);
    }
    expect(PAGE_MESSAGES.en.home.linkPartlyRead).toContain('only that part is ticked');
    expect(PAGE_MESSAGES.nb.home.linkUnread).toContain('ingenting er krysset av');
  });
});
