/**
 * Who may use the QA panel's actions (rotate keys, arm faults, change entitlements). The panel
 * itself is a read-only page anyone who reaches the emulator may see; its actions are:
 * - `open`: anyone's (development and tests; the same-origin check of endpoints/panel.ts still
 *   holds);
 * - `read-only`: nobody's, with a reason the panel shows (a host running the emulator in
 *   production without a password);
 * - `password`: a browser's that signed in with the panel password. Sign-in attempts are limited
 *   per client address (10 per 15 minutes, every attempt counted before the password is
 *   compared, so a burst cannot slip through), and after three wrong passwords in a row from
 *   one address, each next attempt from it waits twice as long as the one before (2 s, 4 s, …
 *   up to a minute) until the right one. Both are kept per address, so that nobody's guesses
 *   hold back anyone else's sign-in. Only a high ceiling holds for all addresses together (100
 *   per 15 minutes, ten addresses' worth): addresses are cheap to come by, and many of them
 *   must still not guess fast. The comparison takes the same time whatever the guess, and
 *   a signed-in browser holds a random token in an HttpOnly, SameSite=Strict cookie
 *   scoped to the emulator's path. The sign-in is kept in the store (so every instance sharing
 *   the store knows it, and signing out ends it everywhere) and ends after an hour without use:
 *   each use, on any instance, renews it in the store, up to 12 hours after it began. Browsers
 *   send a host's cookies to every port of it, so a server on another port of the same host
 *   name can receive the cookie: the hour bounds what it could do with one.
 * @see endpoints/panel.ts; DECISIONS.md "QA panel"
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import { isLimitReached, type Store } from '../../store/store';

/** Who may use the panel's actions: the host's choice (EmulatorOptions.panel). */
export type PanelAccess = { mode: 'open' } | { mode: 'read-only'; reason: string } | { mode: 'password'; password: string };

/** Whether one browser may use the panel's actions, as the panel shows it. */
export type PanelAccessState = 'open' | 'read-only' | 'signed-out' | 'signed-in';

/** The shortest panel password accepted: long enough that 10 guesses per 15 minutes get nowhere. */
export const MIN_PANEL_PASSWORD_LENGTH = 12;

/** Sign-in attempts per client address in SIGN_IN_WINDOW_SECONDS, right or wrong. */
export const SIGN_IN_ATTEMPTS = 10;
/**
 * Sign-in attempts from all addresses together in SIGN_IN_WINDOW_SECONDS, right or wrong: a
 * ceiling ten addresses' worth high, so that one address (held to SIGN_IN_ATTEMPTS) cannot
 * reach it and lock the others out, while a thousand addresses still get no more guesses.
 */
export const SIGN_IN_ATTEMPTS_OVERALL = 100;
const SIGN_IN_WINDOW_SECONDS = 15 * 60;
/** Wrong passwords in a row from one address before each next attempt from it must wait. */
export const FREE_WRONG_PASSWORDS = 3;
/** The longest wait between attempts, in seconds. */
const MAX_BACK_OFF_SECONDS = 60;

/** One address's wrong passwords in a row, and when its next attempt may come (ms since the epoch). */
interface BackOff {
  wrong: number;
  notBefore: number;
}
/** Where one address's back-off is kept: in the store, so that every instance sharing it holds it. */
const backOffKey = (address: string) => `panel-sign-in-back-off:${address}`;

/** A sign-in ends after this long without use; each use renews it. */
export const SIGN_IN_IDLE_SECONDS = 3600;
/** A sign-in ends at the latest this long after it began, however much it is used (the cookie's Max-Age too). */
export const SIGN_IN_MAX_SECONDS = 12 * 3600;

/** A sign-in, as the store keeps it under its token's digest: when it began and was last used (ms since the epoch). */
interface PanelSession {
  signedInAt: number;
  usedAt: number;
}

/** The seconds `session` has left at `now`: until it has been idle an hour, or is 12 hours old. At most 0 when it has ended. */
function secondsLeft(session: PanelSession, now: number): number {
  return Math.min(session.usedAt + SIGN_IN_IDLE_SECONDS * 1000, session.signedInAt + SIGN_IN_MAX_SECONDS * 1000) / 1000 - now / 1000;
}

function isPanelSession(value: unknown): value is PanelSession {
  const session = value as Partial<PanelSession> | null | undefined;
  return typeof session === 'object' && session !== null && Number.isFinite(session.signedInAt) && Number.isFinite(session.usedAt);
}

const COOKIE_NAME = 'idv_emulator_panel';

/** Why a sign-in failed: a wrong password, or too many attempts (with the seconds to wait). */
export type SignInRefusal = { reason: 'wrong_password' } | { reason: 'too_many_attempts'; retryAfterSeconds: number };

