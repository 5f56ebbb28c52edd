import { readBoundedText } from '@/lib/oidc/http';
import { failureRedirect, getFailure } from '@/lib/server/failures';
import { requireSameOrigin } from '@/lib/server/origin';
import { preferences } from '@/lib/server/preferences';
import { redirect303, redirectToPage } from '@/lib/server/responses';
import { services } from '@/lib/server/services';
import { bindBrowser, currentBrowser } from '@/lib/server/session';
import { beginVerification, countStart } from '@/lib/server/verification';
import { OWN_SELECTION_POLICY } from '@/lib/verification/policy';

/** The form holds one failure record's id. */
const MAX_FORM_BYTES = 1024;

/**
 * POST /failure/again: the failure page's "Try the same request again". The failed request's
 * selection and policy are read from its failure record on the server (`id`, this browser's own),
 * and started as POST /auth/start starts a form's: same-origin, counted against the same limit.
 * In emulator mode the embedded emulator answers the new flow as it answered the failed one (the
 * faults applied to it, the error chosen for it), so that the same request meets the same answer;
 * a real service is asked the plain same request. Without such a record (expired, signed out,
 * another browser's, or a failure whose request is not known), the picker.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    await requireSameOrigin(request, 'start');
    const app = await services();
    await countStart(app, request.headers);
    const body = await readBoundedText(request, MAX_FORM_BYTES);
    const id = body === undefined ? null : new URLSearchParams(body).get('id');
    const failure = id ? await getFailure(app, id, await currentBrowser()) : undefined;
    const record = failure?.own ? failure.record : undefined;
    if (!record?.request) return redirectToPage('/');
    const visitor = { browser: await bindBrowser(), locale: (await preferences()).locale };
    const { selection, policy } = record.request;
    return redirect303(await beginVerification(app, visitor, { selection, policy: policy ?? OWN_SELECTION_POLICY }, record.emulatorAnswer));
  } catch (error) {
    return failureRedirect(error, request);
  }
}
