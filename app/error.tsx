'use client';


/** Route error boundary: a code and a safe sentence, never a stack. */
export default function RouteError({ error }: { error: Error & { digest?: string } }) {
  return (
    <div className="mx-auto max-w-xl space-y-4 rounded-2xl border border-red-200 bg-white p-6">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="text-slate-700">
        Error code <code data-testid="error-code" className="font-mono font-semibold text-red-800">internal_error</code>
        {error.digest ? <> · reference <code className="font-mono">{error.digest}</code></> : null}
      </p>
      <a href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent">Back to the start</a>
    </div>
  );
}
