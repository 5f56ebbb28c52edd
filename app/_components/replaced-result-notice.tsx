'use client';
/**
 * A browser keeps only its newest result (lib/server/verification.ts), whichever tab finished it.
 * A tab that showed one result and is reloaded (or gone back to) after another tab finished a
 * newer verification gets the newer one: it says so, rather than show another person silently. A
 * tab that arrives from its own callback has nothing to say.
 */
import { useSyncExternalStore } from 'react';

/** Where a tab remembers which result it showed: sessionStorage is one per tab, and outlives a reload. */
const SHOWN_KEY = 'idv.result-shown';

const never = () => () => {};

/** What this page load found, once per result: the tab's memory is updated as it is read. */
let found: { resultAt: number; replaced: boolean } | undefined;

function replacedOnThisLoad(resultAt: number): boolean {
  if (found?.resultAt === resultAt) return found.replaced;
  let replaced = false;
  try {
    const shown = sessionStorage.getItem(SHOWN_KEY);
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const returned = navigation?.type === 'reload' || navigation?.type === 'back_forward';
    replaced = returned && shown !== null && shown !== String(resultAt);
    sessionStorage.setItem(SHOWN_KEY, String(resultAt));
  } catch {
    // Storage refused (a browser's privacy setting): nothing to compare with.
  }
  found = { resultAt, replaced };
  return replaced;
}

export function ReplacedResultNotice({ resultAt, message }: { resultAt: number; message: string }) {
  // The server renders nothing; the browser, what the tab remembers.
  const replaced = useSyncExternalStore(
    never,
    () => replacedOnThisLoad(resultAt),
    () => false,
  );
  if (!replaced) return null;
  return (
    <p role="status" data-testid="result-replaced" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      {message}
    </p>
  );
}
