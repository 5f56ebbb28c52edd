import { requireSameOrigin } from '@/lib/server/origin';
import { failureRedirect } from '@/lib/server/failures';
import { redirectToPage } from '@/lib/server/responses';
import { services } from '@/lib/server/services';
import { currentBrowser, forgetBrowser } from '@/lib/server/session';
import { signOut } from '@/lib/server/verification';

/** POST /auth/signout: deletes the stored result and the session, then 303 home. */
export async function POST(request: Request): Promise<Response> {
  try {
    await requireSameOrigin(request, 'sign_out');
    await signOut(await services(), await currentBrowser());
    await forgetBrowser();
    return redirectToPage('/?signed_out=1');
  } catch (error) {
    return failureRedirect(error, request);
  }
}
