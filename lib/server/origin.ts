import 'server-only';
/**
 * POST /auth/start (and /auth/signout) are same-origin only. Browsers send `Origin`
 * on every form POST and `Sec-Fetch-Site` on every request; a cross-site form (login CSRF into
 * our flow) is refused.
 * A request with neither comes from a script, not a browser, and cannot ride a user's cookies.
 */
import { AppError, quoteInput } from '@/lib/verification/failures';
import { serverConfig } from './configuration';

/** Whether a request may change state for this app: no foreign `Origin`, no cross-site `Sec-Fetch-Site`. */
export function isSameOriginRequest(headers: Headers, appUrl: string): boolean {
  const origin = headers.get('origin');
  if (origin !== null && origin !== new URL(appUrl).origin) return false;
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return false;
  return true;
}

/**
 * Refuses a cross-site request to a state-changing route with `forbidden_origin`.
 * @param refusal what the failure page says, e.g. "Sign-out can only be requested from this app’s own pages"
 */
export async function requireSameOrigin(request: Request, refusal: string): Promise<void> {
  const { appUrl } = await serverConfig();
  if (!isSameOriginRequest(request.headers, appUrl)) throw new AppError('forbidden_origin', `${refusal}${whereFrom(request.headers.get('origin'), appUrl)}`);
}

/**
 * What the refusal adds about the page the request came from: most often this very app opened
 * under another name (http://127.0.0.1:3000 for http://localhost:3000), which is then named. An
 * origin that is not a plain http(s) origin is quoted only by its length (quoteInput).
 */
export function whereFrom(origin: string | null, appUrl: string): string {
  const app = new URL(appUrl).origin;
  if (origin === null || origin === 'null') return `; this app’s address is ${app}`;
  const named = /^https?:\/\/[A-Za-z0-9.:[\]-]{1,100}$/.test(origin) ? origin : quoteInput(origin);
  return `; it came from ${named}, and this app’s address is ${app} (APP_URL): open the app there and start again`;
}
