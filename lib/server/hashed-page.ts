/**
 * A page rendered once and served to many (the home page: lib/server/home-page.ts) cannot carry a
 * per-response nonce, so its Content-Security-Policy allows its scripts by their SHA-256 hashes
 * instead, keeping 'strict-dynamic': the hash-based strict policy of CSP Level 3 ("strict-dynamic
 * usage"), as web.dev's "Mitigate cross-site scripting with a strict CSP" lays it out for pages
 * that are not rendered per request.
 *
 * A hash allows an inline script by its text. An external script (`<script src>`) cannot be allowed
 * by a hash in every browser (only Chromium matches a hash against its `integrity`), so each one the
 * page has is replaced, where it stands, by an inline script of its own, hashed, that inserts it:
 * 'strict-dynamic' trusts what an allowed script inserts. Next.js's scripts are all `async`, so an
 * inserted one (async too) runs when the parser-inserted one would have: once loaded, after the
 * scripts before it in the document were parsed. A `nomodule` script goes: every browser the app
 * supports runs modules, and skips it. So does a script's preload (`<link rel="preload" as="script">`):
 * under 'strict-dynamic' only a nonce could allow it; the script loads when its inserting one runs.
 *
 * Anything else (a script with other attributes, a nonce, a type) is not a page this module knows
 * how to make safe: `UnhashablePage`, and the caller serves the page rendered per request.
 * @see https://www.w3.org/TR/CSP3/#strict-dynamic-usage
 * @see https://web.dev/articles/strict-csp
 */
import { createHash } from 'node:crypto';

export class UnhashablePage extends Error {
  constructor(reason: string) {
    super(`the page cannot be served with hashes: ${reason}`);
    this.name = 'UnhashablePage';
  }
}

export interface HashedPage {
  html: string;
  /** each inline script's hash-source, e.g. `'sha256-…'`, in the order of the document */
  scriptHashes: string[];
}

/**
 * A `<script …>…</script>` element: its attributes and its text, which ends, as the HTML parser
 * ends it, at the first `</script` followed by a space, `/` or `>`.
 */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script(?=[\s/>])[^>]*>/gi;
/** A `<link …>` element. */
const LINK = /<link\b([^>]*)>/gi;
/** One attribute: a name, and a value double-quoted, single-quoted, bare, or none. */
const ATTRIBUTE = /([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, doubleQuoted, singleQuoted, bare] of source.matchAll(ATTRIBUTE)) {
    const key = name!.toLowerCase();
    if (attributes.has(key)) throw new UnhashablePage(`a script repeats its ${key} attribute`);
    attributes.set(key, doubleQuoted ?? singleQuoted ?? bare ?? '');
  }
  return attributes;
}

/** A hash-source for an inline script's text (as the browser hashes it: its UTF-8 bytes). */
export function scriptHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * The inline script that inserts an async external script where it stands. The URL is a JSON
 * string with `<` escaped, so that no URL can end the script or open a comment.
 */
export function insertingScript(src: string): string {
  const url = JSON.stringify(src).replaceAll('<', '\\u003c');
  return `(function(s){var e=document.createElement("script");e.src=${url};e.async=true;s.parentNode.insertBefore(e,s.nextSibling)})(document.currentScript)`;
}

/** Only a path on this origin: a chunk Next.js built, never another site's script. */
const SAME_ORIGIN_PATH = /^\/(?![/\\])[^\s"'<>\\]*$/;

/** `html` with its external scripts inserted by hashed inline ones, and the hashes of all its inline scripts. */
export function hashPage(html: string): HashedPage {
  const scriptHashes: string[] = [];
  const hashed = html.replace(SCRIPT, (element: string, attributeSource: string, text: string) => {
    const attributes = attributesOf(attributeSource);
    const src = attributes.get('src');
    if (src === undefined) {
      const unknown = [...attributes.keys()].filter((name) => name !== 'id');
      if (unknown.length > 0) throw new UnhashablePage(`an inline script has ${unknown.join(', ')}`);
      scriptHashes.push(scriptHash(text));
      return element;
    }
    const unknown = [...attributes.keys()].filter((name) => !['src', 'async', 'nomodule'].includes(name));
    if (unknown.length > 0) throw new UnhashablePage(`a script has ${unknown.join(', ')}`);
    if (text.trim() !== '') throw new UnhashablePage('a script has both a src and a text');
    if (!SAME_ORIGIN_PATH.test(src)) throw new UnhashablePage(`a script comes from ${JSON.stringify(src)}, not a path of this origin`);
    if (attributes.has('nomodule')) return '';
    if (!attributes.has('async')) throw new UnhashablePage(`${src} is not async: inserted, it would run at another time`);
    const inserting = insertingScript(src);
    scriptHashes.push(scriptHash(inserting));
    return `<script>${inserting}</script>`;
  });
  const withoutPreloads = hashed.replace(LINK, (element: string, attributeSource: string) => {
    const attributes = attributesOf(attributeSource);
    const rel = attributes.get('rel')?.toLowerCase();
    const preloadsScript = rel === 'modulepreload' || (rel === 'preload' && attributes.get('as')?.toLowerCase() === 'script');
    return preloadsScript ? '' : element;
  });
  return { html: checked(withoutPreloads), scriptHashes };
}

/** `html`, if nothing in it is left that its hashes do not account for. */
function checked(hashed: string): string {
  // What the element pattern did not take as a script would run unhashed, or not at all.
  const left = hashed.replace(SCRIPT, '');
  if (/<script\b/i.test(left)) throw new UnhashablePage('a script element is not closed');
  if (/<[a-z][^>]*\snonce\s*=/i.test(left)) throw new UnhashablePage('an element carries a nonce');
  return hashed;
}
