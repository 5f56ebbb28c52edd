/**
 * The QA panel's HTTP surface: GET {base} shows it, POST {base}/panel performs one action of the
 * control API and answers 303 back to it (post/redirect/get), with a confirmation chosen from a
 * fixed list, never text taken from the request.
 *
 * Who may act is the host's choice (qa/panel-access.ts: open, read-only, or signed in with a
 * password). Whatever it is, a post made by another site in the user's browser is refused: a
 * present `Origin` must be one of the panel's own, and a present `Sec-Fetch-Site` must be
 * `same-origin`.
 * @see qa/control.ts, views/panel-page.ts; DECISIONS.md "QA panel"
 */
import { readFormBody, type RequestParameters } from '../checks/request-parameters';
import { isIdTokenEncryption } from '../clients';
import { ID_TOKEN_CONTENT_ENCRYPTIONS, ID_TOKEN_ENCRYPTION_ALGORITHMS } from '../config';
import { basePathOf, type EmulatorContext } from '../context';
import { OAuthError, describeValue } from '../errors';
import { pageLanguage, type PageLanguage } from '../views/language';
import { PANEL_MESSAGES, type PanelMessages } from '../views/panel-messages';
import { clientHome, panelErrorPage, panelPage, panelPath } from '../views/panel-page';
import { createControl, type ClientInfo, type EmulatorControl } from '../qa/control';
import { FAULTS, faultById, isFaultId } from '../qa/faults';
import type { PanelAccessState } from '../qa/panel-access';

export { PANEL_ACTION_PATH } from '../views/panel-page';

/** The panel's forms carry a few short fields; anything larger is not one of them. */
const MAX_PANEL_FORM_BYTES = 4 * 1024;

/** The actions of the panel's forms that change the emulator, by their `action` field. */
export const PANEL_ACTIONS = [
  'rotate_keys',
  'arm_fault',
  'disarm_fault',
  'set_population_register',
  'set_discovery',
  'set_strict',
  'set_redirect_iss',
  'set_id_token_encryption',
  'arm_and_start',
] as const;
type PanelActionName = (typeof PANEL_ACTIONS)[number];

/** The sign-in form's actions (a panel with a password). */
const ACCESS_ACTIONS = ['sign_in', 'sign_out'] as const;

/** The confirmations a redirect may ask for (`done`), each a fixed sentence. */
type Done =
  | 'keys_rotated'
  | 'fault_armed'
  | 'fault_disarmed'
  | 'population_register_enabled'
  | 'population_register_disabled'
  | 'signed_in'
  | 'signed_out'
  | 'discovery_full'
  | 'discovery_minimal'
  | 'strict_on'
  | 'strict_off'
  | 'redirect_iss_on'
  | 'redirect_iss_off'
  | 'id_token_encryption_set';

/** A sentence of the panel's, in the page's language. */
type Message = (t: PanelMessages) => string;

/** The language of the panel's pages for `request`; their switch comes back to the panel. */
function panelLanguage(request: Request, context: EmulatorContext): PageLanguage {
  return pageLanguage(request, context, { returnTo: panelPath(basePathOf(context)) });
}

/** Handles GET {base} and GET {base}/: the panel, with the confirmation of the last action. */
export function panelEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  return renderPanel(request, context);
}

/** The panel for `request`; `signInError`: the sign-in form again, with the wrong password said at its field (403). */
async function renderPanel(request: Request, context: EmulatorContext, options: { signInError?: boolean } = {}): Promise<Response> {
  const control = createControl(context);
  const [signingKeys, clients, armedFaults, injectedFaults, discoveryShape, strict, redirectIss, runLock] = await Promise.all([
    control.signingKeys(),
    control.clients(),
    control.armedFaults(),
    control.injectedFaults(),
    control.discoveryShape(),
    control.strict(),
    control.redirectIss(),
    control.runLock(),
  ]);
  // A fault applied between the two reads has no arming any more: shown armed, for any client, by hand.
  const armings = await Promise.all(armedFaults.map(async (id) => [id, (await control.faultArming(id)) ?? {}] as const));
  const gate = context.panel.access;
  const access = await context.panel.state(request);
  // The switch comes back to this very page, with its confirmation (chosen from known values).
  const language = pageLanguage(request, context);
  return panelPage({
    language,
    access,
    readOnlyReason: gate.mode === 'read-only' ? gate.reason : undefined,
    issuer: context.issuer,
    flowBaseUrl: context.flowBaseUrl,
    discoveryShape,
    strict,
    redirectIss,
    basePath: basePathOf(context),
    clients,
    signingKeys,
    armedFaults,
    faultScopes: Object.fromEntries(armings.flatMap(([id, arming]) => (arming.clientId === undefined ? [] : [[id, arming.clientId]]))),
    faultOwners: Object.fromEntries(armings.flatMap(([id, arming]) => (arming.armedBy === undefined ? [] : [[id, arming.armedBy]]))),
    ...(runLock ? { runLock } : {}),
    injectedFaults,
    notice: options.signInError
      ? undefined
      : confirmation(new URL(request.url).searchParams, clients, signingKeys[0]?.kid, access)?.(PANEL_MESSAGES[language.locale]),
    now: context.now(),
    signInError: options.signInError,
  });
}

