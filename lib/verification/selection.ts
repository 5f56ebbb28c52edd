/**
 * A selection (what a verification asks for) as the start form and the home page's links carry
 * it: the form's field names, which the picker's inputs use; the encoder (a link, and the
 * comparison of two selections); the decoder of the start form (POST /auth/start) and the reader
 * of a link.
 *
 * The form: `trust_framework`; `claim` (repeated claim names); `essential` (repeated claim
 * names); `evidence` (repeated: `document`, `population_register`); `document_detail`
 * (repeated); `personal_number`; `send_anyway` (QA: send even when the service's rules say no);
 * `preset` (a preset's id: its selection and its policy, whatever else was sent, so that preset
 * buttons work without JavaScript); `policy` (a preset's id: its policy for the selection sent,
 * which the picker adds while a preset's selection is unchanged); `persona` (the id of the test
 * persona a preset suggests, which the picker adds with `policy` in emulator mode: a hint for the
 * embedded emulator, never part of the selection). An empty form is the default selection, so a
 * bare `<form method="post">` works without JavaScript.
 *
 * A link (the home page's query):
 * - An unchanged preset is `?preset=<id>`; the default selection is the bare home page.
 * - Never anything secret or personal: the personal number to look up in the register stays
 *   out (the link says only that the register is asked), and so does QA's "send anyway".
 * - A link that cannot be read wholly never widens the request: only its readable part is
 *   ticked, and the page says what was left out (`readSelectionQuery`).
 * Pure: the picker (in the browser) writes links, the home page (on the server) reads them, the
 * start route decodes the form.
 */
import { DEFAULT_SELECTION, SELECTION_PROBLEM_TEXT, selectionProblemCodes } from '@/lib/oidc/claims-request';
import { CLAIM_NAMES, DOCUMENT_DETAILS, type ClaimName, type DocumentDetail, type Selection } from '@/lib/oidc/types';
import { AppError, PLAIN_TOKEN, quoteInput, sentValue, type AppErrorDetail, type ListedField } from './failures';
import { OWN_SELECTION_POLICY, type AssurancePolicy } from './policy';
import { findPreset, type Preset } from './presets';

/** The start form's field names (the picker's inputs are named by these). */
export const FIELD = {
  trustFramework: 'trust_framework',
  claim: 'claim',
  essential: 'essential',
  evidence: 'evidence',
  documentDetail: 'document_detail',
  personalNumber: 'personal_number',
  sendAnyway: 'send_anyway',
  preset: 'preset',
  policy: 'policy',
  persona: 'persona',
} as const;

/** What the start form takes as a persona's id; anything else is dropped, never forwarded. */
const PERSONA_ID = /^[a-z0-9-]{1,40}$/;

/** The values of the `evidence` field. */
export const EVIDENCE = { document: 'document', populationRegister: 'population_register' } as const;
const EVIDENCE_VALUES = [EVIDENCE.document, EVIDENCE.populationRegister] as const;

/** The value of `send_anyway` that sends a selection the service's rules refuse. */
export const SEND_ANYWAY_VALUE = '1';

/** What the start form takes as a trust framework's name. */
const TRUST_FRAMEWORK_NAME = /^[A-Za-z0-9_.:-]{1,64}$/;

/** The start form's fields for `selection`, in a fixed order, so that one selection makes one link. */
function fieldsOf(selection: Selection): URLSearchParams {
  const query = new URLSearchParams({ [FIELD.trustFramework]: selection.trustFramework });
  for (const name of CLAIM_NAMES) if (selection.claims[name]) query.append(FIELD.claim, name);
  for (const name of CLAIM_NAMES) if (selection.claims[name]?.essential) query.append(FIELD.essential, name);
  if (selection.document) {
    query.append(FIELD.evidence, EVIDENCE.document);
    for (const detail of DOCUMENT_DETAILS) if (selection.document.details.includes(detail)) query.append(FIELD.documentDetail, detail);
  }
  if (selection.populationRegister) query.append(FIELD.evidence, EVIDENCE.populationRegister);
  return query;
}

const DEFAULT_FIELDS = fieldsOf(DEFAULT_SELECTION).toString();

/** The query of a link to `selection` (`preset`: the preset it is, unchanged); empty for the default. */
export function selectionQuery(selection: Selection, preset?: string): URLSearchParams {
  if (preset !== undefined) return new URLSearchParams({ preset });
  const fields = fieldsOf(selection);
  return fields.toString() === DEFAULT_FIELDS ? new URLSearchParams() : fields;
}

/**
 * Whether two selections ask for the same (the personal number to look up aside): a preset's
 * policy goes only with its own selection.
 */
export function sameSelection(a: Selection, b: Selection): boolean {
  return fieldsOf(a).toString() === fieldsOf(b).toString();
}

/** The path and query of a link to `selection` on the home page. */
export function selectionLink(selection: Selection, preset?: string): string {
  const query = selectionQuery(selection, preset).toString();
  return query ? `/?${query}` : '/';
}

/** Each unticked claim's "essential" choice as it was when it was unticked (the picker keeps them). */
export type EssentialWhenUnticked = Partial<Record<ClaimName, boolean>>;

