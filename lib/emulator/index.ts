/**
 * An emulator of the identity verification service: every endpoint of part 4 as a plain
 * `(Request) => Promise<Response>` function, with the rules of parts 2, 5 and 7 enforced.
 * Framework-free: a Next.js route (or any server, or a test) passes requests to `handle`.
 * @see spec part 4; DECISIONS.md (the emulator's choices where the spec says "not shown")
 */
import { checkRegisteredClients, type RegisteredClient } from './clients';
import { ENDPOINT_PATHS } from './config';
import { createContext, type EmulatorContext } from './context';
import type { EmulatorEventName, EmulatorListener } from './events';
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
import { authorizationContinueEndpoint, authorizationPageEndpoint, authorizationPageScriptEndpoint, authorizationStatusEndpoint } from './endpoints/hand-off';
import { portraitEndpoint } from './endpoints/portraits';
import { createControl, type EmulatorControl } from './qa/control';
import { PANEL_ACTION_PATH, panelActionEndpoint, panelEndpoint } from './endpoints/panel';
import {
  qaArmFaultEndpoint,
  qaChooseFlowEndpoint,
  qaClientEndpoint,
  qaDisarmFaultEndpoint,
  qaFlowEndpoint,
  qaFlowsEndpoint,
  qaJwksFetchesEndpoint,
  qaLockEndpoint,
  qaReleaseLockEndpoint,
  qaTakeLockEndpoint,
} from './endpoints/qa-api';
import type { PanelAccess } from './qa/panel-access';
import { errorPage } from './views/authorization-page';
import { homePath, pageLanguage } from './views/language';
import { EMULATOR_MESSAGES } from './views/messages';
import { panelErrorPage } from './views/panel-page';
import { PANEL_MESSAGES } from './views/panel-messages';
import { isFaultId, type FaultId } from './qa/faults';
import { subscribeFaults } from './qa/fault-listeners';
import { subscribeFlowLog } from './qa/flow-log';

export { POPULATION_REGISTER_NAME } from './checks/claims-request';
export { RATE_LIMITS, checkRateLimits, type RateLimitGroup, type RateLimits } from './checks/rate-limits';
export { parseRegisteredClients, type RegisteredClient } from './clients';
export { InvalidRequest, RequestTooLarge } from './errors';
export {
  ID_TOKEN_CONTENT_ENCRYPTIONS,
  ID_TOKEN_ENCRYPTION_ALGORITHMS,
  type IdTokenContentEncryption,
  type IdTokenEncryption,
  type IdTokenEncryptionAlgorithm,
} from './config';
export type { AssertionHeader, EmulatorEventMap, EmulatorEventName, EmulatorListener, IssuedIdToken } from './events';
export { personas, type Persona } from './personas/personas';
export type { ClientInfo, EmulatorControl, SigningKeyInfo } from './qa/control';
export { MIN_PANEL_PASSWORD_LENGTH, type PanelAccess } from './qa/panel-access';
export { FAULTS, isFaultId, type ChosenFlowError, type ExpectedRpError, type Fault, type FaultId, type FaultTarget, type InjectedFault } from './qa/faults';

/**
 * A fault's short name and what the emulator does, in English or Norwegian bokmål: the QA
 * panel's own words, for a relying party's failure page in emulator mode.
 * @throws Error for an id not in FAULTS or a locale other than 'en' and 'nb'
 */
export function describeFault(id: FaultId, locale: 'en' | 'nb'): { label: string; effect: string } {
  if (!isFaultId(id)) throw new Error(`unknown fault '${String(id)}'`);
  if (locale !== 'en' && locale !== 'nb') throw new Error(`unknown locale '${String(locale)}'; use 'en' or 'nb'`);
  const { label, effect } = PANEL_MESSAGES[locale].faultTexts[id];
  return { label, effect };
}

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
   * Whether the authorization page and the app offer whoever may use the panel's actions the
   * choice of how one flow is answered (views/flow-answer-chooser.ts). Default true; false for a
   * demo in front of a customer, where nothing of QA's should show (faults stay on the panel).
   */
  flowAnswerChooser?: boolean;
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
  /**
   * Listens to an event of the emulator (events.ts), as node-oidc-provider's `provider.on` does:
   * for a log or a test. Heard after the emulator's own listeners (QA's faults, then the flow
   * log), and awaited before the answer is sent: a listener that throws fails the request.
   */
  on<Name extends EmulatorEventName>(name: Name, listener: EmulatorListener<Name>): void;
}

/**
 * Answers one request of a route. A path pattern's groups follow the context: the app's
 * interaction id, a portrait's persona id.
 */
type Handler = (request: Request, context: EmulatorContext, ...pathGroups: string[]) => Promise<Response>;

