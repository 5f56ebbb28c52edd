/**
 * An emulator of the identity verification service: every endpoint of part 4 as a plain
 * `(Request) => Promise<Response>` function, with the rules of parts 2, 5 and 7 enforced.
 * Framework-free: a Next.js route (or any server, or a test) passes requests to `handle`.
 * @see spec part 4; DECISIONS.md (the emulator's choices where the spec says "not shown")
 */
import { checkRegisteredClients, type RegisteredClient } from './clients';
import { ENDPOINT_PATHS } from './config';
import { createContext, type EmulatorContext } from './context';
import { authorizationDecisionEndpoint, authorizationEndpoint } from './endpoints/authorization';
import { discoveryEndpoint } from './endpoints/discovery';
import { jwksEndpoint } from './endpoints/jwks';
import { languageEndpoint } from './endpoints/language';
import { pushedAuthorizationRequestEndpoint } from './endpoints/par';
import { tokenEndpoint } from './endpoints/token';
import { MemoryStore } from '../store/memory-store';
import { isStoreError, type Store } from '../store/store';
import { checkRateLimits, createRateLimiter, type RateLimitGroup, type RateLimits } from './checks/rate-limits';
import { MethodNotAllowed, NotFound, OAuthError, ServerError, TemporarilyUnavailable, TooManyRequests } from './errors';
import { appActionEndpoint, appScreenEndpoint } from './endpoints/identity-app';
import {
  authorizationContinueEndpoint,
  authorizationPageEndpoint,
  authorizationPageScriptEndpoint,
  authorizationStatusEndpoint,
} from './endpoints/hand-off';
import { portraitEndpoint } from './endpoints/portraits';
import { createControl, type EmulatorControl } from './qa/control';
import { PANEL_ACTION_PATH, panelActionEndpoint, panelEndpoint } from './endpoints/panel';
import type { PanelAccess } from './qa/panel-access';
import { errorPage } from './views/authorization-page';
import { homePath, pageLanguage } from './views/language';
import { EMULATOR_MESSAGES } from './views/messages';
import { panelErrorPage } from './views/panel-page';

export { POPULATION_REGISTER_NAME } from './checks/claims-request';
export { RATE_LIMITS, checkRateLimits, type RateLimitGroup, type RateLimits } from './checks/rate-limits';
export { parseRegisteredClients, type RegisteredClient } from './clients';
export {
  ID_TOKEN_CONTENT_ENCRYPTIONS,
  ID_TOKEN_ENCRYPTION_ALGORITHMS,
  type IdTokenContentEncryption,
  type IdTokenEncryption,
  type IdTokenEncryptionAlgorithm,
} from './config';
export { personas, type Persona } from './personas/personas';
export type { ClientInfo, EmulatorControl, SigningKeyInfo } from './qa/control';
export { MIN_PANEL_PASSWORD_LENGTH, type PanelAccess } from './qa/panel-access';
export { FAULTS, isFaultId, type ExpectedRpError, type Fault, type FaultId, type FaultTarget, type InjectedFault } from './qa/faults';

