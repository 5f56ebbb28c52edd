import { cookies } from 'next/headers';
import { completeAuthorization, isIdvError, type PendingAuthorization } from '@/lib/oidc';
import { BROWSER_COOKIE, openBinding, PENDING_TTL_MS, relyingParty } from '../../../lib/relying-party.ts';

/**
 * GET /auth/callback: the pending flow of this state, taken once and only by the browser that
 * started it; then the core checks the response (state, iss), exchanges the code with the PKCE
 * verifier, and decrypts and validates the ID token (signature, issuer, audience, nonce, times).
 * The verified claims are kept for this browser; 303 to /result.
 */
export async function GET(request: Request): Promise<Response> {
  const { rp, flows, results } = relyingParty();
  const params = new URL(request.url).searchParams;
  const browser = openBinding((await cookies()).get(BROWSER_COOKIE)?.value);
  const state = params.get('state');
  const flow = state === null ? undefined : flows.get(state);
  let pending: PendingAuthorization | undefined;
  if (browser && flow?.browser === browser) {
    flows.delete(state!);
    if (Date.now() - flow.pending.createdAt < PENDING_TTL_MS) pending = flow.pending;
  }
  try {
    // Without a pending flow of ours, the core refuses the state (state_mismatch).
    const { verifiedClaims } = await completeAuthorization(rp, params, pending);
    results.set(browser!, verifiedClaims);
    return new Response(null, { status: 303, headers: { location: '/result' } });
  } catch (error) {
    if (!isIdvError(error)) throw error;
    return new Response(`not verified: ${error.code}`, { status: 400 });
  }
}
