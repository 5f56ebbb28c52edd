/**
 * A shareable link to a request: the picker's selection in the home page's query, with the start
 * form's field names (lib/server/selection-form.ts), so that a link opens the same request.
 *
 * - An unchanged preset is `?preset=<id>`; the default selection is the bare home page.
 * - Never anything secret or personal: the personal number to look up in the register stays
 *   out (the link says only that the register is asked), and so does QA's "send anyway".
 * - A link that cannot be read wholly never widens the request: only its readable part is
 *   ticked, and the page says what was left out (`readSelectionQuery`).
 * Pure; the picker (in the browser) writes links, the home page (on the server) reads them.
 */
import { DEFAULT_SELECTION } from '@/lib/oidc/claims-request';
import { CLAIM_NAMES, DOCUMENT_DETAILS, type Selection } from '@/lib/oidc/types';
import type { Preset } from './presets';

/** The start form's fields for `selection`, in a fixed order, so that one selection makes one link. */
function fieldsOf(selection: Selection): URLSearchParams {
  const query = new URLSearchParams({ trust_framework: selection.trustFramework });
  for (const name of CLAIM_NAMES) if (selection.claims[name]) query.append('claim', name);
  for (const name of CLAIM_NAMES) if (selection.claims[name]?.essential) query.append('essential', name);
  if (selection.document) {
    query.append('evidence', 'document');
    for (const detail of DOCUMENT_DETAILS) if (selection.document.details.includes(detail)) query.append('document_detail', detail);
  }
  if (selection.populationRegister) query.append('evidence', 'population_register');
  return query;
}

const DEFAULT_FIELDS = fieldsOf(DEFAULT_SELECTION).toString();

/** The query of a link to `selection` (`preset`: the preset it is, unchanged); empty for the default. */
export function selectionQuery(selection: Selection, preset?: string): URLSearchParams {
  if (preset !== undefined) return new URLSearchParams({ preset });
  const fields = fieldsOf(selection);
  return fields.toString() === DEFAULT_FIELDS ? new URLSearchParams() : fields;
}

/** The path and query of a link to `selection` on the home page. */
export function selectionLink(selection: Selection, preset?: string): string {
  const query = selectionQuery(selection, preset).toString();
  return query ? `/?${query}` : '/';
}

/** The fields of a link to a request: the start form's, less what links never carry (the personal number, "send anyway", a policy). */
const LINK_FIELDS = ['preset', 'trust_framework', 'claim', 'essential', 'evidence', 'document_detail'] as const;
/** A field of a link to a request. */
export type LinkField = (typeof LINK_FIELDS)[number];

const EVIDENCE = ['document', 'population_register'] as const;
/** What the start form takes as a trust framework's name (lib/server/selection-form.ts). */
const TRUST_FRAMEWORK_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;
/**
 * A value of the link short and plain enough to repeat on the page (the rule error messages quote
 * a request's values by). Anyone can write a link, so "Your session expired. Call 555 0100" must
 * not appear on our page as if we had said it.
 */
const REPEATABLE_VALUE = /^[A-Za-z0-9_.:-]{1,40}$/;
/** At most this many parts that could not be read are named; the rest are counted. */
export const MAX_UNREAD_NAMED = 5;

/**
 * A part of a link that could not be read, as facts (the page words it in its language):
 * `unknown`, not a value the field takes; `not_offered`, a trust framework the service does not offer.
 */
export interface UnreadPart {
  reason: 'unknown' | 'not_offered';
  field: LinkField;
  /** the link's own value, only when it is short and plain enough to repeat (REPEATABLE_VALUE) */
  value?: string;
}

/** The request a link holds, as far as it could be read. */
export interface SelectionLinkRead {
  selection: Selection;
  /** the preset the link names, unchanged */
  preset?: string;
  /** the parts that could not be read, at most MAX_UNREAD_NAMED; empty when the whole link was read */
  unread: UnreadPart[];
  /** how many more parts could not be read than `unread` names */
  moreUnread: number;
}

/** What a link is read against: the presets it may name and the trust frameworks the service offers. */
export interface SelectionLinkContext {
  presets: readonly Preset[];
  trustFrameworks: readonly string[];
}

