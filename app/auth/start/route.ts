import { requireSameOrigin } from '@/lib/server/origin';
import { failureRedirect, redirect303 } from '@/lib/server/responses';
import { readStartForm } from '@/lib/server/selection-form';
import { beginVerification } from '@/lib/server/verification';
import { preferences } from '@/lib/server/preferences';

/** POST /auth/start: PAR, then 303 to the authorization endpoint (README "How it works"). */
export async function POST(request: Request): Promise<Response> {
  try {
    await requireSameOrigin(request, 'A verification can only be started from this app’s own pages');
    return redirect303(await beginVerification(await readStartForm(request), request.headers));
  } catch (error) {
    return failureRedirect(error, (await preferences()).locale);
  }
}
