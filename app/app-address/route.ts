/**
 * GET /app-address?to=PATH: 307 to PATH (base64url, as it was requested) at APP_URL. proxy.ts rewrites here a page request that
 * arrived under another name of this server (lib/server/app-address.ts decides which), because
 * Next.js makes a Location that a proxy returns relative when its host is the one Next.js believes
 * it serves, which would loop; a route handler's Location goes out as it is. `to` can only name a
 * path at APP_URL's own origin, so a request made here directly goes nowhere else: never an open
 * redirect.
 */
import { appPath } from '@/lib/server/app-address';
import { serverConfig } from '@/lib/server/configuration';

export async function GET(request: Request): Promise<Response> {
  const { appUrl } = await serverConfig();
  const to = Buffer.from(new URL(request.url).searchParams.get('to') ?? '', 'base64url').toString('utf8');
  // Serialized by URL: a path or query with a character a header cannot carry goes percent-encoded.
  return new Response(null, { status: 307, headers: { location: new URL(appPath(to), appUrl).href, 'cache-control': 'no-store' } });
}

export const HEAD = GET;
