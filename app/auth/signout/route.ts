import { failureRedirect, redirect303 } from '@/lib/server/responses';
import { serverConfig } from '@/lib/server/env';
import { isSameOriginRequest } from '@/lib/server/origin';
import { signOut } from '@/lib/server/verification';
import { IdvError } from '@/lib/oidc';

/** POST /auth/signout: deletes the stored result and the session, then 303 home. */
export async function POST(request: Request): Promise<Response> {
  try {
    const { appUrl } = await serverConfig();
    if (!isSameOriginRequest(request.headers, appUrl)) {
      throw new IdvError('forbidden_origin', 'Sign-out can only be requested from this app’s own pages');
    }
    await signOut();
    return redirect303(new URL('/?signed_out=1', appUrl));
  } catch (error) {
    return failureRedirect(error);
  }
}
