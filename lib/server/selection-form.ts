import 'server-only';
/**
 * The start form (POST /auth/start) read from its request: at most 16 KiB, urlencoded (an empty
 * body, whatever its type, is the default selection); decoded by lib/verification/selection.ts.
 */
import { readBoundedText } from '@/lib/oidc/http';
import { AppError } from '@/lib/verification/failures';
import { parseStartForm, type StartForm } from '@/lib/verification/selection';

/** The picker's form is a few hundred bytes; anything near this is not from it. */
const MAX_FORM_BYTES = 16 * 1024;

/** @throws AppError `invalid_selection` for a body too large, of another type, or not a valid selection */
export async function readStartForm(request: Request): Promise<StartForm> {
  const contentType = request.headers.get('content-type') ?? '';
  const body = await readBoundedText(request, MAX_FORM_BYTES);
  if (body === undefined)
    throw new AppError('invalid_selection', 'The start form is too large', { kind: 'form_too_large', form: 'start', maxBytes: MAX_FORM_BYTES });
  if (body.length > 0 && !contentType.startsWith('application/x-www-form-urlencoded')) {
    throw new AppError('invalid_selection', 'The start form must be sent as application/x-www-form-urlencoded', { kind: 'form_not_urlencoded' });
  }
  return parseStartForm(new URLSearchParams(body));
}
