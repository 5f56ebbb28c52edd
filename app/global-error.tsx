'use client';


/** Last-resort boundary: a code and a safe sentence, never a stack. */
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
        <h1>Something went wrong</h1>
        <p>
          Error code: <code data-testid="error-code">internal_error</code>
          {error.digest ? ` (reference ${error.digest})` : ''}
        </p>
        <p><a href="/">Back to the start</a></p>
      </body>
    </html>
  );
}
