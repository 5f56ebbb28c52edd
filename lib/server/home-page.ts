import 'server-only';
/**
 * The home page, rendered once for every visitor who sees the same page, not once per request.
 *
 * `GET /` (app/route.ts) answers from here. What the page shows depends only on the visitor's
 * preferences (language, theme, presenter mode), whether they just signed out, and the service's
 * health: the configuration is the process's, the trust frameworks the service's. So it is
 * rendered per combination of those, by the page itself (`GET /home-page`, app/home-page/page.tsx) asked
 * over this server's own loopback address, and kept for `FRESH_MS`; an older copy is served while
 * the next one renders. A shared link (`/?preset=…`) is not served from here: proxy.ts sends it to
 * `/home-page`, rendered for its request.
 *
 * A page rendered once cannot carry a per-response nonce: it is rendered without one (proxy.ts
 * leaves the nonce out when `SHARED_RENDER_HEADER` asks) and served with a policy that allows its
 * scripts by their hashes (lib/server/hashed-page.ts). Should the page not be one that can be
 * (`UnhashablePage`), or not render, the visitor gets it rendered for their request, with a nonce,
 * as every other page is.
 *
 * A kept page is also kept gzipped, compressed once when it is rendered: a browser that accepts
 * gzip gets those bytes as they are. Next.js would otherwise gzip the page again at every request
 * (its `compress`), and a route handler cannot say that its body is already encoded (Next.js drops
 * a handler's `Content-Encoding`), so next.config.mjs says it for `GET /` when `GZIP_ACCEPTED`
 * matches the request's `Accept-Encoding`; Next.js's own compression then leaves the response
 * alone, as it does any response already encoded. app/route.ts answers every such request gzipped.
 */
import { request as httpRequest } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { contentSecurityPolicy } from './content-security-policy';
import { hashPage, UnhashablePage } from './hashed-page';
import { LANGUAGE_COOKIE, PRESENTER_COOKIE, THEME_COOKIE, type Preferences } from './preferences';

/** The home page rendered per request: a shared link's, and the one this module keeps. */
export const HOME_PAGE_PATH = '/home-page';
/** Asks proxy.ts to render a page without a nonce, to be served with hashes. */
export const SHARED_RENDER_HEADER = 'x-idv-shared-render';
/** How long a rendered home page is served before the next render replaces it. */
export const FRESH_MS = 15_000;
/** The most variants kept: 2 languages × 3 themes × 2 presenter modes × 2 (signed out or not) × a few health states. */
const MAX_KEPT = 96;
const RENDER_TIMEOUT_MS = 10_000;

export interface HomeVariant extends Preferences {
  signedOut: boolean;
  /** the header badge's state (lib/server/service-health.ts), as a key */
  health: string;
}

export interface ServedPage {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** `body` gzipped, when the page is kept (compressed once, for every browser that accepts gzip) */
  gzipped?: Buffer<ArrayBuffer>;
}

/**
 * The `Accept-Encoding` values that take gzip: `gzip` listed as a coding, without `q=0` (RFC 9110
 * 12.5.3). A pattern as next.config.mjs's `has` conditions take it: the whole value must match
 * (Next.js anchors it, `^(…)$`), so next.config.mjs and `acceptsGzip` decide alike by construction
 * (test/home-page-encoding.test.ts keeps the two strings the same). `x-gzip`, `*` and upper case are
 * not taken: such a browser gets the page as it is, which it always accepts.
 */
export const GZIP_ACCEPTED = String.raw`(?:.*,)?\s*gzip\s*(?:;\s*q=(?!0(?:\.0*)?\s*(?:,|$))[01](?:\.\d{0,3})?\s*)?(?:,.*)?`;
const gzipAccepted = new RegExp(`^${GZIP_ACCEPTED}$`);

/** Whether a request with this `Accept-Encoding` gets `GET /` gzipped (next.config.mjs has said so to Next.js). */
export function acceptsGzip(acceptEncoding: string | null | undefined): boolean {
  return !!acceptEncoding && gzipAccepted.test(acceptEncoding);
}

