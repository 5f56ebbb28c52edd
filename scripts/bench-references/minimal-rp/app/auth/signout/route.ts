import { cookies } from 'next/headers';
import { BROWSER_COOKIE, cookieOptions, isSameOrigin, openBinding, relyingParty } from '../../../lib/relying-party.ts';

/** POST /auth/signout: the browser's result and its cookie go; 303 home. */
export async function POST(request: Request): Promise<Response> {
  if (!isSameOrigin(request)) return new Response('cross-site sign-out refused', { status: 403 });
  const jar = await cookies();
  const browser = openBinding(jar.get(BROWSER_COOKIE)?.value);
  if (browser) relyingParty().results.delete(browser);
  jar.set(BROWSER_COOKIE, '', { ...cookieOptions(), maxAge: 0 });
  return new Response(null, { status: 303, headers: { location: '/?signed_out=1' } });
}
