/**
 * What a verification's `verified_claims` say about the person, as the verdict and the result
 * page read them: one view of the elements a provider may send, an age on a day, the portrait.
 * Pure; dates are compared in UTC as ISO strings (YYYY-MM-DD).
 */
import type { Selection } from '@/lib/oidc/types';
import type { VerifiedClaims } from '@/lib/oidc/verified-claims';

/** Whole years between an ISO birthdate and `today` (both YYYY-MM-DD). */
export function ageOn(birthdate: string, today: string): number {
  const [by, bm, bd] = birthdate.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/**
 * One view of `verified_claims` that OIDC4IDA lets a provider send as an array of elements: the
 * trust framework, time and assurance level of the first, each claim from the first element
 * that has it, and the evidence of all (the first of each type is shown).
 */
export function mergeVerifiedClaims(list: readonly VerifiedClaims[]): VerifiedClaims | undefined {
  if (list.length <= 1) return list[0];
  const claims: VerifiedClaims['claims'] = {};
  for (const element of list) {
    for (const [name, value] of Object.entries(element.claims) as [keyof VerifiedClaims['claims'], never][]) {
      if (claims[name] === undefined) claims[name] = value;
    }
  }
  return { ...list[0]!, claims, evidence: list.flatMap((element) => element.evidence) };
}

/** A portrait as the ID token carried it: a JPEG or a PNG (verified-claims.ts accepts nothing else). */
export interface Portrait {
  contentType: 'image/jpeg' | 'image/png';
  bytes: Uint8Array;
}

/** The verified portrait, when it was requested and came back. */
export function portraitOf(verifiedClaims: readonly VerifiedClaims[], selection: Selection): Portrait | undefined {
  if (selection.claims.picture === undefined) return undefined;
  const picture = mergeVerifiedClaims(verifiedClaims)?.claims.picture;
  const match = picture ? /^data:(image\/(?:jpeg|png));base64,([A-Za-z0-9+/=]+)$/.exec(picture) : null;
  if (!match) return undefined;
  return { contentType: match[1] as Portrait['contentType'], bytes: Uint8Array.from(Buffer.from(match[2]!, 'base64')) };
}