export const gzipped: (body: string | Uint8Array) => Promise<Buffer<ArrayBuffer>> = promisify(gzip);

export interface RenderContext {
  /** this server's own address, e.g. http://127.0.0.1:3000 */
  origin: string;
  /** the Host the page is rendered for: APP_URL's, so that it is not sent elsewhere (lib/server/app-address.ts) */
  host: string;
  development: boolean;
  https: boolean;
}

/** Headers of the rendered page that the served one keeps; the others are the route's own (next.config.mjs) or per connection. */
const KEPT_HEADERS = ['content-type', 'link'];
/** The policy a page rendered for one request came with (proxy.ts), its nonce the one on its scripts. */
const POLICY_HEADER = 'content-security-policy';
/** As Next.js sends its pages rendered per request: the page depends on cookies, and no shared cache keeps it. */
const CACHE_CONTROL = 'private, no-cache, no-store, max-age=0, must-revalidate';

/**
 * This server's own address, to ask it for a page: Next.js listens on HOSTNAME (scripts/start.mjs
 * sets it from HOST) and PORT; a wildcard or `localhost` is reached on 127.0.0.1.
 */
export function ownOrigin(env: Record<string, string | undefined> = process.env): string {
  const host = env.HOSTNAME?.trim();
  const address = !host || host === '0.0.0.0' || host === '::' || host === 'localhost' ? '127.0.0.1' : host;
  return `http://${address.includes(':') ? `[${address}]` : address}:${env.PORT || '3000'}`;
}

function variantKey(variant: HomeVariant): string {
  return JSON.stringify([variant.locale, variant.theme, variant.presenter, variant.signedOut, variant.health]);
}

function pathOf(variant: Pick<HomeVariant, 'signedOut'>): string {
  return variant.signedOut ? `${HOME_PAGE_PATH}?signed_out=1` : HOME_PAGE_PATH;
}

/** The cookies that ask the page for these preferences (the language chosen, so Accept-Language plays no part). */
function preferenceCookieHeader({ locale, theme, presenter }: Preferences): string {
  return `${LANGUAGE_COOKIE}=${locale}; ${THEME_COOKIE}=${theme}; ${PRESENTER_COOKIE}=${presenter ? 'on' : 'off'}`;
}

