import 'server-only';
/**
 * The session cookie (iron-session) holds one thing: a random browser binding, set once and never
 * changed. Flow secrets (nonce, PKCE verifier) and the pointer to this browser's result live in
 * the store, bound to it (README "Run several instances"). So no response rewrites
 * anything another response needs: two tabs, or a callback delivered twice, cannot lose each
 * other's flow to the last cookie written, and any instance can serve any request.
 */
import { cookies } from 'next/headers';
import { getIronSession, sealData, type IronSession, type SessionOptions } from 'iron-session';
import { randomToken } from '@/lib/oidc';
import { serverConfig } from './env';

export interface SessionData {
  /** 32 random bytes, base64url: binds pending flows and the result to this browser */
  browser?: string;
}

const COOKIE_NAME = 'idv_rp_session';
/** A pending authorization outlives the request_uri (600 s) by a little, then goes. */
export const PENDING_TTL_MS = 15 * 60 * 1000;
/** The binding lasts a day of use; a flow or result outliving it is simply not found. */
const SESSION_TTL_SECONDS = 24 * 60 * 60;

export function sessionOptions(password: string, secure: boolean): SessionOptions {
  return {
    // `__Host-`: on https the cookie cannot be set by a sibling subdomain (cookie tossing).
    cookieName: secure ? `__Host-${COOKIE_NAME}` : COOKIE_NAME,
    password,
    ttl: SESSION_TTL_SECONDS,
    // A browser-session cookie (no Max-Age): it goes when the browser closes; the seal's own
    // lifetime still ends it after a day of an open browser.
    cookieOptions: { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: undefined },
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

/** This browser's binding; a request that comes without one gets one (and the cookie that carries it). */
export async function bindBrowser(session: IronSession<SessionData>): Promise<string> {
  if (!session.browser) {
    session.browser = randomToken(32);
    await session.save();
  }
  return session.browser;
}

/**
 * The Set-Cookie value of a new binding, for proxy.ts: the home page hands one out before any
 * form is posted, so two tabs that start at the same moment start under the same binding.
 * Sealed as iron-session seals, so `getSession` reads it.
 */
export async function newBindingCookie(): Promise<BindingCookie> {
  const config = await serverConfig();
  return bindingCookie(config.sessionSecret, config.secureCookies);
}

export interface BindingCookie {
  name: string;
  value: string;
  options: NonNullable<SessionOptions['cookieOptions']>;
}

/** A new binding, sealed with `password`, with the session cookie's name and attributes. */
export async function bindingCookie(password: string, secure: boolean): Promise<BindingCookie> {
  const options = sessionOptions(password, secure);
  const value = await sealData({ browser: randomToken(32) } satisfies SessionData, { password, ttl: SESSION_TTL_SECONDS });
  return { name: options.cookieName, value, options: { ...options.cookieOptions } };
}
