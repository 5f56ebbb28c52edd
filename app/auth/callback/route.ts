import { failureRedirect } from '@/lib/server/failures';
import { redirectToPage } from '@/lib/server/responses';
import { finishVerification } from '@/lib/server/verification';

/** GET /auth/callback: check the response, exchange the code, validate the ID token, 303 to /result. */
export async function GET(request: Request): Promise<Response> {
  try {
    await finishVerification(new URL(request.url).searchParams);
    return redirectToPage('/result');
  } catch (error) {
    return failureRedirect(error, request);
  }
}