/**
 * Reads the request a link to the home page holds (its query, as Next.js hands it to the page).
 *
 * Never more than the link asked for: what cannot be read is left out, not replaced, so a link
 * read in part opens with only its readable part ticked (and one read in nothing, with nothing
 * ticked), and `unread` says what was left out. Falling back to the default selection would ask
 * the person for every claim and document detail because of one typo (data minimisation, GDPR
 * Article 5(1)(c), https://eur-lex.europa.eu/eli/reg/2016/679/oj). A trust framework that cannot
 * be read or is not offered becomes the default one (or the first offered): it names the rules
 * the service applies, not data asked for, and the picker can only show one it offers.
 *
 * Only the request's own fields are read: a personal number or "send anyway" (links never carry
 * them) and what sites add to shared links (utm_source, fbclid…) are ignored. A query with none of
 * the fields is the bare home page: the default selection.
 */
export function readSelectionQuery(query: Record<string, string | string[] | undefined>, { presets, trustFrameworks }: SelectionLinkContext): SelectionLinkRead {
  const valuesOf = (field: LinkField): string[] => [query[field] ?? []].flat();
  if (LINK_FIELDS.every((field) => valuesOf(field).length === 0)) return { selection: DEFAULT_SELECTION, unread: [], moreUnread: 0 };

  const unread: UnreadPart[] = [];
  const seen = new Set<string>();
  let moreUnread = 0;
  const leaveOut = (reason: UnreadPart['reason'], field: LinkField, value: string) => {
    const part: UnreadPart = { reason, field, ...(REPEATABLE_VALUE.test(value) ? { value } : {}) };
    // counted as shown: two values that cannot be repeated are one "a value is not a known claim"
    const key = JSON.stringify(part);
    if (seen.has(key)) return;
    seen.add(key);
    if (unread.length < MAX_UNREAD_NAMED) unread.push(part);
    else moreUnread += 1;
  };
  const known = <T extends string>(field: LinkField, allowed: readonly T[]): Set<T> => {
    const values = new Set<T>();
    for (const value of valuesOf(field)) {
      if ((allowed as readonly string[]).includes(value)) values.add(value as T);
      else leaveOut('unknown', field, value);
    }
    return values;
  };

  let selection: Selection;
  let preset: string | undefined;
  const presetId = valuesOf('preset')[0];
  const named = presetId === undefined ? undefined : presets.find((candidate) => candidate.id === presetId);
  if (named) {
    // as the start form does: a preset's selection, whatever else was sent
    selection = named.selection;
    preset = named.id;
  } else {
    if (presetId !== undefined) leaveOut('unknown', 'preset', presetId);
    const claims = known('claim', CLAIM_NAMES);
    const essential = known('essential', CLAIM_NAMES);
    const evidence = known('evidence', EVIDENCE);
    const details = known('document_detail', DOCUMENT_DETAILS);
    selection = {
      trustFramework: valuesOf('trust_framework')[0] ?? DEFAULT_SELECTION.trustFramework,
      claims: Object.fromEntries(CLAIM_NAMES.filter((name) => claims.has(name)).map((name) => [name, { essential: essential.has(name) }])),
      ...(evidence.has('document') ? { document: { details: DOCUMENT_DETAILS.filter((detail) => details.has(detail)) } } : {}),
      ...(evidence.has('population_register') ? { populationRegister: {} } : {}),
    };
  }

  const framework = selection.trustFramework;
  const readable = TRUST_FRAMEWORK_NAME.test(framework);
  if (!readable || !trustFrameworks.includes(framework)) {
    leaveOut(readable ? 'not_offered' : 'unknown', 'trust_framework', framework);
    const fallback = trustFrameworks.includes(DEFAULT_SELECTION.trustFramework) ? DEFAULT_SELECTION.trustFramework : (trustFrameworks[0] ?? DEFAULT_SELECTION.trustFramework);
    // no longer the preset: its policy goes only with its own selection
    selection = { ...selection, trustFramework: fallback };
    preset = undefined;
  }
  return { selection, ...(preset !== undefined ? { preset } : {}), unread, moreUnread };
}
