/**
 * One masking rule for the whole app (applied by the disclosure rule, disclosure.ts) (result cards, protocol trace, Copy and Download): a
 * national identity number or a document number shows only its last four characters, everywhere
 * the same, until the person reveals them all at once (the result page's one switch,
 * `?reveal=numbers`). Masking happens on the server, so a masked page, its React payload and the
 * trace it loads never carry the whole number.
 *
 * Protocol secrets (authorization code, PKCE verifier, state, nonce, signatures) are masked
 * before anything is stored, and never revealed: lib/verification/trace.ts `maskSecret`.
 */
import type { Field, ResultView } from './result-view';

/** The members of verified claims whose values are masked (OIDC4IDA evidence, spec 2.3–2.6). */
export const PERSONAL_MEMBERS: ReadonlySet<string> = new Set(['personal_number', 'document_number']);

/** The query parameter and value of the result page (and of its trace) that reveal the numbers. */
export const REVEAL_PARAMETER = 'reveal';
export const REVEAL_VALUE = 'numbers';

/** "•••••••1234": every character but the last four replaced. */
export function maskPersonal(value: string): string {
  return `${'•'.repeat(Math.max(value.length - 4, 0))}${value.slice(-4)}`;
}

/** The values of PERSONAL_MEMBERS anywhere in `value` (a decoded ID token payload, for instance). */
export function personalValues(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) personalValues(item, found);
  } else if (value && typeof value === 'object') {
    for (const [member, item] of Object.entries(value)) {
      // A number is a string, or (a Norwegian document's, spec 2.3) an object with type and value.
      const number = item && typeof item === 'object' && !Array.isArray(item) ? (item as { value?: unknown }).value : item;
      if (PERSONAL_MEMBERS.has(member) && typeof number === 'string' && number !== '') found.add(number);
      else personalValues(item, found);
    }
  }
  return found;
}

/**
 * `text` (pretty JSON) with each of `values` as a JSON string replaced by its masked form. A
 * value that also appears under another member is masked there too: the rule errs on hiding.
 */
export function maskValuesInJson(text: string, values: Iterable<string>): string {
  return replaceInJson(text, new Map([...values].map((value) => [value, maskPersonal(value)])));
}

/**
 * `text` (JSON) with each key of `replacements`, as a JSON string, swapped for its value as a JSON
 * string; the longest first, so that a full name goes before the given name inside it.
 */
export function replaceInJson(text: string, replacements: ReadonlyMap<string, string>): string {
  let replaced = text;
  for (const [value, replacement] of [...replacements].sort(([a], [b]) => b.length - a.length)) {
    replaced = replaced.replaceAll(JSON.stringify(value), JSON.stringify(replacement));
  }
  return replaced;
}

/** Whether a request's query asks for the numbers to be shown. */
export function wantsNumbersRevealed(query: URLSearchParams | Record<string, string | string[] | undefined>): boolean {
  const value = query instanceof URLSearchParams ? query.get(REVEAL_PARAMETER) : query[REVEAL_PARAMETER];
  return value === REVEAL_VALUE;
}

/** A field of the result with its value masked (hints, such as the number's type, stay). */
function maskField(field: Field): Field {
  return field.state === 'value' ? { ...field, text: maskPersonal(field.text) } : field;
}

/**
 * The result view with its national identity numbers and document number masked: what the
 * result page renders unless the person revealed them.
 */
export function maskResultView(view: ResultView): ResultView {
  const { document, populationRegister } = view;
  return {
    ...view,
    document: { ...document, number: maskField(document.number), personalNumber: maskField(document.personalNumber) },
    populationRegister: {
      ...populationRegister,
      personalNumber: maskField(populationRegister.personalNumber),
      lookedUp: populationRegister.lookedUp === undefined ? undefined : maskPersonal(populationRegister.lookedUp),
    },
  };
}
