import { requireSameOrigin } from '@/lib/server/origin';
import { failureRedirect } from '@/lib/server/failures';
import { redirect303 } from '@/lib/server/responses';
import { readStartForm } from '@/lib/server/selection-form';
import { beginVerification, countStart } from '@/lib/server/verification';

/** POST /auth/start: PAR, then 303 to the authorization endpoint (ARCHITECTURE.md "A selection"). */
export async function POST(request: Request): Promise<Response> {
  try {
    await requireSameOrigin(request, 'A verification can only be started from this app’s own pages');
    // Counted before the form is read: an invalid start counts as much as a valid one.
    await countStart(request.headers);
    return redirect303(await beginVerification(await readStartForm(request)));
  } catch (error) {
    return failureRedirect(error, request);
  }
}