/** @see spec part 4 */
export interface EmulatorOptions {
  /**
   * The base URL = the issuer, without a trailing slash, e.g. "http://localhost:3000/emulator".
   * Endpoints are this plus "/.well-known/openid-configuration", "/jwks", "/par", "/auth", "/token".
   */
  baseUrl: string;
  /**
   * The base URL as a phone on the same network reaches it, e.g. "http://192.168.1.20:3000/emulator":
   * the authorization page's QR code opens the identity app there. Same path as `baseUrl`, since
   * requests are routed by path. Default: `baseUrl`.
   */
  deviceBaseUrl?: string;
  /**
   * `{flow_url}` (part 4): the base URL under which discovery advertises the authorization
   * endpoint, e.g. on another origin ("http://localhost:3102/emulator"). Same path as `baseUrl`;
   * the host routes that origin's requests to `handle` too. Default: `baseUrl`.
   */
  flowBaseUrl?: string;
  clients: RegisteredClient[];
  /** clock in ms, for tests (default `Date.now`) */
  now?: () => number;
  /**
   * Where all state is kept: flows in progress (pushed requests, interactions, codes, seen client
   * assertions, the subject salt), the signing key ring, armed faults and changed entitlements.
   * Default: this instance's memory. Pass a shared store (Redis) and every instance serves every
   * step of a flow, one-time items consumed once across them, with one JWKS and one set of faults.
   */
  store?: Store;
  /**
   * Requests per minute per client address for each group of endpoints (checks/rate-limits.ts),
   * counted in `store`; over a limit, 429 with `Retry-After`. Default `RATE_LIMITS`; `false`
   * turns them off (a benchmark).
   */
  rateLimits?: Partial<RateLimits> | false;
  /**
   * The client address of a request, for the rate limits. A host passes its own (one that
   * honours the proxies it trusts). Default: none, so all requests share one budget per group.
   */
  clientAddress?: (request: Request) => string;
  /**
   * Who may use the QA panel's actions (qa/panel-access.ts): `{ mode: 'open' }` (the default),
   * `{ mode: 'read-only', reason }` (the panel shows the reason), or `{ mode: 'password', password }`
   * (a sign-in form; at least 12 characters). A host that serves the emulator to the public must
   * not leave it open: the actions change what every user of the emulator gets.
   */
  panel?: PanelAccess;
  /**
   * The population register's name, which register evidence must request in
   * `record.source.name` and which the ID token names (spec 2.3 gives only
   * `<population_register_name>`). Default POPULATION_REGISTER_NAME, 'Folkeregisteret'.
   */
  populationRegisterName?: string;
  /**
   * The strict level: anything the spec does not list or shape is refused (request object and
   * client assertion claims, PAR, token and authorization parameters, the claims request), and
   * an ID token never carries an empty `document_details`. Default `false`: what the RFCs allow
   * (DECISIONS.md "Levels"). This is the level at start; QA may switch it at run time (control
   * `setStrict`, the panel), for every instance sharing `store`.
   */
  strict?: boolean;
  /**
   * Whether the redirect back to the client carries `iss` (RFC 9207) and discovery advertises
   * `authorization_response_iss_parameter_supported`. Default `true`. The value at start; QA may
   * switch it at run time (control `setRedirectIss`, the panel).
   */
  redirectIss?: boolean;
}

/** @see spec part 4 */
export interface Emulator {
  readonly baseUrl: string;
  /**
   * Answers any request whose path lies under the base URL's path; the request's origin is
   * ignored, as the app may be reached through a proxy. Never throws.
   */
  handle(request: Request): Promise<Response>;
  /**
   * Rotate signing keys, arm one-shot faults, change entitlements and ID token encryption, switch
   * the level, `iss` on the redirect and the discovery document: for QA and tests (qa/control.ts).
   */
  readonly control: EmulatorControl;
}

type Handler = (request: Request, context: EmulatorContext) => Promise<Response>;

/** Counts a request against its group's rate limit; throws TooManyRequests over it. */
type Limit = (group: RateLimitGroup, request: Request) => Promise<void>;

type Methods = Partial<Record<string, Handler>>;

/** Part 4: the endpoints and their methods (a Map, so a path like "/__proto__" finds nothing). */
const ROUTES = new Map<string, Methods>([
  [ENDPOINT_PATHS.discovery, { GET: discoveryEndpoint }],
  [ENDPOINT_PATHS.jwks, { GET: jwksEndpoint }],
  [ENDPOINT_PATHS.par, { POST: pushedAuthorizationRequestEndpoint }],
  [ENDPOINT_PATHS.authorization, { GET: authorizationEndpoint, POST: authorizationDecisionEndpoint }],
  [ENDPOINT_PATHS.token, { POST: tokenEndpoint }],
  // The identity app on another device, and the starting browser waiting for it
  // (endpoints/hand-off.ts).
  [ENDPOINT_PATHS.authorizationStatus, { GET: authorizationStatusEndpoint }],
  [ENDPOINT_PATHS.authorizationContinue, { GET: authorizationContinueEndpoint }],
  [ENDPOINT_PATHS.authorizationPage, { GET: authorizationPageEndpoint }],
  [ENDPOINT_PATHS.authorizationPageScript, { GET: authorizationPageScriptEndpoint }],
  // The language switch of every page (views/language.ts).
  [ENDPOINT_PATHS.language, { POST: languageEndpoint }],
  // The QA panel (endpoints/panel.ts) at the base path itself, and where its forms post.
  ['', { GET: panelEndpoint }],
  ['/', { GET: panelEndpoint }],
  [PANEL_ACTION_PATH, { POST: panelActionEndpoint }],
]);