export interface PanelGate {
  readonly access: PanelAccess;
  /**
   * The access state of the browser that sent `request`; a signed-in browser's asking is a use,
   * which renews its sign-in. @throws StoreError when the store cannot answer
   */
  state(request: Request): Promise<PanelAccessState>;
  /**
   * Checks `password` for the browser at `address`: the Set-Cookie header value that signs it
   * in, or why not. Only in `password` mode.
   * @throws StoreError when the store cannot count or remember
   */
  signIn(password: string, address: string): Promise<{ setCookie: string } | SignInRefusal>;
  /** Ends the sign-in of the browser that sent `request`; the Set-Cookie header value that clears its cookie. */
  signOut(request: Request): Promise<string>;
}

/**
 * The gate for one emulator: `store` keeps sign-ins and counts attempts; `issuer` gives the
 * cookie its path and, on https, the Secure attribute; `clock` (ms) times the back-off.
 * @throws Error when a password is shorter than MIN_PANEL_PASSWORD_LENGTH
 */
export function createPanelGate(access: PanelAccess, store: Store, issuer: string, clock: () => number = Date.now): PanelGate {
  if (access.mode === 'password' && access.password.length < MIN_PANEL_PASSWORD_LENGTH) {
    throw new Error(`the panel password must be at least ${MIN_PANEL_PASSWORD_LENGTH} characters long`);
  }
  const url = new URL(issuer);
  const cookie = { path: url.pathname === '/' ? '/' : url.pathname, httpOnly: true, sameSite: 'strict' as const, secure: url.protocol === 'https:' };
  const attempts = store.limiter('panel-sign-in', SIGN_IN_ATTEMPTS, SIGN_IN_WINDOW_SECONDS);
  const allAttempts = store.limiter('panel-sign-in-overall', SIGN_IN_ATTEMPTS_OVERALL, SIGN_IN_WINDOW_SECONDS);
  const expected = access.mode === 'password' ? digest(access.password) : undefined;
  const sessionKey = (token: string) => `panel-session:${digest(token).toString('base64url')}`;
  const tokenOf = (request: Request) => {
    const value = parseCookies(request.headers.get('cookie') ?? '')[COOKIE_NAME];
    return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
  };

  return {
    access,
    async state(request) {
      if (access.mode !== 'password') return access.mode;
      const token = tokenOf(request);
      if (!token) return 'signed-out';
      const key = sessionKey(token);
      const session = await store.get<PanelSession>(key);
      const now = clock();
      // The store's expiry ends an idle sign-in too; the emulator's clock is what decides when.
      if (!isPanelSession(session) || secondsLeft(session, now) <= 0) return 'signed-out';
      const renewed = { ...session, usedAt: now };
      // `replace`, not `set`: a sign-out on another instance meanwhile stays a sign-out.
      return (await store.replace(key, renewed, secondsLeft(renewed, now))) ? 'signed-in' : 'signed-out';
    },
    async signIn(password, address) {
      if (!expected) throw new Error('the panel has no password to sign in with');
      // This address waiting after its wrong passwords: the attempt is not counted, nor compared.
      const backOff = await store.get<BackOff>(backOffKey(address));
      const now = clock();
      if (backOff && backOff.notBefore > now) return { reason: 'too_many_attempts', retryAfterSeconds: Math.ceil((backOff.notBefore - now) / 1000) };
      try {
        await attempts.consume(address);
        await allAttempts.consume('all');
      } catch (error) {
        if (isLimitReached(error)) return { reason: 'too_many_attempts', retryAfterSeconds: error.retryAfterSeconds };
        throw error;
      }
      // Digests of equal length, compared in constant time: the time taken says nothing about the guess.
      if (!timingSafeEqual(digest(password), expected)) {
        const wrong = (backOff?.wrong ?? 0) + 1;
        const wait = wrong > FREE_WRONG_PASSWORDS ? Math.min(2 ** (wrong - FREE_WRONG_PASSWORDS), MAX_BACK_OFF_SECONDS) : 0;
        await store.set(backOffKey(address), { wrong, notBefore: now + wait * 1000 } satisfies BackOff, SIGN_IN_WINDOW_SECONDS);
        return { reason: 'wrong_password' };
      }
      await store.delete(backOffKey(address));
      const token = randomBytes(32).toString('base64url');
      await store.set(sessionKey(token), { signedInAt: now, usedAt: now } satisfies PanelSession, SIGN_IN_IDLE_SECONDS);
      return { setCookie: serializeCookie(COOKIE_NAME, token, { ...cookie, maxAge: SIGN_IN_MAX_SECONDS }) };
    },
    async signOut(request) {
      const token = tokenOf(request);
      if (token) await store.delete(sessionKey(token));
      return serializeCookie(COOKIE_NAME, '', { ...cookie, maxAge: 0 });
    },
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