/**
 * Handles POST {base}/panel with `action` and its parameters:
 * - `rotate_keys`
 * - `arm_fault` / `disarm_fault` with `fault` (an id of FAULTS)
 * - `set_population_register` with `client_id` and `enabled` (`true` or `false`)
 * - `set_discovery` with `shape` (`full` or `minimal`)
 * - `set_strict` with `strict`, `set_redirect_iss` with `redirect_iss` (`true` or `false`)
 * - `set_id_token_encryption` with `client_id`, `alg` and `enc`
 * - `sign_in` with `password`, `sign_out` (a panel with a password)
 *
 * Success: 303 to the panel with `done` (and the fault or client it concerns). Bad input: 400
 * page; cross-site post, a read-only panel, an action before signing in or a wrong password: 403
 * page; too many sign-in attempts: 429 page with `Retry-After`.
 */
export async function panelActionEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const basePath = basePathOf(context);
  const language = panelLanguage(request, context);
  const crossSite = crossSiteReason(request, context);
  if (crossSite) return panelErrorPage(language, 403, crossSite);

  let parameters: RequestParameters;
  try {
    parameters = await readFormBody(request, MAX_PANEL_FORM_BYTES);
  } catch (error) {
    // A malformed body (wrong media type, too large, a field twice) is the sender's mistake.
    if (error instanceof OAuthError && error.status < 500) return panelErrorPage(language, error.status, (t) => t.unreadableForm(error.description));
    throw error;
  }

  const action = parameters.get('action');
  if (action === 'sign_in' || action === 'sign_out') return changeSignIn(action, parameters, request, context);

  const access = await context.panel.state(request);
  if (access === 'read-only' || access === 'signed-out') {
    const gate = context.panel.access;
    return panelErrorPage(language, 403, (t) => (gate.mode === 'read-only' ? t.readOnlyPanel(gate.reason) : t.signInFirst));
  }

  const control = createControl(context);
  const outcome = await perform(parameters, control);
  if ('refused' in outcome) return panelErrorPage(language, 400, outcome.refused);
  if ('start' in outcome) return new Response(null, { status: 303, headers: { Location: outcome.start, 'Cache-Control': 'no-store' } });
  return backToPanel(basePath, outcome.done, outcome.about);
}

/** 303 to the panel, which confirms `done`; `setCookie` signs the browser in or out. */
function backToPanel(basePath: string, done: Done, about?: Record<string, string>, setCookie?: string): Response {
  const query = new URLSearchParams({ done, ...about });
  const headers = new Headers({ Location: `${panelPath(basePath)}?${query}`, 'Cache-Control': 'no-store' });
  if (setCookie) headers.set('Set-Cookie', setCookie);
  return new Response(null, { status: 303, headers });
}

/** `sign_in` (with `password`) and `sign_out`: only a panel with a password has them. */
async function changeSignIn(
  action: (typeof ACCESS_ACTIONS)[number],
  parameters: RequestParameters,
  request: Request,
  context: EmulatorContext,
): Promise<Response> {
  const basePath = basePathOf(context);
  const language = panelLanguage(request, context);
  const { panel } = context;
  if (panel.access.mode !== 'password') {
    const open = panel.access.mode === 'open';
    return panelErrorPage(language, 400, (t) => t.noPassword(open));
  }
  if (action === 'sign_out') return backToPanel(basePath, 'signed_out', undefined, await panel.signOut(request));

  const outcome = await panel.signIn(parameters.get('password') ?? '', context.clientAddress(request));
  if ('setCookie' in outcome) return backToPanel(basePath, 'signed_in', undefined, outcome.setCookie);
  // The panel again, with the refusal at the password field (403, as before: 401 would ask for
  // an HTTP authentication challenge).
  if (outcome.reason === 'wrong_password') return renderPanel(request, context, { signInError: true });
  const { retryAfterSeconds } = outcome;
  const page = panelErrorPage(language, 429, (t) => t.tooManySignIns(retryAfterSeconds));
  page.headers.set('Retry-After', String(outcome.retryAfterSeconds));
  return page;
}

