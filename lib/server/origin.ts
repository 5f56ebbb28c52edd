import 'server-only';
/**
 * POST /auth/start (and /auth/signout) are same-origin only. Browsers send `Origin`
 * on every form POST and `Sec-Fetch-Site` on every request; a cross-site form (login CSRF into
 * our flow) is refused.
 * A request with neither comes from a script, not a browser, and cannot ride a user's cookies.
 */
import { AppError, quoteInput, type GuardedAction, type SentValue } from '@/lib/verification/failures';
import { serverConfig } from './configuration';

/** Whether a request may change state for this app: no foreign `Origin`, no cross-site `Sec-Fetch-Site`. */
export function isSameOriginRequest(headers: Headers, appUrl: string): boolean {
  const origin = headers.get('origin');
  if (origin !== null && origin !== new URL(appUrl).origin) return false;
  const site = headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return false;
  return true;
}

/** What the log says of each refusal (the failure page words it from the detail). */
const REFUSAL: Record<GuardedAction, string> = {
  start: 'A verification can only be started from this app’s own pages',
  sign_out: 'Sign-out can only be requested from this app’s own pages',
  settings: 'Settings can only be changed from this app’s own pages',
};

/** A plain http(s) origin, which the refusal may name as it is. */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.:[\]-]{1,100}$/;

/** The request's `Origin` as the refusal's detail keeps it: a plain http(s) origin as it is, anything else by its length. */
function originSent(origin: string | null): SentValue | undefined {
  if (origin === null || origin === 'null') return undefined;
  return PLAIN_ORIGIN.test(origin) ? { text: origin } : { length: origin.length };
}

/**
 * Refuses a cross-site request to a state-changing route with `forbidden_origin`.
 * @param action what the request asked to do, which the failure page says can only be done from this app's own pages
 */
export async function requireSameOrigin(request: Request, action: GuardedAction): Promise<void> {
  const { appUrl } = await serverConfig();
  const refusal = crossSiteRefusal(request.headers, appUrl, action);
  if (refusal) throw refusal;
}

/** The `forbidden_origin` refusal of a request to `action` with `headers`, or undefined when it may change state. */
export function crossSiteRefusal(headers: Headers, appUrl: string, action: GuardedAction): AppError | undefined {
  if (isSameOriginRequest(headers, appUrl)) return undefined;
  const origin = headers.get('origin');
  const from = originSent(origin);
  return new AppError('forbidden_origin', `${REFUSAL[action]}${whereFrom(origin, appUrl)}`, {
    kind: 'cross_site',
    action,
    ...(from ? { from } : {}),
    app: new URL(appUrl).origin,
  });
}

/**
 * What the refusal adds about the page the request came from: most often this very app opened
 * under another name (http://127.0.0.1:3000 for http://localhost:3000), which is then named. An
 * origin that is not a plain http(s) origin is quoted only by its length (quoteInput).
 */
export function whereFrom(origin: string | null, appUrl: string): string {
  const app = new URL(appUrl).origin;
  if (origin === null || origin === 'null') return `; this app’s address is ${app}`;
  const named = PLAIN_ORIGIN.test(origin) ? origin : quoteInput(origin);
  return `; it came from ${named}, and this app’s address is ${app} (APP_URL): open the app there and start again`;
}
