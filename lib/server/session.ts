import 'server-only';
/**
 * The session cookie (iron-session): only pending authorizations, keyed by state so two tabs can
 * run flows at once, and the id of a stored result. Never identity data (DESIGN.md).
 */
import { cookies } from 'next/headers';
import { getIronSession, type IronSession, type SessionOptions } from 'iron-session';
import type { PendingAuthorization } from '@/lib/oidc';
import { serverConfig } from './env';

export interface SessionData {
  pending?: Record<string, PendingAuthorization>;
  resultId?: string;
}

export const SESSION_COOKIE = 'idv_rp_session';
/** A pending authorization outlives the request_uri (600 s) by a little, then goes. */
export const PENDING_TTL_MS = 15 * 60 * 1000;
/** Enough for a few tabs; the cookie must stay small. */
const MAX_PENDING = 5;

export function sessionOptions(password: string, secure: boolean): SessionOptions {
  return {
    cookieName: SESSION_COOKIE,
    password,
    // the session ends with the browser; the stored result has its own TTL
    ttl: 0,
    cookieOptions: { httpOnly: true, sameSite: 'lax', secure, path: '/' },
  };
}

export async function getSession(): Promise<IronSession<SessionData>> {
  const config = await serverConfig();
  return getIronSession<SessionData>(await cookies(), sessionOptions(config.sessionSecret, config.secureCookies));
}

/** Adds a pending authorization, dropping expired ones and the oldest beyond the limit. */
export function addPending(session: SessionData, pending: PendingAuthorization, now = Date.now()): void {
  const kept = Object.values(session.pending ?? {})
    .filter((p) => now - p.createdAt < PENDING_TTL_MS)
    .sort((a, b) => a.createdAt - b.createdAt)
    .slice(-(MAX_PENDING - 1));
  session.pending = Object.fromEntries([...kept, pending].map((p) => [p.state, p]));
}

/** Removes and returns the pending authorization for a state: each can be completed once. */
export function takePending(session: SessionData, state: string | null, now = Date.now()): PendingAuthorization | undefined {
  if (!state || !session.pending || !Object.hasOwn(session.pending, state)) return undefined;
  const pending = session.pending[state];
  delete session.pending[state];
  return pending && now - pending.createdAt < PENDING_TTL_MS ? pending : undefined;
}