const PORTRAIT_PATH = new RegExp(`^${ENDPOINT_PATHS.portraits}/([a-z0-9-]{1,64})\\.jpg$`);
/** The identity app's screens: /app/<interaction id> (any segment; the handler looks it up). */
const APP_PATH = new RegExp(`^${ENDPOINT_PATHS.app}/([^/]{1,256})$`);

/**
 * Creates an emulator for the given issuer and registered clients. All its state (flows in
 * progress, the signing key ring, armed faults, changed entitlements) lives in `options.store`
 * (default: this instance's memory); the ring is made on first use.
 * @throws Error when `baseUrl` is not an absolute http(s) URL without trailing slash, query or
 *   fragment, or a client registration is invalid (the message names the problem)
 * @see spec part 4
 */
export function createEmulator(options: EmulatorOptions): Emulator {
  const basePath = checkBaseUrl(options.baseUrl);
  const deviceBaseUrl = options.deviceBaseUrl ?? options.baseUrl;
  if (checkBaseUrl(deviceBaseUrl, 'deviceBaseUrl') !== basePath) {
    throw new Error(`deviceBaseUrl must have the same path as baseUrl ('${basePath}'), since requests are routed by path: '${deviceBaseUrl}'`);
  }
  const flowBaseUrl = options.flowBaseUrl ?? options.baseUrl;
  if (checkBaseUrl(flowBaseUrl, 'flowBaseUrl') !== basePath) {
    throw new Error(`flowBaseUrl must have the same path as baseUrl ('${basePath}'), since requests are routed by path: '${flowBaseUrl}'`);
  }
  const now = options.now ?? Date.now;
  const store = options.store ?? new MemoryStore({ now });
  const context = createContext({
    issuer: options.baseUrl,
    deviceBaseUrl,
    clients: checkRegisteredClients(options.clients),
    now,
    store,
    panel: options.panel,
    clientAddress: options.clientAddress,
    populationRegisterName: checkPopulationRegisterName(options.populationRegisterName),
    flowBaseUrl,
    strict: checkSwitch(options.strict, 'strict'),
    redirectIss: checkSwitch(options.redirectIss, 'redirectIss'),
  });
  const limiter = options.rateLimits === false ? undefined : createRateLimiter(store, checkRateLimits(options.rateLimits ?? {}));
  const limit: Limit = limiter ? (group, request) => limiter.consume(group, context.clientAddress(request)) : async () => {};

  return {
    baseUrl: options.baseUrl,
    control: createControl(context),
    async handle(request) {
      try {
        return await route(request, context, basePath, limit);
      } catch (error) {
        if (error instanceof OAuthError) return error.toResponse();
        // The state store is full or unreachable: nothing was changed; the client may retry.
        if (isStoreError(error)) {
          const why = error.code === 'store_full' ? 'the emulator holds as many flows as it can' : 'the emulator’s state store did not answer';
          return new TemporarilyUnavailable(`${why}; try again later`, error.retryAfterSeconds).toResponse();
        }
        // Unreachable by input: every check raises an OAuthError. Logged, and hidden from the caller.
        console.error('IDV emulator: unexpected error', error);
        return new ServerError().toResponse();
      }
    },
  };
}

