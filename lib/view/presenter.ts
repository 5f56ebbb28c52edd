/**
 * Presenter mode: for screen sharing and recordings, personal data is hidden everywhere the app
 * shows it: names reduced to initials, the date of birth hidden (the age stays), the subject
 * identifier and every national identity and document number masked (the reveal switch is off),
 * the portrait blurred. The same replacements apply to the
 * protocol trace, so the trace's detail, Copy and Download hide them too.
 *
 * Done on the server, like the numbers' masking (masking.ts): a presented page, its React
 * payload and the trace it loads never carry the hidden values, and the portrait it serves is a
 * few blurred pixels (lib/server/result-parts.ts).
 */
import type { VerifiedClaims } from '@/lib/oidc/verified-claims';
import { maskPersonal, maskResultView } from './masking';
import type { Field, ResultView } from './result-view';

/** "Ingrid Solberg Haugen" → "I. S. H."; "Anne-Marie" → "A.-M." */
export function initials(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((word) =>
      word
        .split('-')
        .map((part) => (part ? `${[...part][0]!.toUpperCase()}.` : ''))
        .join('-'),
    )
    .join(' ');
}

/** What a hidden date of birth shows. */
export const HIDDEN_DATE = '••.••.••••';

function field(value: Field, hide: (text: string) => string): Field {
  return value.state === 'value' ? { ...value, text: hide(value.text) } : value;
}

/** The result view as presenter mode shows it (numbers masked as well: they cannot be revealed). */
export function presentResultView(view: ResultView): ResultView {
  const masked = maskResultView(view);
  const { identity } = masked;
  return {
    ...masked,
    identity: {
      ...identity,
      name: field(identity.name, initials),
      givenName: field(identity.givenName, initials),
      familyName: field(identity.familyName, initials),
      birthdate: field(identity.birthdate, () => HIDDEN_DATE),
    },
  };
}

/** The subject identifier as presenter mode shows it. */
export function presentSubject(sub: string): string {
  return maskPersonal(sub);
}

/**
 * Each personal value of a result and what presenter mode shows instead, for text that holds
 * them as JSON strings (the trace's decoded tokens) or plainly (the checks' details): names,
 * dates of birth and the subject. The numbers are in each trace section's own list (masking.ts).
 */
export function presenterReplacements(verifiedClaims: readonly VerifiedClaims[], subject: unknown): Map<string, string> {
  const replacements = new Map<string, string>();
  for (const { claims } of verifiedClaims) {
    for (const name of [claims.name, claims.given_name, claims.family_name]) if (name) replacements.set(name, initials(name));
    if (claims.birthdate) replacements.set(claims.birthdate, HIDDEN_DATE);
  }
  if (typeof subject === 'string' && subject !== '') replacements.set(subject, presentSubject(subject));
  return replacements;
}

/** `text` with each replaced value, as a JSON string, swapped for its replacement. */
export function replaceInJson(text: string, replacements: ReadonlyMap<string, string>): string {
  let replaced = text;
  // Longest first, so that a full name goes before the given name inside it.
  for (const [value, replacement] of [...replacements].sort(([a], [b]) => b.length - a.length)) {
    replaced = replaced.replaceAll(JSON.stringify(value), JSON.stringify(replacement));
  }
  return replaced;
}

/** `text` with each replaced value, wherever it appears, swapped for its replacement. */
export function replaceInText(text: string, replacements: ReadonlyMap<string, string>): string {
  let replaced = text;
  for (const [value, replacement] of [...replacements].sort(([a], [b]) => b.length - a.length)) replaced = replaced.replaceAll(value, replacement);
  return replaced;
}
