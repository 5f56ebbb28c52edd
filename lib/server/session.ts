import 'server-only';
/**
 * The session cookie holds one thing: a random browser binding, sealed by iron-session (`sealData`,
 * `unsealData`), set once and never changed. Flow secrets (nonce, PKCE verifier) and the pointer to
 * this browser's result live in the store, bound to it (docs/operations.md "Run several instances"). So no
 * response rewrites anything another response needs: two tabs, or a callback delivered twice,
 * cannot lose each other's flow to the last cookie written, and any instance can serve any request.
 *
 * Every seal carries its expiry (a day) and a seal without one, or with a longer one, is not a
 * binding: iron-session's own `getIronSession` seals without an expiry when the cookie has no
 * `Max-Age` (a browser-session cookie, as this one is), which would make a binding permanent.
 */
import { cookies } from 'next/headers';
import { sealData, unsealData } from 'iron-session';
import { randomToken } from '@/lib/oidc';
import { serverConfig } from './configuration';

export interface SessionData {
  /** 32 random bytes, base64url: binds pending flows and the result to this browser */
  browser?: string;
}

const COOKIE_NAME = 'idv_rp_session';
/** A pending authorization outlives the request_uri (600 s) by a little, then goes. */
export const PENDING_TTL_MS = 15 * 60 * 1000;
/** The binding lasts a day of use; a flow or result outliving it is simply not found. */
export const SESSION_TTL_SECONDS = 24 * 60 * 60;
/** The clock skew iron-session allows when it checks a seal's expiry. */
const SKEW_MS = 60 * 1000;
const BINDING = /^[A-Za-z0-9_-]{43}$/;

export interface BindingCookie {
  name: string;
  value: string;
  options: { httpOnly: true; sameSite: 'lax'; secure: boolean; path: '/' };
}

/**
 * The cookie's name and attributes. `__Host-` on https: the cookie cannot be set by a sibling
 * subdomain (cookie tossing). No `Max-Age`: a browser-session cookie, gone when the browser
 * closes; the seal's own expiry ends it after a day of an open browser.
 */
export function sessionCookie(secure: boolean): Omit<BindingCookie, 'value'> {
  return { name: secure ? `__Host-${COOKIE_NAME}` : COOKIE_NAME, options: { httpOnly: true, sameSite: 'lax', secure, path: '/' } };
}

/**
 * When a seal expires (ms since the epoch), read from its expiry field (Iron's sixth, `*`
 * separated, before iron-session's `~2` version suffix); undefined when it has none.
 */
export function sealExpiry(seal: string): number | undefined {
  const field = seal.split('~')[0]!.split('*')[5];
  return field !== undefined && /^\d{1,15}$/.test(field) ? Number(field) : undefined;
}

/** How many seals this process remembers having opened or made (about 300 bytes each). */
export const OPENED_SEALS_KEPT = 4096;

/**
 * Seals this process made or opened, and the binding in each, for one password: a browser sends
 * the same cookie with every request, and opening it again would derive Iron's keys again each
 * time (the costliest part of a request that reads the session). A seal is looked up only once its
 * expiry (read from the seal, which its MAC covers) is checked again, so a remembered seal ends
 * when it would have. The least recently used goes first.
 */
const opened: { password: string; seals: Map<string, string> } = { password: '', seals: new Map() };

function remember(password: string, seal: string, browser: string): void {
  if (opened.password !== password) Object.assign(opened, { password, seals: new Map() });
  opened.seals.delete(seal);
  opened.seals.set(seal, browser);
  if (opened.seals.size > OPENED_SEALS_KEPT) opened.seals.delete(opened.seals.keys().next().value!);
}

function recall(password: string, seal: string): string | undefined {
  if (opened.password !== password) return undefined;
  const browser = opened.seals.get(seal);
  if (browser !== undefined) remember(password, seal, browser);
  return browser;
}

/**
 * The binding in a cookie value, or undefined when it is none: not sealed with `password`,
 * expired, or sealed without an expiry or with a longer one than a binding has.
 */
export async function openBinding(value: string | undefined, password: string, now = Date.now()): Promise<string | undefined> {
  if (!value || value.length > 1024) return undefined;
  const expiry = sealExpiry(value);
  if (expiry === undefined || expiry > now + SESSION_TTL_SECONDS * 1000 + SKEW_MS || expiry <= now - SKEW_MS) return undefined;
  const recalled = recall(password, value);
  if (recalled !== undefined) return recalled;
  try {
    const { browser } = await unsealData<SessionData>(value, { password, ttl: SESSION_TTL_SECONDS });
    if (typeof browser !== 'string' || !BINDING.test(browser)) return undefined;
    remember(password, value, browser);
    return browser;
  } catch {
    return undefined;
  }
}

/** A new binding, sealed with `password` for a day, with the session cookie's name and attributes. */
export async function bindingCookie(password: string, secure: boolean): Promise<BindingCookie & { browser: string }> {
  const browser = randomToken(32);
  const value = await sealData({ browser } satisfies SessionData, { password, ttl: SESSION_TTL_SECONDS });
  remember(password, value, browser);
  return { ...sessionCookie(secure), value, browser };
}

/** This browser's binding, if its request carries a valid one; never sets a cookie. */
export async function currentBrowser(): Promise<string | undefined> {
  const config = await serverConfig();
  return openBinding((await cookies()).get(sessionCookie(config.secureCookies).name)?.value, config.sessionSecret);
}

/**
 * This browser's binding; a request that comes without a valid one gets a new one (and the
 * cookie that carries it). Only in a route handler, which may set cookies.
 */
export async function bindBrowser(): Promise<string> {
  const existing = await currentBrowser();
  if (existing) return existing;
  const config = await serverConfig();
  const { name, value, options, browser } = await bindingCookie(config.sessionSecret, config.secureCookies);
  (await cookies()).set(name, value, options);
  return browser;
}

/** Sign-out: the cookie goes (the records it bound are deleted by the caller). */
export async function forgetBrowser(): Promise<void> {
  const config = await serverConfig();
  const { name, options } = sessionCookie(config.secureCookies);
  (await cookies()).set(name, '', { ...options, maxAge: 0 });
}

/**
 * The Set-Cookie value of a new binding, for proxy.ts: the home page hands one out before any
 * form is posted, so two tabs that start at the same moment start under the same binding.
 */
export async function newBindingCookie(): Promise<BindingCookie> {
  const config = await serverConfig();
  const { name, value, options } = await bindingCookie(config.sessionSecret, config.secureCookies);
  return { name, value, options };
}

/** Whether a request's cookie value holds a valid binding (proxy.ts hands out a new one otherwise). */
export async function holdsBinding(value: string | undefined): Promise<boolean> {
  return (await openBinding(value, (await serverConfig()).sessionSecret)) !== undefined;
}
