'use client';

/**
 * "Skip to Start verification": a link, shown when focused, to the picker's Start section. The
 * link alone moves the page and the next Tab there; with JavaScript it also puts the focus on
 * Start itself (or on its section, while Start is disabled), so Enter then starts.
 */
export function SkipToStart({ target, label }: { target: string; label: string }) {
  return (
    <a
      href={`#${target}`}
      data-testid="skip-to-start"
      onClick={(event) => {
        const section = document.getElementById(target);
        if (!section) return;
        event.preventDefault();
        const start = section.querySelector<HTMLButtonElement>('[data-testid="start"]');
        (start && !start.disabled ? start : section).focus();
        section.scrollIntoView({ block: 'center', behavior: 'instant' });
      }}
      className="sr-only rounded bg-white px-3 py-2 font-medium text-link underline shadow focus:not-sr-only focus:inline-block"
    >
      {label}
    </a>
  );
}
