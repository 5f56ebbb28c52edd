/**
 * A national identity number, masked until the viewer asks to see it (a <details> element, so it
 * works without JavaScript and the number is never shown by accident in a screen share).
 */
export function MaskedValue({ value, label }: { value: string; label: string }) {
  const masked = `${'•'.repeat(Math.max(value.length - 4, 0))}${value.slice(-4)}`;
  return (
    <details className="group inline-block" data-testid="masked-value">
      <summary className="inline-flex cursor-pointer list-none items-center gap-2 font-mono text-sm text-slate-900">
        <span className="group-open:hidden" aria-label={`${label}, hidden except the last four digits`}>{masked}</span>
        <span className="hidden group-open:inline">{value}</span>
        <span className="rounded border border-slate-300 px-1.5 py-0.5 font-sans text-xs font-medium text-slate-700">
          <span className="group-open:hidden">Show</span>
          <span className="hidden group-open:inline">Hide</span>
        </span>
      </summary>
    </details>
  );
}
