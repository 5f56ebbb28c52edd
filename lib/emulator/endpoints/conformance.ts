/**
 * The conformance page's HTTP surface: GET {base}/conformance shows the form, POST
 * {base}/conformance starts a run of the conformance kit through the host (303 to the run's
 * page), GET {base}/conformance/runs/{id} shows its progress and verdict, and
 * GET {base}/conformance/runs/{id}/{file} serves its reports (index.html, junit.xml, <case>.png).
 *
 * The kit drives the emulator's QA API and arms its faults, so the page takes the QA panel's
 * access rule (qa/panel-access.ts: open, or signed in to the panel; else the panel's 403 page),
 * and a post made by another site is refused as the panel's are (panelCrossSite). One run goes
 * at a time: a start while one goes is refused with 409. Without a host (EmulatorOptions.conformance)
 * the page says how to run the kit from a checkout instead.
 * @see qa/conformance-host.ts, views/conformance-page.ts
 */
import { readFormBody, type RequestParameters } from '../checks/request-parameters';
import { type EmulatorContext } from '../context';
import { OAuthError } from '../errors';
import { CONFORMANCE_FILE_NAME, type ConformanceRunInput } from '../qa/conformance-host';
import { createControl } from '../qa/control';
import { conformanceErrorPage, conformanceFormPage, conformanceRunPage, runPath, type ConformanceFormValues } from '../views/conformance-page';
import type { ConformanceMessages } from '../views/conformance-messages';
import { pageLanguage, type PageLanguage } from '../views/language';
import { CONFORMANCE_PATH, panelErrorPage, panelPath } from '../views/panel-page';
import { basePathOf } from '../context';
import { crossSiteReason } from './panel';

/** The form carries five short fields; anything larger is not it. */
export const MAX_CONFORMANCE_FORM_BYTES = 4 * 1024;

/** A run's id as hosts make them. */
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A case id or pattern (cases.ts ids are lowercase words joined by `_`). */
const CASE_PATTERN = /^[a-z0-9_*]{1,64}$/;
const MAX_CASE_PATTERNS = 100;
const MAX_START_SELECTOR_LENGTH = 200;
const MAX_JWKS_COOLDOWN_SECONDS = 3600;

/** The panel's 403 page when the browser may not use the panel's actions, else undefined. */
async function accessRefusal(request: Request, context: EmulatorContext): Promise<Response | undefined> {
  const access = await context.panel.state(request);
  if (access === 'open' || access === 'signed-in') return undefined;
  const gate = context.panel.access;
  const language = pageLanguage(request, context, { returnTo: panelPath(basePathOf(context)) });
  return panelErrorPage(language, 403, (t) => (gate.mode === 'read-only' ? t.readOnlyPanel(gate.reason) : t.signInFirst));
}

/** The language of a page answering a post or a refused run: its switch comes back to the form. */
function formLanguage(request: Request, context: EmulatorContext): PageLanguage {
  return pageLanguage(request, context, { returnTo: `${basePathOf(context)}${CONFORMANCE_PATH}` });
}

async function registeredClients(context: EmulatorContext) {
  return (await createControl(context).clients()).map(({ clientId, name }) => ({ clientId, ...(name ? { name } : {}) }));
}

/** Handles GET {base}/conformance: the form, prefilled with the host's defaults. */
export async function conformancePageEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const refused = await accessRefusal(request, context);
  if (refused) return refused;
  const host = context.conformance;
  return conformanceFormPage({
    language: pageLanguage(request, context),
    available: host !== undefined,
    clients: await registeredClients(context),
    defaults: host?.defaults() ?? {},
  });
}

/**
 * Handles POST {base}/conformance with `client_id`, `start_url`, `start_selector` (optional),
 * `cases` (optional, comma-separated) and `jwks_cooldown`: 303 to the run's page. Cross-site
 * post or no access: 403; bad input: the form again with the problem (400); a run going: 409;
 * no host: 404.
 */
