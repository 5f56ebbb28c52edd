import type { Locale } from '@/lib/i18n/locale';
import { CARDS_MESSAGES } from '@/lib/view/cards-messages';

/**
 * A national identity or document number as the server sent it: masked to its last four
 * characters (lib/view/masking.ts) unless the person revealed the numbers with the result
 * page's one switch. The whole number is then not on the page at all, not even hidden.
 */
export function MaskedValue({ text, label, revealed, locale }: { text: string; label: string; revealed: boolean; locale: Locale }) {
  return revealed ? (
    <span className="value-mono" data-testid="masked-value" data-revealed="true">
      {text}
    </span>
  ) : (
    <span className="value-mono" data-testid="masked-value" data-revealed="false" aria-label={CARDS_MESSAGES[locale].hiddenExceptLastFour(label)}>
      {text}
    </span>
  );
}
