import 'server-only';
/** How route handlers answer a state change: 303 See Other (failures: failures.ts). */
import { serverConfig } from './configuration';

export function redirect303(location: string | URL): Response {
  return new Response(null, { status: 303, headers: { location: location.toString(), 'cache-control': 'no-store' } });
}

/** 303 to a page of this app (`path` with its query, resolved against APP_URL). */
export async function redirectToPage(path: string): Promise<Response> {
  return redirect303(new URL(path, (await serverConfig()).appUrl));
}
