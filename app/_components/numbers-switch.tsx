
/**
 * The result page's one switch for national identity and document numbers: masked (the last
 * four characters) on the cards, in the trace and in what Copy and Download export, or shown
 * everywhere. A link, so it works without JavaScript; the server masks, so a masked page never
 * carries the whole numbers.
 */
export function NumbersSwitch({ revealed, revealHref, maskHref, presenter = false }: { revealed: boolean; revealHref: string; maskHref: string; presenter?: boolean }) {
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white px-4 py-2.5 text-sm shadow-sm"
      data-testid="numbers-switch"
      data-revealed={String(revealed)}
    >
      <p className="min-w-0 flex-1 basis-64 text-slate-700">
        {presenter
          ? 'Presenter mode: national identity and document numbers stay masked to their last four characters until it is turned off.'
          : revealed
            ? 'National identity and document numbers are shown in full: on the cards, in the trace and in its copies.'
            : 'National identity and document numbers are masked to their last four characters: on the cards, in the trace and in its copies.'}
      </p>
      {!presenter && (
      <a
        href={revealed ? maskHref : revealHref}
        className="shrink-0 rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50 focus-visible:outline-offset-2"
      >
        {revealed ? 'Mask the numbers' : 'Show the numbers'}
      </a>
      )}
    </div>
  );
}
