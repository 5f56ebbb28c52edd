'use client';
import { useSyncExternalStore } from 'react';
import type { Locale } from '@/lib/i18n/locale';
import { BOUNDARY_MESSAGES, boundaryLocale } from '@/lib/view/boundary-messages';

/** Nothing to watch: a page's language changes only with a new page. */
const unchanging = () => () => {};
/**
 * The language of the page the error happened on: `<html lang>`, which the layout sets from the
 * reader's choice (the HttpOnly cookie this component cannot read) or Accept-Language; else the
 * browser's languages.
 */
const pageLocale = (): Locale => boundaryLocale([document.documentElement.lang, ...navigator.languages]);
/** Rendered on the server there is no document: English, until the browser takes over. */
const serverLocale = (): Locale => 'en';

/** Route error boundary: a code and a safe sentence, never a stack, in the page's language. */
export default function RouteError({ error }: { error: Error & { digest?: string } }) {
  const t = BOUNDARY_MESSAGES[useSyncExternalStore(unchanging, pageLocale, serverLocale)];
  return (
    <div className="mx-auto max-w-xl space-y-4 rounded-2xl border border-red-200 bg-white p-6">
      <h1 className="text-2xl font-bold">{t.title}</h1>
      <p className="text-slate-700">
        {t.errorCode}{' '}
        <code data-testid="error-code" className="font-mono font-semibold text-red-800">
          internal_error
        </code>
        {error.digest ? (
          <>
            {' '}
            · {t.reference} <code className="font-mono">{error.digest}</code>
          </>
        ) : null}
      </p>
      <a href="/" className="inline-block rounded-lg bg-indigo-700 px-5 py-2.5 font-semibold text-on-accent">
        {t.backToStart}
      </a>
    </div>
  );
}