/** GET `path` from this server; the status, `kept` headers and body as received (uncompressed). */
export function fetchOwnPage(origin: string, path: string, headers: Record<string, string>, kept: readonly string[] = KEPT_HEADERS): Promise<ServedPage> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(path, origin), { headers: { ...headers, 'accept-encoding': 'identity' }, timeout: RENDER_TIMEOUT_MS }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', reject);
      incoming.on('end', () => {
        const keptHeaders: Record<string, string> = {};
        for (const name of kept) {
          const value = incoming.headers[name];
          if (typeof value === 'string') keptHeaders[name] = value;
        }
        resolve({ status: incoming.statusCode ?? 502, headers: keptHeaders, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`${path} did not render within ${RENDER_TIMEOUT_MS / 1000} s`)));
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/**
 * The page for `variant`, rendered without a nonce and made to be served with hashes.
 * @throws UnhashablePage when it is not a page that can be; an Error when it did not render (not 200)
 */
async function renderShared(variant: HomeVariant, context: RenderContext): Promise<ServedPage> {
  const rendered = await fetchOwnPage(context.origin, pathOf(variant), {
    host: context.host,
    cookie: preferenceCookieHeader(variant),
    [SHARED_RENDER_HEADER]: '1',
  });
  if (rendered.status !== 200) throw new Error(`${pathOf(variant)} answered HTTP ${rendered.status}`);
  const { html, scriptHashes } = hashPage(rendered.body);
  return {
    status: 200,
    headers: {
      ...rendered.headers,
      'content-security-policy': contentSecurityPolicy({ scriptHashes, development: context.development, https: context.https }),
      'cache-control': CACHE_CONTROL,
    },
    body: html,
    gzipped: await gzipped(html),
  };
}

/**
 * The page for `variant` rendered for this one request, with its own policy and the nonce its
 * scripts carry (as proxy.ts gives every page): whatever it answered, an error page included.
 * @throws Error when it came without a policy: served so, its scripts would run unchecked
 */
export async function renderForRequest(variant: Omit<HomeVariant, 'health'>, context: Pick<RenderContext, 'origin' | 'host'>): Promise<ServedPage> {
  const rendered = await fetchOwnPage(context.origin, pathOf(variant), { host: context.host, cookie: preferenceCookieHeader(variant) }, [...KEPT_HEADERS, POLICY_HEADER]);
  if (!rendered.headers[POLICY_HEADER]?.includes("'nonce-")) throw new Error(`${pathOf(variant)} came without a Content-Security-Policy with a nonce`);
  return { ...rendered, headers: { ...rendered.headers, 'cache-control': CACHE_CONTROL } };
}

/** The kept renders, one per variant. */
export class HomePages {
  readonly #kept = new Map<string, { page: ServedPage; renderedAt: number }>();
  readonly #rendering = new Map<string, Promise<ServedPage>>();
  /** variants whose page cannot be served with hashes, until when (they are rendered per request meanwhile) */
  readonly #unhashable = new Map<string, number>();

  /**
   * @param render renders a variant's page, to be served with hashes
   * @param freshMs how long a render is served as it is: FRESH_MS, or 0 under `next dev`, where
   *   every request renders, so that an edited page shows at once
   */
  constructor(
    private readonly render: (variant: HomeVariant) => Promise<ServedPage>,
    private readonly freshMs = FRESH_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The page for `variant`: kept and fresh; kept but older (then rendered anew behind it); or
   * rendered now. Undefined when it cannot be served with hashes: the caller renders it for the
   * request. A failed render of a kept page keeps the older copy; with none, the error is thrown.
   */
  async page(variant: HomeVariant): Promise<ServedPage | undefined> {
    const key = variantKey(variant);
    if ((this.#unhashable.get(key) ?? 0) > this.now()) return undefined;
    const kept = this.#kept.get(key);
    if (kept && this.now() - kept.renderedAt < this.freshMs) return kept.page;
    const rendering = this.#renderOnce(key, variant);
    if (kept && this.freshMs > 0) {
      // Served as it is; the next render replaces it, or, failing, leaves it for the next request to try again.
      rendering.catch((error: unknown) => console.error(`[idv] the home page did not render again; the older copy is served meanwhile: ${String(error)}`));
      return kept.page;
    }
    try {
      return await rendering;
    } catch (error) {
      if (error instanceof UnhashablePage) return undefined;
      throw error;
    }
  }

  #renderOnce(key: string, variant: HomeVariant): Promise<ServedPage> {
    const pending = this.#rendering.get(key);
    if (pending) return pending;
    const rendering = this.render(variant)
      .then((page) => {
        this.#kept.delete(key);
        this.#kept.set(key, { page, renderedAt: this.now() });
        if (this.#kept.size > MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
        return page;
      })
      .catch((error: unknown) => {
        if (error instanceof UnhashablePage) {
          // Said once in a while, not per request; a later build or version of Next.js may hash again.
          console.error(`[idv] the home page is rendered per request: ${error.message}`);
          this.#unhashable.set(key, this.now() + Math.max(this.freshMs, 1000));
          this.#kept.delete(key);
        }
        throw error;
      })
      .finally(() => this.#rendering.delete(key));
    this.#rendering.set(key, rendering);
    return rendering;
  }
}

/** The renderer of the running server. */
export function sharedRenderer(context: RenderContext): (variant: HomeVariant) => Promise<ServedPage> {
  return (variant) => renderShared(variant, context);
}
