/**
 * A list of outcomes, each with a mark, a label and its detail: the checks performed, the rules of
 * a policy, the doctor's lines. The marks' colours are the `.checks` rules of app/globals.css, by
 * `data-outcome`; the outcome is spoken before the label, the mark itself being decoration.
 */
export interface OutcomeItem {
  key: string;
  /** `data-outcome`: passed, met, warning, failed, not_checked or not_applicable */
  outcome: string;
  mark: string;
  /** the outcome in words, for screen readers */
  spoken: string;
  label: string;
  detail: string;
  /** more data attributes of the item (data-rule, data-check…) */
  data?: Record<`data-${string}`, string>;
  /** a line under the detail (what to do, for the doctor) */
  extra?: string;
}

export function OutcomeList({ items, testId }: { items: OutcomeItem[]; testId: string }) {
  return (
    <ol className="checks mt-3 space-y-2" data-testid={testId}>
      {items.map((item) => (
        <li key={item.key} data-outcome={item.outcome} {...item.data}>
          <span aria-hidden="true" className="check-mark">
            {item.mark}
          </span>
          <div>
            <p className="check-label">
              <span className="sr-only">{item.spoken}: </span>
              {item.label}
            </p>
            <p className="check-detail">{item.detail}</p>
            {item.extra && <p className="mt-0.5 text-sm text-slate-700">{item.extra}</p>}
          </div>
        </li>
      ))}
    </ol>
  );
}
