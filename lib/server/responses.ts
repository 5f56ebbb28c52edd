import 'server-only';
/** How route handlers answer: 303 See Other after a state change, and failures to /error. */
import { serverConfig } from './env';
import { recordFailure } from './verification';

export function redirect303(location: string | URL): Response {
  return new Response(null, { status: 303, headers: { location: location.toString(), 'cache-control': 'no-store' } });
}

/** 303 to a page of this app (`path` with its query, resolved against APP_URL). */
export async function redirectToPage(path: string): Promise<Response> {
  return redirect303(new URL(path, (await serverConfig()).appUrl));
}

/** Records the failure and sends the browser to the failure page, which shows its code. */
export async function failureRedirect(error: unknown): Promise<Response> {
  try {
    const { appUrl } = await serverConfig();
    const failure = await recordFailure(error);
    const url = new URL('/error', appUrl);
    url.searchParams.set('code', failure.code);
    url.searchParams.set('id', failure.id);
    return redirect303(url);
  } catch (configError) {
    // The configuration itself is broken: there is no app URL to send anyone to.
    console.error('[idv] cannot record a failure', configError);
    return new Response('The app is misconfigured; see the server log.', { status: 500 });
  }
}
