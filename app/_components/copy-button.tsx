'use client';
import { useState } from 'react';

/**
 * Copies `text` to the clipboard, and says so for a moment (announced: role=status). Without
 * JavaScript it does nothing, and the text stays selectable beside it.
 */
export function CopyButton({ text, label, copied, testId }: { text: string; label: string; copied: string; testId?: string }) {
  const [done, setDone] = useState(false);
  return (
    <>
      <button
        type="button"
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50"
        data-testid={testId}
        onClick={() =>
          void navigator.clipboard?.writeText(text).then(
            () => {
              setDone(true);
              setTimeout(() => setDone(false), 2000);
            },
            () => undefined,
          )
        }
      >
        {label}
      </button>
      <span role="status" className="ml-2 text-sm text-slate-600">
        {done ? copied : ''}
      </span>
    </>
  );
}
