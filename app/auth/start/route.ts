import { failureRedirect, redirect303 } from '@/lib/server/responses';
import { readBoundedText } from '@/lib/oidc/http';
import { serverConfig } from '@/lib/server/env';
import { isSameOriginRequest } from '@/lib/server/origin';
import { parseSelectionForm } from '@/lib/server/selection-form';
import { beginVerification } from '@/lib/server/verification';
import { IdvError } from '@/lib/oidc';

/** The picker's form is a few hundred bytes; anything near this is not from it. */
const MAX_FORM_BYTES = 16 * 1024;

/** POST /auth/start: PAR, then 303 to the authorization endpoint (DESIGN.md route contract). */
export async function POST(request: Request): Promise<Response> {
  try {
    const { appUrl } = await serverConfig();
    if (!isSameOriginRequest(request.headers, appUrl)) {
      throw new IdvError('forbidden_origin', 'A verification can only be started from this app’s own pages');
    }
    const contentType = request.headers.get('content-type') ?? '';
    const body = await readBoundedText(request, MAX_FORM_BYTES);
    if (body === undefined) throw new IdvError('invalid_selection', 'The start form is too large');
    if (body.length > 0 && !contentType.startsWith('application/x-www-form-urlencoded')) {
      throw new IdvError('invalid_selection', 'The start form must be sent as application/x-www-form-urlencoded');
    }
    const selection = parseSelectionForm(new URLSearchParams(body));
    return redirect303(await beginVerification(selection));
  } catch (error) {
    return failureRedirect(error);
  }
}