/**
 * Ticks or unticks claim `name` of `selection`: unticked, its "essential" choice is kept in
 * `kept`; ticked again, it comes back as it was (not essential, for a claim never ticked). Both
 * returned new, the inputs left as they were.
 */
export function tickClaim(
  selection: Selection,
  name: ClaimName,
  on: boolean,
  kept: EssentialWhenUnticked,
): { selection: Selection; kept: EssentialWhenUnticked } {
  const claims = { ...selection.claims };
  const requested = claims[name];
  if (!on) {
    delete claims[name];
    return { selection: { ...selection, claims }, kept: requested ? { ...kept, [name]: requested.essential } : kept };
  }
  claims[name] = requested ?? { essential: kept[name] ?? false };
  return { selection: { ...selection, claims }, kept };
}

/** The fields of a link to a request: the start form's, less what links never carry (the personal number, "send anyway", a policy). */
const LINK_FIELDS = [
  FIELD.preset,
  FIELD.trustFramework,
  FIELD.claim,
  FIELD.essential,
  FIELD.evidence,
  FIELD.documentDetail,
] as const satisfies readonly ListedField[];
/** A field of a link to a request. */
export type LinkField = (typeof LINK_FIELDS)[number];

/** At most this many parts that could not be read are named; the rest are counted. */
export const MAX_UNREAD_NAMED = 5;

/**
 * A part of a link that could not be read, as facts (the page words it in its language):
 * `unknown`, not a value the field takes; `not_offered`, a trust framework the service does not offer.
 */
