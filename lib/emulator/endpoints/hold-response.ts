/**
 * An answer held back on purpose (the `token_timeout` and `jwks_timeout` faults, answer-faults.ts),
 * for as long as the client still waits for it.
 * @see DECISIONS.md "Faults"
 */

/**
 * Waits `ms`, or until `signal` aborts (the client gave up): the timer is cleared either way, so
 * an abandoned request holds nothing.
 * @returns true if the full time passed, false if the wait was cut short
 */
export function holdResponse(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
