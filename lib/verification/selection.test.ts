import { describe, expect, it } from 'vitest';
import { CLAIM_NAMES, DEFAULT_SELECTION, DOCUMENT_DETAILS, TRUST_FRAMEWORKS, type Selection } from '@/lib/oidc';
import { PRESETS } from './presets';
import { MAX_UNREAD_NAMED, readSelectionQuery, selectionLink, selectionQuery, tickClaim } from './selection';

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

/** The query of `link` as Next.js hands it to the page: repeated names as arrays. */
function queryOf(link: string): Record<string, string[]> {
  const params = new URLSearchParams(link.replace(/^\/\??/, ''));
  return Object.fromEntries([...new Set(params.keys())].map((name) => [name, params.getAll(name)]));
}

const offered = { presets: PRESETS, trustFrameworks: [...TRUST_FRAMEWORKS] };
const read = (link: string, context = offered) => readSelectionQuery(queryOf(link), context);
const NOTHING: Selection = { trustFramework: 'standard', claims: {} };

/** Whether `selection` asks for nothing that `link` did not ask for, evidence and details included. */
function withinLink(selection: Selection, link: string): boolean {
  const query = new URLSearchParams(link.replace(/^\/\??/, ''));
  const asked = (field: string, value: string) => query.getAll(field).includes(value);
  return (
    Object.entries(selection.claims).every(([name, requested]) => asked('claim', name) && (!requested.essential || asked('essential', name))) &&
    (!selection.document || (asked('evidence', 'document') && selection.document.details.every((detail) => asked('document_detail', detail)))) &&
    (!selection.populationRegister || asked('evidence', 'population_register'))
  );
}