/**
 * Why a post must be refused as cross-site, or undefined for a same-origin (or non-browser) post.
 * The panel's own origins are those of its configured base URLs (the issuer, and the address a
 * phone uses), never the request's URL: behind a proxy (or a framework that reports
 * localhost:PORT) that is not the origin the browser sees. The QA API's writes (endpoints/qa-api.ts)
 * are checked by this very rule.
 */
export function panelCrossSite(
  request: Request,
  context: Pick<EmulatorContext, 'issuer' | 'deviceBaseUrl'>,
): { origin: string } | { site: string } | undefined {
  const origin = request.headers.get('origin');
  const ownOrigins = new Set([new URL(context.issuer).origin, new URL(context.deviceBaseUrl).origin]);
  if (origin !== null && !ownOrigins.has(origin)) return { origin };
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin') return { site };
  return undefined;
}

/** The panel's sentence for a cross-site post (panelCrossSite). */
export function crossSiteReason(request: Request, context: EmulatorContext): Message | undefined {
  const crossSite = panelCrossSite(request, context);
  if (!crossSite) return undefined;
  if ('origin' in crossSite) return (t) => t.crossSiteOrigin(describeValue(crossSite.origin), new URL(context.issuer).origin);
  return (t) => t.crossSiteFetch(describeValue(crossSite.site));
}

/** Performs the action the form asks for, or says in words what is wrong with it. */
async function perform(
  parameters: RequestParameters,
  control: EmulatorControl,
): Promise<{ done: Done; about?: Record<string, string> } | { start: string } | { refused: Message }> {
  const action = parameters.get('action');
  const known = [...PANEL_ACTIONS, ...ACCESS_ACTIONS].join(', ');
  if (action === undefined) return { refused: (t) => t.noAction(known) };
  if (!(PANEL_ACTIONS as readonly string[]).includes(action)) {
    return { refused: (t) => t.unknownAction(describeValue(action), known) };
  }

  switch (action as PanelActionName) {
    case 'rotate_keys':
      await control.rotateSigningKeys();
      return { done: 'keys_rotated' };

    case 'arm_fault':
    case 'disarm_fault': {
      const fault = parameters.get('fault');
      if (!isFaultId(fault)) {
        const faults = FAULTS.map((known) => known.id).join(', ');
        return { refused: (t) => t.badFault(fault === undefined ? undefined : describeValue(fault), faults) };
      }
      if (action === 'disarm_fault') {
        await control.disarmFault(fault);
        return { done: 'fault_disarmed', about: { fault } };
      }
      // An empty choice is "any client".
      const clientId = parameters.get('client_id') || undefined;
      if (clientId !== undefined && !(await control.clients()).some((client) => client.clientId === clientId)) {
        return { refused: (t) => t.unknownFaultClient(describeValue(clientId)) };
      }
      await control.armFault(fault, clientId);
      return { done: 'fault_armed', about: { fault } };
    }

    case 'arm_and_start': {
      // Each fault its own field (`arm_<id>=on`): a field sent twice is refused.
      const faults = FAULTS.filter((fault) => parameters.get(`arm_${fault.id}`) === 'on').map((fault) => fault.id);
      const clients = await control.clients();
      const clientId = parameters.get('client_id') || undefined;
      const client = clientId === undefined ? clients[0] : clients.find((known) => known.clientId === clientId);
      const home = client && clientHome(client);
      if (!client || home === undefined) return { refused: (t) => t.unknownFaultClient(describeValue(clientId ?? '')) };
      // Armed for that client only, when it was chosen: the verification it starts is its.
      for (const fault of faults) await control.armFault(fault, clientId);
      return { start: home };
    }

    case 'set_discovery': {
      const shape = parameters.get('shape');
      if (shape !== 'full' && shape !== 'minimal') {
        return { refused: (t) => t.badShape(shape === undefined ? undefined : describeValue(shape)) };
      }
      await control.setDiscoveryShape(shape);
      return { done: shape === 'full' ? 'discovery_full' : 'discovery_minimal' };
    }

    case 'set_strict':
    case 'set_redirect_iss': {
      const name = action === 'set_strict' ? 'strict' : 'redirect_iss';
      const on = parameters.get(name);
      if (on !== 'true' && on !== 'false') {
        return { refused: (t) => t.badSwitch(name, on === undefined ? undefined : describeValue(on)) };
      }
      if (action === 'set_strict') {
        await control.setStrict(on === 'true');
        return { done: on === 'true' ? 'strict_on' : 'strict_off' };
      }
      await control.setRedirectIss(on === 'true');
      return { done: on === 'true' ? 'redirect_iss_on' : 'redirect_iss_off' };
    }

    case 'set_id_token_encryption': {
      const clientId = parameters.get('client_id');
      if (clientId === undefined || !(await control.clients()).some((client) => client.clientId === clientId)) {
        return { refused: (t) => (clientId === undefined ? t.noClientId : t.unknownClient(describeValue(clientId))) };
      }
      const encryption = { alg: parameters.get('alg'), enc: parameters.get('enc') };
      if (!isIdTokenEncryption(encryption)) {
        return { refused: (t) => t.badEncryption(ID_TOKEN_ENCRYPTION_ALGORITHMS.join(', '), ID_TOKEN_CONTENT_ENCRYPTIONS.join(', ')) };
      }
      await control.setIdTokenEncryption(clientId, encryption);
      return { done: 'id_token_encryption_set', about: { client_id: clientId } };
    }

    case 'set_population_register': {
      const clientId = parameters.get('client_id');
      if (clientId === undefined || !(await control.clients()).some((client) => client.clientId === clientId)) {
        return { refused: (t) => (clientId === undefined ? t.noClientId : t.unknownClient(describeValue(clientId))) };
      }
      const enabled = parameters.get('enabled');
      if (enabled !== 'true' && enabled !== 'false') {
        return { refused: (t) => t.badEnabled(enabled === undefined ? undefined : describeValue(enabled)) };
      }
      await control.setPopulationRegister(clientId, enabled === 'true');
      return {
        done: enabled === 'true' ? 'population_register_enabled' : 'population_register_disabled',
        about: { client_id: clientId },
      };
    }
  }
}

