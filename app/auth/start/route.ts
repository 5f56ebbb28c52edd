import { requireSameOrigin } from '@/lib/server/origin';
import { failureRedirect } from '@/lib/server/failures';
import { preferences } from '@/lib/server/preferences';
import { redirect303 } from '@/lib/server/responses';
import { readStartForm } from '@/lib/server/selection-form';
import { services } from '@/lib/server/services';
import { bindBrowser } from '@/lib/server/session';
import { beginVerification, countStart } from '@/lib/server/verification';

/** POST /auth/start: PAR, then 303 to the authorization endpoint (ARCHITECTURE.md "A selection"). */
export async function POST(request: Request): Promise<Response> {
  try {
    await requireSameOrigin(request, 'start');
    const app = await services();
    // Counted before the form is read: an invalid start counts as much as a valid one.
    await countStart(app, request.headers);
    const form = await readStartForm(request);
    const visitor = { browser: await bindBrowser(), locale: (await preferences()).locale };
    return redirect303(await beginVerification(app, visitor, form));
  } catch (error) {
    return failureRedirect(error, request);
  }
}
