/**
 * The pages' stylesheets and the authorization page's script, each a file of its own in
 * views/assets/, so they are edited (and reviewed) as CSS and JavaScript rather than as strings
 * in TypeScript. Each is read once, on first use, from the project folder; like the personas'
 * portraits they ship with a server build through next.config.mjs `outputFileTracingIncludes`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the assets live, relative to the project folder (the server's working directory). */
export const ASSETS_FOLDER = join('lib', 'emulator', 'views', 'assets');

/** The stylesheets: the authorization page (and its error page), the simulated app, the QA panel. */
export type Stylesheet = 'authorization-page' | 'app' | 'panel';

const loaded = new Map<string, string>();

function asset(file: string): string {
  let text = loaded.get(file);
  if (text === undefined) {
    text = readFileSync(join(process.cwd(), ASSETS_FOLDER, file), 'utf8');
    loaded.set(file, text);
  }
  return text;
}

/** A page's stylesheet, inlined by the page shell and allowed by its hash. */
export function stylesheet(name: Stylesheet): string {
  return asset(`${name}.css`);
}

/** The authorization page's one script, served from GET {base}/assets/auth-page.js (the pages allow no inline script). */
export function authorizationPageScript(): string {
  return asset('authorization-page.js');
}
