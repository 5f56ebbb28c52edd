/**
 * Presenter mode: for screen sharing and recordings, personal data is hidden everywhere the app
 * shows it: names reduced to initials, the date of birth and the age hidden (a minimum age's
 * verdict says only whether it is met), the subject
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
      // The age goes too: with the day of the verification it tells the year of birth.
      birthdate: identity.birthdate.state === 'value' ? { state: 'value', text: HIDDEN_DATE } : identity.birthdate,
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

/** `text` with each replaced value, wherever it appears, swapped for its replacement. */
export function replaceInText(text: string, replacements: ReadonlyMap<string, string>): string {
  let replaced = text;
  for (const [value, replacement] of [...replacements].sort(([a], [b]) => b.length - a.length)) replaced = replaced.replaceAll(value, replacement);
  return replaced;
}

/** Members of an identity's claims shown as initials in presenter mode (OpenID Connect Core §5.1, OIDC4IDA §4). */
const NAME_MEMBERS: ReadonlySet<string> = new Set([
  'name',
  'given_name',
  'family_name',
  'middle_name',
  'nickname',
  'birth_family_name',
  'birth_given_name',
  'birth_middle_name',
]);
/** Members of an identity's claims hidden altogether in presenter mode. */
const HIDDEN_MEMBERS: ReadonlySet<string> = new Set(['birthdate', 'place_of_birth', 'address', 'email', 'phone_number', 'preferred_username']);

function hideAll(value: unknown, member: string): unknown {
  if (typeof value === 'string') return member === 'birthdate' ? HIDDEN_DATE : '•••';
  if (Array.isArray(value)) return value.map((item) => hideAll(item, member));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, hideAll(item, name)]));
  return value;
}

/** An identity's claims with names as initials and the rest of what identifies the person hidden. */
function hideClaims(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(claims).map(([member, value]) => [
      member,
      NAME_MEMBERS.has(member) && typeof value === 'string' ? initials(value) : HIDDEN_MEMBERS.has(member) ? hideAll(value, member) : value,
    ]),
  );
}

function hideIdentityIn(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hideIdentityIn);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([member, item]) => [
      member,
      member === 'claims' && item && typeof item === 'object' && !Array.isArray(item) ? hideClaims(item as Record<string, unknown>) : hideIdentityIn(item),
    ]),
  );
}

/**
 * A trace section's pretty JSON with the identity it carries hidden, as the provider sent it: the
 * top level of a payload (an ID token's claims) and every `claims` object within it (those of
 * `verified_claims`). Values the app's parser refused, or members it does not show, are hidden
 * too, which replacing the parsed values alone would miss. Text that is not JSON is returned as is.
 */
export function hideIdentityInJson(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return text;
  const hidden = hideIdentityIn(hideClaims(parsed as Record<string, unknown>));
  return JSON.stringify(hidden, null, 2);
}
