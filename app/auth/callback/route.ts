import { failureRedirect } from '@/lib/server/failures';
import { redirectToPage } from '@/lib/server/responses';
import { services } from '@/lib/server/services';
import { currentBrowser } from '@/lib/server/session';
import { finishVerification } from '@/lib/server/verification';

/** GET /auth/callback: check the response, exchange the code, validate the ID token, 303 to /result. */
export async function GET(request: Request): Promise<Response> {
  try {
    await finishVerification(await services(), await currentBrowser(), new URL(request.url).searchParams);
    return redirectToPage('/result');
  } catch (error) {
    return failureRedirect(error, request);
  }
}
