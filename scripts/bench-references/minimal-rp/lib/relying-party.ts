/**
 * The minimal relying party's state and configuration: the core (lib/oidc, copied in by the
 * bench), the flows waiting for their callback and the verified results, both in this process's
 * memory, and a browser binding in an HMAC-signed cookie. Kept on `globalThis`: Next.js may load
 * this module once for the pages and once for the route handlers, which must see the same maps.
 *
 * `@/lib/oidc` is the copy in the built app; in the repository (its tsconfig, `npm run typecheck`
 * and `npm run lint`) the same path names the core itself, so the template is checked against it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DiscoveryCache, JwksCache, type PendingAuthorization, type RelyingParty, type VerifiedClaims } from '@/lib/oidc';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required (scripts/bench-http.ts sets it)`);
  return value;
}

/** A flow between POST /auth/start and its callback, bound to the browser that started it. */
interface WaitingFlow {
  browser: string;
  pending: PendingAuthorization;
}

interface MinimalRelyingParty {
  rp: RelyingParty;
  appOrigin: string;
  secret: Buffer;
  /** by `state` */
  flows: Map<string, WaitingFlow>;
  /** by browser binding: the verified claims of its last verification */
  results: Map<string, VerifiedClaims[]>;
}

function create(): MinimalRelyingParty {
  const issuer = required('IDV_BASE_URL');
  const appOrigin = new URL(required('APP_URL')).origin;
  // Plain http only for a provider on this machine.
  const http = { allowInsecureRequests: /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(new URL(issuer).hostname) };
  const rp: RelyingParty = {
    issuer,
    client: {
      clientId: required('IDV_CLIENT_ID'),
      redirectUri: `${appOrigin}/auth/callback`,
      signingKey: JSON.parse(required('IDV_SIGNING_KEY')),
      encryptionKey: JSON.parse(required('IDV_ENCRYPTION_KEY')),
    },
    discovery: new DiscoveryCache(http),
    jwks: new JwksCache(http),
    http,
  };
  return { rp, appOrigin, secret: Buffer.from(required('SESSION_SECRET')), flows: new Map(), results: new Map() };
}

const globalForRelyingParty = globalThis as typeof globalThis & { __minimalRelyingParty?: MinimalRelyingParty };

export function relyingParty(): MinimalRelyingParty {
  globalForRelyingParty.__minimalRelyingParty ??= create();
  return globalForRelyingParty.__minimalRelyingParty;
}

/** A pending flow older than this is refused at its callback (the request object lives 300 s). */
export const PENDING_TTL_MS = 10 * 60 * 1000;

export const BROWSER_COOKIE = 'rp-browser';

function signature(browser: string, secret: Buffer): string {
  return createHmac('sha256', secret).update(browser).digest('base64url');
}

/** A new browser binding as its cookie value: a random id and its HMAC. */
export function newBinding(): { browser: string; cookie: string } {
  const browser = randomBytes(24).toString('base64url');
  return { browser, cookie: `${browser}.${signature(browser, relyingParty().secret)}` };
}

/** The browser binding a cookie value carries, if its HMAC is ours. */
export function openBinding(cookie: string | undefined): string | undefined {
  const [browser, mac] = cookie?.split('.') ?? [];
  if (!browser || !mac) return undefined;
  const expected = Buffer.from(signature(browser, relyingParty().secret));
  const received = Buffer.from(mac);
  return expected.length === received.length && timingSafeEqual(expected, received) ? browser : undefined;
}

/** The attributes of the binding's cookie: unreadable by scripts, sent on top-level navigations back from the provider. */
export function cookieOptions(): { httpOnly: true; sameSite: 'lax'; path: '/'; secure: boolean } {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: relyingParty().appOrigin.startsWith('https:') };
}

/** Whether a state-changing request comes from this app's own pages (a cross-site form post does not). */
export function isSameOrigin(request: Request): boolean {
  return request.headers.get('origin') === relyingParty().appOrigin;
}