describe('readSelectionQuery (the home page’s query)', () => {
  it('opens the request a link to the picker holds: the same selection, or the same preset, with nothing left out', () => {
    const selection: Selection = {
      trustFramework: 'standard_etsi',
      claims: { given_name: { essential: true }, family_name: { essential: true }, nationalities: { essential: false } },
      document: { details: ['type', 'issuer_check'] },
      populationRegister: {},
    };
    expect(read(selectionLink(selection))).toEqual({ selection, unread: [], moreUnread: 0 });
    for (const preset of PRESETS)
      expect(read(selectionLink(preset.selection, preset.id))).toEqual({ selection: preset.selection, preset: preset.id, unread: [], moreUnread: 0 });
    expect(readSelectionQuery({ preset: 'etsi' }, offered).preset).toBe('etsi');
  });

  it('opens the default selection for the bare home page, whatever sites add to shared links', () => {
    expect(read('/')).toEqual({ selection: DEFAULT_SELECTION, unread: [], moreUnread: 0 });
    expect(readSelectionQuery({ signed_out: '1', utm_source: 'slack', fbclid: 'x' }, offered)).toEqual({
      selection: DEFAULT_SELECTION,
      unread: [],
      moreUnread: 0,
    });
    expect(read('/?preset=etsi&utm_source=slack')).toMatchObject({ preset: 'etsi', unread: [] });
  });

  it('shows a request the service will refuse (the picker says so) and never reads a personal number or "send anyway" from a link', () => {
    expect(read('/?trust_framework=standard_etsi&claim=birthdate')).toEqual({
      selection: { trustFramework: 'standard_etsi', claims: { birthdate: { essential: false } } },
      unread: [],
      moreUnread: 0,
    });
    const register = read('/?claim=name&evidence=population_register&personal_number=14038712345&send_anyway=1&policy=etsi');
    expect(register.selection.populationRegister).toEqual({});
    expect(register.unread).toEqual([]);
  });

  it('opens a link it can read only in part with only that part ticked, and names the rest: /?claim=birthdate&claim=x', () => {
    expect(read('/?claim=birthdate&claim=x')).toEqual({
      selection: { trustFramework: 'standard', claims: { birthdate: { essential: false } } },
      unread: [{ reason: 'unknown', field: 'claim', value: 'x' }],
      moreUnread: 0,
    });
  });

  it('opens a link it cannot read at all with nothing ticked, never the default selection', () => {
    expect(read('/?claim=shoe_size')).toEqual({ selection: NOTHING, unread: [{ reason: 'unknown', field: 'claim', value: 'shoe_size' }], moreUnread: 0 });
    expect(read('/?preset=nope')).toEqual({ selection: NOTHING, unread: [{ reason: 'unknown', field: 'preset', value: 'nope' }], moreUnread: 0 });
    expect(read('/?evidence=passport&document_detail=type')).toEqual({
      selection: NOTHING,
      unread: [{ reason: 'unknown', field: 'evidence', value: 'passport' }],
      moreUnread: 0,
    });
  });

  it.each([
    ['an unknown claim', '/?claim=name&claim=shoe_size&essential=name'],
    ['an unknown essential flag', '/?claim=name&claim=birthdate&essential=birthdate&essential=shoe_size'],
    ['an unknown kind of evidence', '/?claim=name&evidence=document&evidence=passport&document_detail=type'],
    ['an unknown document detail', '/?claim=name&evidence=document&document_detail=type&document_detail=height'],
    ['an unknown preset next to fields', '/?preset=nope&claim=name&evidence=population_register'],
    ['a trust framework with odd characters', '/?trust_framework=%3Cscript%3E&claim=name&evidence=document&document_detail=date_of_expiry'],
    ['a trust framework the service does not offer', '/?trust_framework=eidas&claim=name&claim=birthdate&essential=birthdate'],
  ])('never asks for more than a link with %s asked for, and names what it left out', (_name, link) => {
    const { selection, unread } = read(link);
    expect(withinLink(selection, link)).toBe(true);
    expect(selection.claims.name).toBeDefined();
    expect(unread).toHaveLength(1);
  });

  it('keeps the readable claims, essential flags, evidence and details of a link', () => {
    expect(
      read(
        '/?claim=name&claim=birthdate&essential=birthdate&essential=shoe_size&evidence=document&evidence=population_register&document_detail=height&document_detail=date_of_expiry',
      ).selection,
    ).toEqual({
      trustFramework: 'standard',
      claims: { name: { essential: false }, birthdate: { essential: true } },
      document: { details: ['date_of_expiry'] },
      populationRegister: {},
    });
  });

  it('puts a trust framework the service offers in place of one it cannot read or the service does not offer, and drops the preset', () => {
    expect(read('/?trust_framework=eidas&claim=name')).toEqual({
      selection: { trustFramework: 'standard', claims: { name: { essential: false } } },
      unread: [{ reason: 'not_offered', field: 'trust_framework', value: 'eidas' }],
      moreUnread: 0,
    });
    expect(read('/?trust_framework=%3Cscript%3E&claim=name').unread).toEqual([{ reason: 'unknown', field: 'trust_framework' }]);
    // a preset whose framework is not offered keeps its selection, never the (wider) default one, but not its policy
    const etsi = PRESETS.find((preset) => preset.id === 'etsi')!;
    expect(read('/?preset=etsi', { presets: PRESETS, trustFrameworks: ['standard'] })).toEqual({
      selection: { ...etsi.selection, trustFramework: 'standard' },
      unread: [{ reason: 'not_offered', field: 'trust_framework', value: 'standard_etsi' }],
      moreUnread: 0,
    });
    expect(read('/?claim=name', { presets: PRESETS, trustFrameworks: ['standard_etsi'] }).selection.trustFramework).toBe('standard_etsi');
  });

  it('writes a link to what it read that reads back the same, so a reload never widens it', () => {
    const partly = read('/?claim=birthdate&claim=x').selection;
    expect(selectionLink(partly)).toBe('/?trust_framework=standard&claim=birthdate');
    expect(read(selectionLink(partly))).toEqual({ selection: partly, unread: [], moreUnread: 0 });
    // nothing ticked is a link of its own, not the bare home page (the default selection)
    expect(selectionLink(NOTHING)).toBe('/?trust_framework=standard');
    expect(read(selectionLink(NOTHING))).toEqual({ selection: NOTHING, unread: [], moreUnread: 0 });
  });

  it('repeats only short, plain values of the link, since anyone can write one', () => {
    expect(read('/?claim=Your%20session%20expired.%20Call%20555%200100').unread).toEqual([{ reason: 'unknown', field: 'claim' }]);
    expect(read(`/?claim=${'a'.repeat(41)}`).unread).toEqual([{ reason: 'unknown', field: 'claim' }]);
    expect(read(`/?claim=${'a'.repeat(40)}`).unread).toEqual([{ reason: 'unknown', field: 'claim', value: 'a'.repeat(40) }]);
    expect(read('/?claim=%3Cb%3Ex%3C%2Fb%3E').unread).toEqual([{ reason: 'unknown', field: 'claim' }]);
  });

  it('names at most a few parts it left out, once each, and counts the rest', () => {
    const unknown = Array.from({ length: 20 }, (_, index) => `claim=c${index}`).join('&');
    const many = read(`/?claim=birthdate&${unknown}&${unknown}&claim=a%20b&claim=c%20d`);
    expect(many.unread).toHaveLength(MAX_UNREAD_NAMED);
    expect(many.unread[0]).toEqual({ reason: 'unknown', field: 'claim', value: 'c0' });
    // 20 distinct names and one "a value" for the two that cannot be repeated
    expect(many.moreUnread).toBe(21 - MAX_UNREAD_NAMED);
    expect(many.selection.claims).toEqual({ birthdate: { essential: false } });
  });

  it('reads every claim and document detail there is, and only those', () => {
    const everything = `/?${CLAIM_NAMES.map((name) => `claim=${name}`).join('&')}&evidence=document&${DOCUMENT_DETAILS.map((detail) => `document_detail=${detail}`).join('&')}`;
    expect(read(everything)).toMatchObject({
      selection: { claims: Object.fromEntries(CLAIM_NAMES.map((name) => [name, { essential: false }])), document: { details: [...DOCUMENT_DETAILS] } },
      unread: [],
    });
  });
});

describe('tickClaim (the picker’s claim boxes)', () => {
  const selection: Selection = { trustFramework: 'standard', claims: { birthdate: { essential: true }, gender: { essential: false } } };

  it('keeps an essential claim’s choice while it is unticked, and gives it back when ticked again', () => {
    const unticked = tickClaim(selection, 'birthdate', false, {});
    expect(unticked.selection.claims).toEqual({ gender: { essential: false } });
    expect(unticked.kept).toEqual({ birthdate: true });
    const ticked = tickClaim(unticked.selection, 'birthdate', true, unticked.kept);
    expect(ticked.selection.claims.birthdate).toEqual({ essential: true });
  });

  it('keeps "not essential" too, and ticks a claim never ticked as not essential', () => {
    const unticked = tickClaim(selection, 'gender', false, { gender: true });
    expect(unticked.kept.gender).toBe(false);
    expect(tickClaim(unticked.selection, 'gender', true, unticked.kept).selection.claims.gender).toEqual({ essential: false });
    expect(tickClaim(selection, 'nationalities', true, {}).selection.claims.nationalities).toEqual({ essential: false });
  });

  it('leaves a ticked claim’s own choice alone, and its inputs as they were', () => {
    const before = structuredClone(selection);
    expect(tickClaim(selection, 'birthdate', true, { birthdate: false }).selection.claims.birthdate).toEqual({ essential: true });
    tickClaim(selection, 'birthdate', false, {});
    expect(selection).toEqual(before);
  });
});
