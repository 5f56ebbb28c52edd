/**
 * A national identity or document number as the server sent it: masked to its last four
 * characters (lib/view/masking.ts) unless the person revealed the numbers with the result
 * page's one switch. The whole number is then not on the page at all, not even hidden.
 */
export function MaskedValue({ text, label, revealed }: { text: string; label: string; revealed: boolean }) {
  return revealed ? (
    <span className="value-mono" data-testid="masked-value" data-revealed="true">{text}</span>
  ) : (
    <span className="value-mono" data-testid="masked-value" data-revealed="false" aria-label={`${label}, hidden except the last four characters`}>
      {text}
    </span>
  );
}
