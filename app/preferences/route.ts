import { serialize } from 'cookie';
import { readBoundedText } from '@/lib/oidc/http';
import { AppError } from '@/lib/verification/failures';
import { serverConfig } from '@/lib/server/configuration';
import { requireSameOrigin } from '@/lib/server/origin';
import { parsePreferenceForm, preferenceCookies, returnPath } from '@/lib/server/preferences';
import { failureRedirect } from '@/lib/server/failures';
import { redirectToPage } from '@/lib/server/responses';

/** The switches' form is a few bytes. */
const MAX_FORM_BYTES = 1024;

/**
 * POST /preferences: a switch of the page header (presenter mode), a same-origin form post.
 * Remembers it in a cookie and sends the browser back (303) to the page it came from.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    await requireSameOrigin(request, 'settings');
    const config = await serverConfig();
    const body = await readBoundedText(request, MAX_FORM_BYTES);
    if (body === undefined)
      throw new AppError('invalid_preference', 'The settings form is too large', { kind: 'form_too_large', form: 'settings', maxBytes: MAX_FORM_BYTES });
    const change = parsePreferenceForm(new URLSearchParams(body));
    const response = await redirectToPage(returnPath(request.headers.get('referer'), config.appUrl));
    for (const { name, value, options } of preferenceCookies(change, config.secureCookies))
      response.headers.append('set-cookie', serialize(name, value, options));
    return response;
  } catch (error) {
    return failureRedirect(error, request);
  }
}