async function route(request: Request, context: EmulatorContext, basePath: string, limit: Limit): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) throw new NotFound(pathname);
  const path = pathname.slice(basePath.length);

  const portrait = PORTRAIT_PATH.exec(path);
  const app = APP_PATH.exec(path);
  const handlers: Methods | undefined = portrait
    ? { GET: (request, context) => portraitEndpoint(request, context, portrait[1]!) }
    : app
      ? {
          GET: (request, context) => appScreenEndpoint(request, context, app[1]!),
          POST: (request, context) => appActionEndpoint(request, context, app[1]!),
        }
      : ROUTES.get(path);
  if (!handlers) throw new NotFound(pathname);

  const head = request.method.toUpperCase() === 'HEAD';
  const method = head ? 'GET' : request.method.toUpperCase();
  const handler = Object.hasOwn(handlers, method) ? handlers[method] : undefined;
  if (!handler) throw new MethodNotAllowed(request.method, Object.keys(handlers));

  const group = rateLimitGroup(method, path, app !== null);
  if (group) {
    try {
      await limit(group, request);
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      // A person's browser gets a page; a program (PAR, token, the status poll) gets JSON.
      // The switch of the page comes back by GET: to the same page, or, where a GET is no page
      // (the panel's and the switch's own form posts), to the emulator's home, the panel.
      const postOnly = group === 'panel' || path === ENDPOINT_PATHS.language;
      const language = pageLanguage(request, context, postOnly ? { returnTo: homePath(basePath) } : {});
      const page =
        group === 'panel'
          ? // In English the description itself; in another language what it means (views/messages.ts).
            panelErrorPage(language, error.status, () => EMULATOR_MESSAGES[language.locale].errorExplanation(error))
          : group === 'interaction' && path !== ENDPOINT_PATHS.authorizationStatus
            ? errorPage(context, language, error)
            : error.toResponse();
      page.headers.set('Retry-After', String(error.retryAfterSeconds));
      return page;
    }
  }

  const response = await handler(request, context);
  // HEAD: the GET response without its body (RFC 9110 §9.3.2).
  return head ? new Response(null, { status: response.status, headers: response.headers }) : response;
}

/** The paths of the person's side of a flow besides the app's screens: one rate limit for all. */
const INTERACTION_PATHS: ReadonlySet<string> = new Set([
  ENDPOINT_PATHS.authorization,
  ENDPOINT_PATHS.authorizationStatus,
  ENDPOINT_PATHS.authorizationContinue,
  ENDPOINT_PATHS.authorizationPage,
  ENDPOINT_PATHS.language,
]);

/** The rate limit a request counts against, if any (checks/rate-limits.ts). */
function rateLimitGroup(method: string, path: string, appScreen: boolean): RateLimitGroup | undefined {
  if (path === ENDPOINT_PATHS.par) return 'par';
  if (path === ENDPOINT_PATHS.token) return 'token';
  if (path === PANEL_ACTION_PATH && method === 'POST') return 'panel';
  if (appScreen || INTERACTION_PATHS.has(path)) return 'interaction';
  return undefined;
}

/** An on/off option: a boolean or absent (callers from plain JavaScript are not type-checked). */
function checkSwitch(value: boolean | undefined, name: string): boolean | undefined {
  if (value !== undefined && typeof value !== 'boolean') throw new Error(`${name} must be true or false, not ${JSON.stringify(value)}`);
  return value;
}

/** A register name: 1 to 100 characters, no control characters. */
function checkPopulationRegisterName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (name.length < 1 || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new Error(`populationRegisterName must be 1 to 100 characters without control characters, not ${JSON.stringify(name.slice(0, 120))}`);
  }
  return name;
}

/** Returns the base URL's path (empty for an origin) after checking the URL's form; `name` is the option's, for messages. */
function checkBaseUrl(baseUrl: string, name = 'baseUrl'): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, not '${baseUrl}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, not '${baseUrl}'`);
  if (url.search || url.hash || baseUrl.includes('?') || baseUrl.includes('#')) {
    throw new Error(`${name} must not have a query or fragment: '${baseUrl}'`);
  }
  if (baseUrl.endsWith('/')) throw new Error(`${name} must not end with a slash: '${baseUrl}'`);
  // The issuer is compared as a string (RFC 8414 §3.3), so it must already be in normal form.
  if (url.href !== baseUrl && url.href !== `${baseUrl}/`) {
    throw new Error(`${name} must be in normal form ('${url.href.replace(/\/$/, '')}'), not '${baseUrl}'`);
  }
  return url.pathname === '/' ? '' : url.pathname;
}
