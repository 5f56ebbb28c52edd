/**
 * What each failure code means to the person in front of the failure page: a title, one
 * sentence, and what to try next, in the reader's language (the words: failure-messages.ts).
 * Codes stay as the core and the spec write them.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { DeliberateAnswer, FlowDiagnostics } from '@/lib/verification/diagnostics';
import { FAILURE_MESSAGES, type Explanation, type FailureCode } from './failure-messages';

export type { Explanation, FailureCode } from './failure-messages';
export { FAILURE_MESSAGES } from './failure-messages';

/** The UI maps codes to text (the core only gives codes). Every code of the core and the app has an entry, in every language. */
export function explainFailure(code: FailureCode, locale: Locale): Explanation {
  return FAILURE_MESSAGES[locale].codes[code];
}

/** What the embedded emulator did on purpose to the flow that failed, worded (emulator mode). */
export interface EmulatorAnswerView {
  /** `acceptance`: a variant a correct relying party accepts (so not what caused the failure) */
  faults: { id: string; label: string; effect: string; acceptance?: boolean }[];
  /** faults taken for the flow that never met the request they spoil: not what caused the failure */
  unreached: { id: string; label: string; effect: string }[];
  /** where the faults were chosen: the QA panel, the emulator's page for this one flow, or again (the failed request asked for again) */
  chosen?: 'panel' | 'flow' | 'again';
  /** a part 7 error chosen for this flow on the emulator's page */
  error?: string;
}

/**
 * A recorded answer worded in `locale`, each fault in the service's own words (its diagnostics);
 * a fault it no longer knows (a record kept by another version) is left out.
 */
export function emulatorAnswerView(answer: DeliberateAnswer, diagnostics: Pick<FlowDiagnostics, 'describeFault'>, locale: Locale): EmulatorAnswerView {
  return {
    faults: answer.faults.flatMap((id) => {
      const words = diagnostics.describeFault(id, locale);
      return words ? [{ id, ...words }] : [];
    }),
    unreached: (answer.unreached ?? []).flatMap((id) => {
      const words = diagnostics.describeFault(id, locale);
      return words ? [{ id, label: words.label, effect: words.effect }] : [];
    }),
    ...(answer.chosen ? { chosen: answer.chosen } : {}),
    ...(answer.error ? { error: answer.error } : {}),
  };
}