/** Counts a request against its group's rate limit; throws TooManyRequests over it. */
type Limit = (group: RateLimitGroup, request: Request) => Promise<void>;

/**
 * The rate limit a route's requests count against (checks/rate-limits.ts), and what a request
 * over it gets: a person's browser a page, a program (PAR, token, the status poll) JSON.
 */
interface RouteLimit {
  group: RateLimitGroup;
  refusal: 'page' | 'json';
}

/** One row of the route table. */
interface Route {
  /** a path under the base URL, or a pattern of such paths */
  path: string | RegExp;
  /** the methods and their handlers; HEAD is answered wherever GET is */
  methods: Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', Handler>>;
  /** none for read-only documents (discovery, JWKS, portraits, the page script, the panel itself) */
  rateLimit?: RouteLimit;
}

/** The pages of the person's side of a flow: one rate limit for all of them. */
const INTERACTION: RouteLimit = { group: 'interaction', refusal: 'page' };

/** The JSON QA API (endpoints/qa-api.ts): one rate limit for all of it. */
const QA_API: RouteLimit = { group: 'qa', refusal: 'json' };

/**
 * Part 4's endpoints, then the pages and documents of the person's side of a flow and of QA: the
 * one table that routing, the 405 answer's Allow header, HEAD and the rate limits read.
 */
export const ROUTES: readonly Route[] = [
  { path: ENDPOINT_PATHS.discovery, methods: { GET: discoveryEndpoint } },
  { path: ENDPOINT_PATHS.jwks, methods: { GET: jwksEndpoint } },
  { path: ENDPOINT_PATHS.par, methods: { POST: pushedAuthorizationRequestEndpoint }, rateLimit: { group: 'par', refusal: 'json' } },
  { path: ENDPOINT_PATHS.authorization, methods: { GET: authorizationEndpoint, POST: authorizationDecisionEndpoint }, rateLimit: INTERACTION },
  { path: ENDPOINT_PATHS.token, methods: { POST: tokenEndpoint }, rateLimit: { group: 'token', refusal: 'json' } },
  // The identity app's screens: /app/<interaction id> (any segment; the handler looks it up).
  { path: new RegExp(`^${ENDPOINT_PATHS.app}/([^/]{1,256})$`), methods: { GET: appScreenEndpoint, POST: appActionEndpoint }, rateLimit: INTERACTION },
  { path: new RegExp(`^${ENDPOINT_PATHS.portraits}/([a-z0-9-]{1,64})\\.jpg$`), methods: { GET: portraitEndpoint } },
  // The starting browser waiting for the app on another device (endpoints/hand-off.ts); its
  // script polls the status.
  { path: ENDPOINT_PATHS.authorizationStatus, methods: { GET: authorizationStatusEndpoint }, rateLimit: { group: 'interaction', refusal: 'json' } },
  { path: ENDPOINT_PATHS.authorizationContinue, methods: { GET: authorizationContinueEndpoint }, rateLimit: INTERACTION },
  { path: ENDPOINT_PATHS.authorizationPage, methods: { GET: authorizationPageEndpoint }, rateLimit: INTERACTION },
  { path: ENDPOINT_PATHS.authorizationPageScript, methods: { GET: authorizationPageScriptEndpoint } },
  // The language switch of every page (views/language.ts).
  { path: ENDPOINT_PATHS.language, methods: { POST: languageEndpoint }, rateLimit: INTERACTION },
  // The QA panel (endpoints/panel.ts) at the base path itself, and where its forms post.
  { path: '', methods: { GET: panelEndpoint } },
  { path: '/', methods: { GET: panelEndpoint } },
  { path: PANEL_ACTION_PATH, methods: { POST: panelActionEndpoint }, rateLimit: { group: 'panel', refusal: 'page' } },
  // The JSON QA API (endpoints/qa-api.ts), for programs; the panel's access rule.
  { path: /^\/qa\/clients\/([^/]{1,256})$/, methods: { GET: qaClientEndpoint }, rateLimit: QA_API },
  { path: /^\/qa\/faults\/([^/]{1,256})$/, methods: { PUT: qaArmFaultEndpoint, DELETE: qaDisarmFaultEndpoint }, rateLimit: QA_API },
  // The deployment-wide run lock: one conformance run at a time holds client-wide faults.
  { path: '/qa/lock', methods: { GET: qaLockEndpoint, PUT: qaTakeLockEndpoint, DELETE: qaReleaseLockEndpoint }, rateLimit: QA_API },
  { path: '/qa/flows', methods: { GET: qaFlowsEndpoint, POST: qaChooseFlowEndpoint }, rateLimit: QA_API },
  { path: '/qa/flow', methods: { GET: qaFlowEndpoint }, rateLimit: QA_API },
  { path: '/qa/jwks-fetches', methods: { GET: qaJwksFetchesEndpoint }, rateLimit: QA_API },
];

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
    flowAnswerChooser: checkSwitch(options.flowAnswerChooser, 'flowAnswerChooser') ?? true,
    clientAddress: options.clientAddress,
    populationRegisterName: checkPopulationRegisterName(options.populationRegisterName),
    flowBaseUrl,
    strict: checkSwitch(options.strict, 'strict'),
    redirectIss: checkSwitch(options.redirectIss, 'redirectIss'),
  });
  // The one place listeners are registered (events.ts), heard in this order: the faults choose what
  // an answer gets before the flow log writes down what it was.
  subscribeFaults(context.events, context.faults);
  subscribeFlowLog(context.events, context.traces);
  const limiter = options.rateLimits === false ? undefined : createRateLimiter(store, checkRateLimits(options.rateLimits ?? {}));
  const limit: Limit = limiter ? (group, request) => limiter.consume(group, context.clientAddress(request)) : async () => {};

  return {
    baseUrl: options.baseUrl,
    control: createControl(context),
    on: (name, listener) => context.events.on(name, listener),
    async handle(request) {
      return withSecurityHeaders(await answer(request, context, basePath, limit));
    },
  };
}