export async function conformanceStartEndpoint(request: Request, context: EmulatorContext): Promise<Response> {
  const language = formLanguage(request, context);
  const crossSite = crossSiteReason(request, context);
  if (crossSite) return panelErrorPage(language, 403, crossSite);
  let parameters: RequestParameters;
  try {
    parameters = await readFormBody(request, MAX_CONFORMANCE_FORM_BYTES);
  } catch (error) {
    if (error instanceof OAuthError && error.status < 500) return panelErrorPage(language, error.status, (t) => t.unreadableForm(error.description));
    throw error;
  }
  const refused = await accessRefusal(request, context);
  if (refused) return refused;

  const host = context.conformance;
  const clients = await registeredClients(context);
  const values: ConformanceFormValues = {
    clientId: parameters.get('client_id'),
    startUrl: parameters.get('start_url'),
    startSelector: parameters.get('start_selector'),
    cases: parameters.get('cases'),
    jwksCooldownSeconds: parameters.get('jwks_cooldown'),
  };
  const form = (status: number, problem: (t: ConformanceMessages) => string, runningRunId?: string) =>
    conformanceFormPage({ language, available: host !== undefined, clients, defaults: host?.defaults() ?? {}, values, problem, status, ...(runningRunId ? { runningRunId } : {}) });
  if (!host) return conformanceFormPage({ language, available: false, clients, defaults: {}, status: 404 });

  const input = runInput(values, new Set(clients.map((client) => client.clientId)));
  if ('problem' in input) return form(400, input.problem);
  const started = await host.start(input);
  // The host's own reason is English, for its logs: the page says the same in the reader's language.
  if ('refused' in started) return form(409, (t) => t.busy, started.runId);
  return new Response(null, { status: 303, headers: { Location: runPath(basePathOf(context), started.runId), 'Cache-Control': 'no-store' } });
}

/** The run the form asks for, or what is wrong with it. */
export function runInput(values: ConformanceFormValues, clientIds: ReadonlySet<string>): ConformanceRunInput | { problem: (t: ConformanceMessages) => string } {
  const { clientId } = values;
  if (!clientId) return { problem: (t) => t.noClient };
  if (!clientIds.has(clientId)) return { problem: (t) => t.unknownClient(clientId) };
  let startUrl: string;
  try {
    const url = new URL(values.startUrl ?? '');
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    startUrl = url.href;
  } catch {
    return { problem: (t) => t.badStartUrl };
  }
  const startSelector = values.startSelector?.trim() || undefined;
  if (startSelector !== undefined && startSelector.length > MAX_START_SELECTOR_LENGTH) return { problem: (t) => t.badStartSelector };
  const cases = (values.cases ?? '')
    .split(',')
    .map((pattern) => pattern.trim())
    .filter(Boolean);
  if (cases.length > MAX_CASE_PATTERNS || cases.some((pattern) => !CASE_PATTERN.test(pattern))) return { problem: (t) => t.badCases };
  const cooldown = values.jwksCooldownSeconds?.trim() ?? '';
  if (!/^\d{1,4}$/.test(cooldown) || Number(cooldown) > MAX_JWKS_COOLDOWN_SECONDS) return { problem: (t) => t.badCooldown };
  return {
    clientId,
    startUrl,
    ...(startSelector ? { startSelector } : {}),
    ...(cases.length > 0 ? { cases } : {}),
    jwksCooldownSeconds: Number(cooldown),
  };
}

/** Handles GET {base}/conformance/runs/{id}: the run's progress (reloading itself), then its verdict. Unknown run: 404. */
export async function conformanceRunEndpoint(request: Request, context: EmulatorContext, runId = ''): Promise<Response> {
  const refused = await accessRefusal(request, context);
  if (refused) return refused;
  const status = RUN_ID.test(runId) ? context.conformance?.status(runId) : undefined;
  if (!status) return conformanceErrorPage(formLanguage(request, context), 404, (t) => t.unknownRun);
  return conformanceRunPage(pageLanguage(request, context), runId, status);
}

/**
 * Handles GET {base}/conformance/runs/{id}/{file}: a report file, by a name of
 * CONFORMANCE_FILE_NAME only (the segment as sent, not decoded: no path reaches the host).
 * The HTML report may use its own inline styles and the run's screenshots, nothing else.
 */
export async function conformanceFileEndpoint(request: Request, context: EmulatorContext, runId = '', name = ''): Promise<Response> {
  const refused = await accessRefusal(request, context);
  if (refused) return refused;
  const language = formLanguage(request, context);
  const host = context.conformance;
  if (!host || !RUN_ID.test(runId) || !host.status(runId)) return conformanceErrorPage(language, 404, (t) => t.unknownRun);
  const file = CONFORMANCE_FILE_NAME.test(name) ? await host.file(runId, name) : undefined;
  if (!file) return conformanceErrorPage(language, 404, (t) => t.noFile);
  return new Response(file.body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: {
      'Content-Type': file.contentType,
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
