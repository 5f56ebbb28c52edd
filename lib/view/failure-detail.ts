/**
 * A failure's recorded detail (lib/verification/stored.ts `FailureDetail`) as the failure page
 * shows it, in the reader's language (failure-detail-messages.ts). Pure.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { AppErrorDetail } from '@/lib/verification/failures';
import type { FailureDetail } from '@/lib/verification/stored';
import { FAILURE_DETAIL_MESSAGES } from './failure-detail-messages';
import { FAILURE_MESSAGES } from './failure-messages';

/** The detail line: its label, its sentence, and its language when that is not the page's. */
export interface FailureDetailView {
  label: string;
  text: string;
  /** the core's own sentence is English on every page */
  lang?: 'en';
}

/**
 * `detail` worded in `locale`. The app's refusals are worded from their code and values. The
 * core's sentence is its own English: every code is explained in each language above it, and
 * the sentence adds what no structured field carries (an HTTP status, the transport's words, a
 * missing member, a key's kid), so it is shown as written, marked as the technical detail in
 * English. A kind this version does not know (a record written by a newer one) shows nothing.
 */
export function describeFailureDetail(detail: FailureDetail, locale: Locale): FailureDetailView | undefined {
  const t = FAILURE_DETAIL_MESSAGES[locale];
  if (detail.kind === 'core_message') return { label: t.technicalLabel, text: detail.message, lang: 'en' };
  if (!Object.hasOwn(t.kinds, detail.kind)) return undefined;
  const words = t.kinds[detail.kind] as (detail: AppErrorDetail) => string;
  return { label: FAILURE_MESSAGES[locale].detail, text: words(detail) };
}