export interface UnreadPart {
  reason: 'unknown' | 'not_offered';
  field: LinkField;
  /**
   * the link's own value, only when it is short and plain enough to repeat (PLAIN_TOKEN, the rule
   * error messages quote a request's values by): anyone can write a link, so "Your session
   * expired. Call 555 0100" must not appear on our page as if we had said it
   */
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
export function readSelectionQuery(
  query: Record<string, string | string[] | undefined>,
  { presets, trustFrameworks }: SelectionLinkContext,
): SelectionLinkRead {
  const valuesOf = (field: LinkField): string[] => [query[field] ?? []].flat();
  if (LINK_FIELDS.every((field) => valuesOf(field).length === 0)) return { selection: DEFAULT_SELECTION, unread: [], moreUnread: 0 };

  const unread: UnreadPart[] = [];
  const seen = new Set<string>();
  let moreUnread = 0;
  const leaveOut = (reason: UnreadPart['reason'], field: LinkField, value: string) => {
    const part: UnreadPart = { reason, field, ...(PLAIN_TOKEN.test(value) ? { value } : {}) };
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
  const presetId = valuesOf(FIELD.preset)[0];
  const named = presetId === undefined ? undefined : presets.find((candidate) => candidate.id === presetId);
  if (named) {
    // as the start form does: a preset's selection, whatever else was sent
    selection = named.selection;
    preset = named.id;
  } else {
    if (presetId !== undefined) leaveOut('unknown', FIELD.preset, presetId);
    const claims = known(FIELD.claim, CLAIM_NAMES);
    const essential = known(FIELD.essential, CLAIM_NAMES);
    const evidence = known(FIELD.evidence, EVIDENCE_VALUES);
    const details = known(FIELD.documentDetail, DOCUMENT_DETAILS);
    selection = {
      trustFramework: valuesOf(FIELD.trustFramework)[0] ?? DEFAULT_SELECTION.trustFramework,
      claims: Object.fromEntries(CLAIM_NAMES.filter((name) => claims.has(name)).map((name) => [name, { essential: essential.has(name) }])),
      ...(evidence.has(EVIDENCE.document) ? { document: { details: DOCUMENT_DETAILS.filter((detail) => details.has(detail)) } } : {}),
      ...(evidence.has(EVIDENCE.populationRegister) ? { populationRegister: {} } : {}),
    };
  }

  const framework = selection.trustFramework;
  const readable = TRUST_FRAMEWORK_NAME.test(framework);
  if (!readable || !trustFrameworks.includes(framework)) {
    leaveOut(readable ? 'not_offered' : 'unknown', FIELD.trustFramework, framework);
    const fallback = trustFrameworks.includes(DEFAULT_SELECTION.trustFramework)
      ? DEFAULT_SELECTION.trustFramework
      : (trustFrameworks[0] ?? DEFAULT_SELECTION.trustFramework);
    // no longer the preset: its policy goes only with its own selection
    selection = { ...selection, trustFramework: fallback };
    preset = undefined;
  }
  return { selection, ...(preset !== undefined ? { preset } : {}), unread, moreUnread };
}

function invalid(message: string, detail: AppErrorDetail): AppError {
  return new AppError('invalid_selection', message, detail);
}

/** What the log says a listed field holds, as "is not a known …" ends. */
const FIELD_NOUN: Record<ListedField, string> = {
  preset: 'preset',
  trust_framework: 'trust framework',
  claim: 'claim',
  essential: 'claim',
  evidence: 'evidence type',
  document_detail: 'document detail',
};

function unknownValue(field: ListedField, value: string): AppError {
  return invalid(`${quoteInput(value)} is not a known ${FIELD_NOUN[field]}`, { kind: 'unknown_value', field, value: sentValue(value) });
}

function oneOf<T extends string>(values: readonly T[], value: string, field: ListedField): T {
  if (!(values as readonly string[]).includes(value)) throw unknownValue(field, value);
  return value as T;
}

/** The most the personal number to look up may hold: even a QA request that breaks the service's rules stays small (it travels in the request object). */
const MAX_PERSONAL_NUMBER_CHARACTERS = 32;

const FORM_FIELDS: ReadonlySet<string> = new Set(Object.values(FIELD));

/**
 * The selection a start form asks for. `enforceRules: false` lets through a selection the
 * service's rules refuse (as `send_anyway` does): a link may hold one, and the picker then says
 * what the service will refuse.
 * @throws AppError `invalid_selection` for a field or value the form does not have
 */
export function parseSelectionForm(form: URLSearchParams, { enforceRules = true }: { enforceRules?: boolean } = {}): Selection {
  const names = [...new Set(form.keys())];
  if (names.length === 0) return DEFAULT_SELECTION;
  for (const name of names)
    if (!FORM_FIELDS.has(name)) throw invalid(`Unknown form field ${quoteInput(name)}`, { kind: 'unknown_field', name: sentValue(name) });
  const presetId = form.get(FIELD.preset);
  if (presetId !== null) {
    const preset = findPreset(presetId);
    if (!preset) throw unknownValue('preset', presetId);
    return preset.selection;
  }

  const trustFramework = form.get(FIELD.trustFramework) ?? DEFAULT_SELECTION.trustFramework;
  if (!TRUST_FRAMEWORK_NAME.test(trustFramework))
    throw invalid('The trust framework is not a valid value', { kind: 'unknown_value', field: 'trust_framework', value: sentValue(trustFramework) });

  const essential = new Set(form.getAll(FIELD.essential).map((v) => oneOf(CLAIM_NAMES, v, 'essential')));
  const claims: Selection['claims'] = {};
  for (const value of form.getAll(FIELD.claim)) {
    const name: ClaimName = oneOf(CLAIM_NAMES, value, 'claim');
    claims[name] = { essential: essential.has(name) };
  }

  const evidence = new Set(form.getAll(FIELD.evidence).map((v) => oneOf(EVIDENCE_VALUES, v, 'evidence')));
  const details: DocumentDetail[] = form.getAll(FIELD.documentDetail).map((v) => oneOf(DOCUMENT_DETAILS, v, 'document_detail'));
  const personalNumber = form.get(FIELD.personalNumber)?.trim();
  if (personalNumber && personalNumber.length > MAX_PERSONAL_NUMBER_CHARACTERS)
    throw invalid('The personal number to look up is too long', { kind: 'personal_number_too_long', max: MAX_PERSONAL_NUMBER_CHARACTERS });

  const selection: Selection = {
    trustFramework,
    claims,
    ...(evidence.has(EVIDENCE.document) ? { document: { details: [...new Set(details)] } } : {}),
    ...(evidence.has(EVIDENCE.populationRegister) ? { populationRegister: personalNumber ? { personalNumber } : {} } : {}),
  };
  if (enforceRules && form.get(FIELD.sendAnyway) !== SEND_ANYWAY_VALUE) {
    const [problem] = selectionProblemCodes(selection);
    if (problem) throw invalid(SELECTION_PROBLEM_TEXT[problem], { kind: 'selection_problem', problem });
  }
  return selection;
}

/** What the start form asks for: a selection, and the policy its result will be judged by. */
export interface StartForm {
  selection: Selection;
  policy: AssurancePolicy;
  /**
   * The test persona the preset suggests (its `persona`, or the form's `persona` field when it
   * has the shape of an id): whether it goes anywhere is the start's decision (only to the
   * embedded emulator, and only a persona it has).
   */
  persona?: string;
}

/**
 * The selection of the start form, with its preset's policy (a selection of one's own:
 * OWN_SELECTION_POLICY).
 * @throws AppError `invalid_selection`
 */
export function parseStartForm(form: URLSearchParams): StartForm {
  const selection = parseSelectionForm(form);
  const pressed = form.get(FIELD.preset);
  // A preset button (without JavaScript) suggests its own persona; otherwise the field's, if it
  // is shaped like an id (only the first, and only from a form that names a preset's policy).
  const field = form.get(FIELD.persona);
  const presetId = pressed ?? form.get(FIELD.policy);
  if (presetId === null) return { selection, policy: OWN_SELECTION_POLICY };
  const preset = findPreset(presetId);
  if (!preset) throw unknownValue('preset', presetId);
  const persona = pressed !== null ? preset.persona : field !== null && PERSONA_ID.test(field) ? field : undefined;
  // A preset's policy goes only with its own selection: a changed one is judged as one's own
  // (a form sent without JavaScript keeps the server-rendered `policy` field whatever was ticked).
  return { selection, policy: sameSelection(selection, preset.selection) ? preset.policy : OWN_SELECTION_POLICY, ...(persona ? { persona } : {}) };
}
