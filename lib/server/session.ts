import 'server-only';
/**
 * The session cookie (iron-session): only the secrets of pending authorizations (nonce and PKCE
 * verifier, keyed by state so two tabs can run flows at once) and the id of a stored result.
 * Never identity data, and nothing large: what a flow asked for waits server-side (DESIGN.md).
 */
import { cookies } from 'next/headers';
import { getIronSession, type IronSession, type SessionOptions } from 'iron-session';
import { serverConfig } from './env';

/** What the callback needs from the browser's own session to finish one flow. */
export interface PendingSecrets {
  nonce: string;
  codeVerifier: string;
  /** ms since the epoch */
  createdAt: number;
}

export interface SessionData {
  /** by state */
  pending?: Record<string, PendingSecrets>;
  resultId?: string;
}

const COOKIE_NAME = 'idv_rp_session';
/** A pending authorization outlives the request_uri (600 s) by a little, then goes. */
export const PENDING_TTL_MS = 15 * 60 * 1000;
/** Enough for a few tabs while the sealed cookie stays far below the browsers' 4 KB. */
export const MAX_PENDING = 5;
/** The session (pending flows and the pointer to a result) lasts an hour. */
const SESSION_TTL_SECONDS = 60 * 60;

export function sessionOptions(password: string, secure: boolean): SessionOptions {
  return {
    // `__Host-`: on https the cookie cannot be set by a sibling subdomain (cookie tossing).
    cookieName: secure ? `__Host-${COOKIE_NAME}` : COOKIE_NAME,
    password,
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
  };
}

export async function getSession(): Promise<IronSession<SessionData>> {
  const config = await serverConfig();
  const store = await cookies();
  const options = sessionOptions(config.sessionSecret, config.secureCookies);
  try {
    return await getIronSession<SessionData>(store, options);
  } catch {
    // A cookie that cannot be unsealed (tampered, or from another secret) must not lock the
    // browser out: start an empty session, whose next save() or destroy() replaces the cookie.
    const fresh = { get: () => undefined, set: store.set.bind(store) } as unknown as typeof store;
    return getIronSession<SessionData>(fresh, options);
  }
}

/** Keeps a new flow's secrets, dropping expired flows and the oldest beyond the limit. */
export function addPending(session: SessionData, state: string, secrets: PendingSecrets, now = Date.now()): void {
  const kept = Object.entries(session.pending ?? {})
    .filter(([, p]) => now - p.createdAt < PENDING_TTL_MS)
    .sort(([, a], [, b]) => a.createdAt - b.createdAt)
    .slice(-(MAX_PENDING - 1));
  session.pending = Object.fromEntries([...kept, [state, secrets]]);
}

/** Removes and returns a flow's secrets: each flow can be completed once. */
export function takePending(session: SessionData, state: string | null, now = Date.now()): PendingSecrets | undefined {
  if (!state || !session.pending || !Object.hasOwn(session.pending, state)) return undefined;
  const pending = session.pending[state];
  delete session.pending[state];
  return pending && now - pending.createdAt < PENDING_TTL_MS ? pending : undefined;
}
