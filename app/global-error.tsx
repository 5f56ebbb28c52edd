'use client';
import { useSyncExternalStore } from 'react';
import type { Locale } from '@/lib/i18n/locale';
import { BOUNDARY_MESSAGES, boundaryLocale } from '@/lib/view/boundary-messages';

/** Marks this boundary's own `<html>` (below), whose lang says nothing of the reader. */
const OWN_HTML = 'data-global-error';

/** Nothing to watch: a page's language changes only with a new page. */
const unchanging = () => () => {};
let chosen: Locale | undefined;
/**
 * The reader's language, chosen once per page. When this boundary replaces a page in the browser,
 * `<html>` is still the page's and its lang is the one the layout chose (from the HttpOnly cookie
 * this component cannot read, or Accept-Language); when this boundary was rendered on the server,
 * `<html>` is its own, and the browser's languages decide.
 */
function pageLocale(): Locale {
  const html = document.documentElement;
  chosen ??= boundaryLocale([html.hasAttribute(OWN_HTML) ? undefined : html.lang, ...navigator.languages]);
  return chosen;
}
/** Rendered on the server there is no document: English, until the browser takes over. */
const serverLocale = (): Locale => 'en';

/** Last-resort boundary: a code and a safe sentence, never a stack, in the reader's language. */
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  const locale = useSyncExternalStore(unchanging, pageLocale, serverLocale);
  const t = BOUNDARY_MESSAGES[locale];
  return (
    <html lang={locale} data-global-error="">
      <body style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
        <h1>{t.title}</h1>
        <p>
          {t.errorCode}: <code data-testid="error-code">internal_error</code>
          {error.digest ? ` (${t.reference} ${error.digest})` : ''}
        </p>
        <p>
          <a href="/">{t.backToStart}</a>
        </p>
      </body>
    </html>
  );
}
