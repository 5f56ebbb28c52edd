import type { Locale } from '@/lib/i18n/locale';
import { TRACE_MESSAGES } from '@/lib/view/trace-messages';

/**
 * The result page's one switch for national identity and document numbers: masked (the last
 * four characters) on the cards, in the trace and in what Copy and Download export, or shown
 * everywhere. A link, so it works without JavaScript; the server masks, so a masked page never
 * carries the whole numbers.
 */
export function NumbersSwitch({
  revealed,
  revealHref,
  maskHref,
  presenter = false,
  locale,
}: {
  revealed: boolean;
  revealHref: string;
  maskHref: string;
  presenter?: boolean;
  locale: Locale;
}) {
  const t = TRACE_MESSAGES[locale].numbers;
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-4 py-2.5 text-sm shadow-sm"
      data-testid="numbers-switch"
      data-revealed={String(revealed)}
    >
      <p className="min-w-0 flex-1 basis-64 text-slate-700">{presenter ? t.presenter : revealed ? t.revealed : t.masked}</p>
      {!presenter && (
        <a
          href={revealed ? maskHref : revealHref}
          className="shrink-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-offset-2"
        >
          {revealed ? t.mask : t.reveal}
        </a>
      )}
    </div>
  );
}