async function answer(request: Request, context: EmulatorContext, basePath: string, limit: Limit): Promise<Response> {
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
}

/** The policy of an answer that is no page of ours (JSON, a portrait, a script, an error): nothing may load or frame it. */
export const NO_CONTENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Every answer, whatever its route, its method or its error: `X-Content-Type-Options: nosniff`,
 * and a Content-Security-Policy, the page's own (views/page-shell.ts) or, for anything else,
 * one that allows nothing. One place, so that no new route or error can leave them out.
 */
export function withSecurityHeaders(response: Response): Response {
  if (response.headers.get('x-content-type-options') === 'nosniff' && response.headers.has('content-security-policy')) return response;
  // A copy: a Response's headers may be immutable (Response.redirect).
  const headers = new Headers(response.headers);
  headers.set('X-Content-Type-Options', 'nosniff');
  if (!headers.has('content-security-policy')) headers.set('Content-Security-Policy', NO_CONTENT_POLICY);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function route(request: Request, context: EmulatorContext, basePath: string, limit: Limit): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) throw new NotFound(pathname);
  const path = pathname.slice(basePath.length);
  const found = findRoute(path);
  if (!found) throw new NotFound(pathname);
  const { route, pathGroups } = found;

  const head = request.method.toUpperCase() === 'HEAD';
  const method = head ? 'GET' : request.method.toUpperCase();
  const handler = Object.hasOwn(route.methods, method) ? route.methods[method as keyof Route['methods']] : undefined;
  if (!handler) throw new MethodNotAllowed(request.method, Object.keys(route.methods));

  if (route.rateLimit) {
    try {
      await limit(route.rateLimit.group, request);
    } catch (error) {
      if (!(error instanceof TooManyRequests)) throw error;
      const page = route.rateLimit.refusal === 'json' ? error.toResponse() : tooManyRequestsPage(request, context, basePath, route, error);
      page.headers.set('Retry-After', String(error.retryAfterSeconds));
      return page;
    }
  }

  const response = await handler(request, context, ...pathGroups);
  // HEAD: the GET response without its body (RFC 9110 §9.3.2).
  return head ? new Response(null, { status: response.status, headers: response.headers }) : response;
}

/** The row of the route table for `path`, and what its pattern's groups matched. */
function findRoute(path: string): { route: Route; pathGroups: string[] } | undefined {
  for (const route of ROUTES) {
    if (typeof route.path === 'string') {
      if (route.path === path) return { route, pathGroups: [] };
      continue;
    }
    const match = route.path.exec(path);
    if (match) return { route, pathGroups: match.slice(1) };
  }
  return undefined;
}

/**
 * The page a person's browser gets over a rate limit: the panel's own for the panel, else the
 * error page. Its language switch comes back by GET: to the same page, or, where the path has no
 * GET (the panel's and the switch's own form posts), to the emulator's home, the panel.
 */
function tooManyRequestsPage(request: Request, context: EmulatorContext, basePath: string, route: Route, error: TooManyRequests): Response {
  const language = pageLanguage(request, context, Object.hasOwn(route.methods, 'GET') ? {} : { returnTo: homePath(basePath) });
  return route.rateLimit?.group === 'panel'
    ? // In English the description itself; in another language what it means (views/messages.ts).
      panelErrorPage(language, error.status, () => EMULATOR_MESSAGES[language.locale].errorExplanation(error))
    : errorPage(context, language, error);
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
