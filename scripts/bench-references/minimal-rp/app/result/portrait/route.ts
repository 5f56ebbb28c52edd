import { cookies } from 'next/headers';
import { BROWSER_COOKIE, openBinding, relyingParty } from '../../../lib/relying-party.ts';

export const dynamic = 'force-dynamic';

/** GET /result/portrait: the portrait's bytes from this browser's verified claims (a JPEG or PNG data URI). */
export async function GET(): Promise<Response> {
  const browser = openBinding((await cookies()).get(BROWSER_COOKIE)?.value);
  const picture = browser === undefined ? undefined : relyingParty().results.get(browser)?.[0]?.claims.picture;
  const match = picture ? /^data:(image\/(?:jpeg|png));base64,([A-Za-z0-9+/=]+)$/.exec(picture) : null;
  if (!match) return new Response('no portrait', { status: 404 });
  return new Response(new Uint8Array(Buffer.from(match[2]!, 'base64')), {
    headers: { 'content-type': match[1]!, 'cache-control': 'private, no-store' },
  });
}
