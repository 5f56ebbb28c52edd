import { cookies } from 'next/headers';
import { DEFAULT_SELECTION, isIdvError, startAuthorization } from '@/lib/oidc';
import { BROWSER_COOKIE, cookieOptions, isSameOrigin, newBinding, openBinding, relyingParty } from '../../../lib/relying-party.ts';

/**
 * POST /auth/start: PAR through the core with the app's `full-kyc` selection (the core's
 * DEFAULT_SELECTION, as lib/verification/presets.ts has it), the flow kept by its state and bound
 * to this browser, then 303 to the authorization endpoint.
 */
export async function POST(request: Request): Promise<Response> {
  if (!isSameOrigin(request)) return new Response('cross-site start refused', { status: 403 });
  const form = await request.formData();
  if (form.get('preset') !== 'full-kyc') return new Response('unknown preset', { status: 400 });
  const { rp, flows } = relyingParty();
  const jar = await cookies();
  let browser = openBinding(jar.get(BROWSER_COOKIE)?.value);
  if (!browser) {
    const binding = newBinding();
    browser = binding.browser;
    jar.set(BROWSER_COOKIE, binding.cookie, cookieOptions());
  }
  try {
    const { authorizationUrl, pending } = await startAuthorization(rp, DEFAULT_SELECTION);
    flows.set(pending.state, { browser, pending });
    return new Response(null, { status: 303, headers: { location: authorizationUrl } });
  } catch (error) {
    if (!isIdvError(error)) throw error;
    return new Response(`not started: ${error.code}`, { status: 502 });
  }
}
