import { failureRedirect, redirect303 } from '@/lib/server/responses';
import { finishVerification } from '@/lib/server/verification';
import { serverConfig } from '@/lib/server/env';

/** GET /auth/callback: check the response, exchange the code, validate the ID token, 303 to /result. */
export async function GET(request: Request): Promise<Response> {
  try {
    await finishVerification(new URL(request.url).searchParams);
    return redirect303(new URL('/result', (await serverConfig()).appUrl));
  } catch (error) {
    return failureRedirect(error);
  }
}