/**
 * The sentence for `done`, built from known values only: a fault or client the query names is
 * looked up, so a crafted link cannot make the panel say something of its own.
 */
function confirmation(query: URLSearchParams, clients: readonly ClientInfo[], currentKid: string | undefined, access: PanelAccessState): Message | undefined {
  const fault = query.get('fault');
  const clientId = query.get('client_id');
  const client = clientId === null ? undefined : clients.find((known) => known.clientId === clientId);
  switch (query.get('done')) {
    case 'keys_rotated':
      return currentKid ? (t) => t.keysRotated(currentKid) : undefined;
    case 'fault_armed':
      return isFaultId(fault) ? (t) => t.faultArmed(t.faultTexts[faultById(fault).id].label, fault) : undefined;
    case 'fault_disarmed':
      return isFaultId(fault) ? (t) => t.faultDisarmed(t.faultTexts[faultById(fault).id].label, fault) : undefined;
    case 'population_register_enabled':
      return client ? (t) => t.registerEnabled(client.clientId) : undefined;
    case 'population_register_disabled':
      return client ? (t) => t.registerDisabled(client.clientId) : undefined;
    case 'discovery_full':
      return (t) => t.discoveryFullAgain;
    case 'discovery_minimal':
      return (t) => t.discoveryMinimalNow;
    case 'strict_on':
      return (t) => t.strictNow;
    case 'strict_off':
      return (t) => t.defaultLevelNow;
    case 'redirect_iss_on':
      return (t) => t.redirectIssNow;
    case 'redirect_iss_off':
      return (t) => t.noRedirectIssNow;
    case 'id_token_encryption_set':
      // The variant as it is now, read from the emulator: never text taken from the link.
      return client ? (t) => t.encryptionSet(client.clientId, client.idTokenEncryption.alg, client.idTokenEncryption.enc) : undefined;
    case 'signed_in':
      return access !== 'signed-in' ? undefined : (t) => t.signedInNotice;
    case 'signed_out':
      return access === 'signed-out' ? (t) => t.signedOutNotice : undefined;
    default:
      return undefined;
  }
}
