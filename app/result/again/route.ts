import { requireSameOrigin } from '@/lib/server/origin';
import { failureRedirect } from '@/lib/server/failures';
import { preferences } from '@/lib/server/preferences';
import { redirect303, redirectToPage } from '@/lib/server/responses';
import { services } from '@/lib/server/services';
import { bindBrowser, currentBrowser } from '@/lib/server/session';
import { beginVerification, countStart, currentResult } from '@/lib/server/verification';
import { OWN_SELECTION_POLICY } from '@/lib/verification/policy';

/**
 * POST /result/again: the result's request again (the result page's "Run again"): the selection
 * and policy kept with the result, started as POST /auth/start starts a form's. Read on the
 * server, rather than sent back as hidden fields (the failure page's "Try the same request
 * again"), so the result page never holds a personal number to look up that it shows masked.
 * Without a result (expired, signed out), back to the result page, which says so.
 */
export async function POST(request: Request): Promise<Response> {
  try {
    await requireSameOrigin(request, 'start');
    const app = await services();
    await countStart(app, request.headers);
    const result = await currentResult(app, await currentBrowser());
    if (!result) return redirectToPage('/result');
    const visitor = { browser: await bindBrowser(), locale: (await preferences()).locale };
    return redirect303(await beginVerification(app, visitor, { selection: result.selection, policy: result.policy ?? OWN_SELECTION_POLICY }));
  } catch (error) {
    return failureRedirect(error, request);
  }
}
