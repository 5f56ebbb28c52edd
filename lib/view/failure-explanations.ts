/**
 * What each failure code means to the person in front of the failure page: a title, one
 * sentence, and what to try next, in the reader's language (the words: failure-messages.ts).
 * Codes stay as the core and the spec write them.
 */
import type { Locale } from '@/lib/i18n/locale';
import { FAILURE_MESSAGES, type Explanation, type FailureCode } from './failure-messages';

export type { Explanation, FailureCode } from './failure-messages';
export { FAILURE_MESSAGES } from './failure-messages';

/** The UI maps codes to text (the core only gives codes). Every code of the core and the app has an entry, in every language. */
export function explainFailure(code: FailureCode, locale: Locale): Explanation {
  return FAILURE_MESSAGES[locale].codes[code];
}


