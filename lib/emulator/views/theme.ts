/**
 * The theme of the emulator's pages, light or dark, chosen for each request:
 * 1. on the host app's own origin, the theme the reader chose there: the app keeps it in a cookie
 *    of its own (`idv_theme`: `light`, `dark` or `system`, path `/`), which the browser sends to
 *    the emulator's paths under that origin too; the emulator only reads it;
 * 2. otherwise (no cookie, `system`, or another origin such as the phone's address), the browser's
 *    `prefers-color-scheme`, which the stylesheets follow by themselves.
 * The page says which in `<html data-theme>` and `<meta name="color-scheme">`; the stylesheets
 * (views/assets) give every colour as `light-dark(light, dark)` under that `color-scheme`.
 * @see DECISIONS.md "Theme of the pages"
 */
import { parse as parseCookies } from 'cookie';

/** The host app's cookie that keeps the reader's theme (the app sets it; the emulator reads it). */
export const APP_THEME_COOKIE = 'idv_theme';

/** `system` follows the browser's prefers-color-scheme. */
export type Theme = 'system' | 'light' | 'dark';

/** The theme the request's cookie asks for; `system` without one (or with a value it does not know). */
export function chooseTheme(request: Request): Theme {
  const chosen = parseCookies(request.headers.get('cookie') ?? '')[APP_THEME_COOKIE];
  return chosen === 'light' || chosen === 'dark' ? chosen : 'system';
}

/** The `<meta name="color-scheme">` content for a theme: the schemes the page supports. */
export function colorSchemeOf(theme: Theme): string {
  return theme === 'system' ? 'light dark' : theme;
}
