/**
 * The one rule for what of a verified identity leaves the server: the result page, the trace
 * (its panel, Copy and Download) and the portrait all ask it.
 *
 * - National identity and document numbers show their last four characters (masking.ts) unless
 *   the person revealed them (`?reveal=numbers`).
 * - Presenter mode (presenter.ts) hides more: names as initials, the date of birth, the subject,
 *   a blurred portrait; and the numbers stay masked whatever the query says.
 *
 * Done on the server: a masked page, its React payload, the trace it loads and the portrait it
 * shows never carry what is hidden.
 */
import type { VerifiedClaims } from '@/lib/oidc/verified-claims';
import { maskResultView, maskValuesInJson, replaceInJson, wantsNumbersRevealed } from './masking';
import { hideIdentityInJson, presenterReplacements, presentResultView, presentSubject, replaceInText } from './presenter';
import type { Check, ResultView, VerificationView } from './result-view';
import type { TraceEntryView } from './trace-view';

export interface Disclosure {
  /** the national identity and document numbers are shown in full */
  numbersRevealed: boolean;
  /** presenter mode: names, the date of birth, the subject and the portrait hidden too */
  presenter: boolean;
}

/** What a request may see: presenter mode from the preferences, the numbers from its query. */
export function disclosureFor({
  presenter,
  query,
}: {
  presenter: boolean;
  query: URLSearchParams | Record<string, string | string[] | undefined>;
}): Disclosure {
  return { numbersRevealed: wantsNumbersRevealed(query) && !presenter, presenter };
}

/** The person whose values presenter mode hides wherever they appear in text. */
export interface DisclosedIdentity {
  verifiedClaims: readonly VerifiedClaims[];
  /** the ID token's `sub` */
  subject: unknown;
}

/** The result cards as `disclosure` allows. */
export function discloseResultView(view: ResultView, disclosure: Disclosure): ResultView {
  if (disclosure.presenter) return presentResultView(view);
  return disclosure.numbersRevealed ? view : maskResultView(view);
}

/** The verification card as `disclosure` allows (presenter mode masks the subject). */
export function discloseVerification(view: VerificationView, disclosure: Disclosure): VerificationView {
  if (!disclosure.presenter || view.subject.state !== 'value') return view;
  return { ...view, subject: { ...view.subject, text: presentSubject(view.subject.text) } };
}

/** The checks' details as `disclosure` allows (they name the subject). */
export function discloseChecks(checks: readonly Check[], disclosure: Disclosure, identity: DisclosedIdentity): Check[] {
  if (!disclosure.presenter) return [...checks];
  const replacements = presenterReplacements(identity.verifiedClaims, identity.subject);
  return checks.map((check) => ({ ...check, detail: replaceInText(check.detail, replacements) }));
}

/**
 * A presented trace as `disclosure` allows: each section's numbers masked (last four characters,
 * as on the cards) unless revealed, and their list dropped either way; in presenter mode names,
 * dates of birth and the subject hidden as well.
 */
export function discloseTrace(entries: readonly TraceEntryView[], disclosure: Disclosure, identity?: DisclosedIdentity): TraceEntryView[] {
  const replacements = disclosure.presenter && identity ? presenterReplacements(identity.verifiedClaims, identity.subject) : undefined;
  return entries.map((entry) => ({
    ...entry,
    sections: entry.sections.map(({ personal, ...section }) => {
      let content = personal && (!disclosure.numbersRevealed || disclosure.presenter) ? maskValuesInJson(section.content, personal) : section.content;
      if (disclosure.presenter) content = replaceInJson(hideIdentityInJson(content), replacements ?? new Map());
      return content === section.content ? section : { ...section, content };
    }),
  }));
}

/** Whether the portrait is sent as it is, or (presenter mode) as a few blurred pixels. */
export function portraitDisclosure(disclosure: Disclosure): 'original' | 'blurred' {
  return disclosure.presenter ? 'blurred' : 'original';
}
