/**
 * The JSON QA API under {base}/qa/: for a program (a conformance kit) that drives relying parties
 * through the emulator, one verification per case, and reads what the emulator saw. It reads
 * clients, arms and disarms faults (as a run's own, with `armed_by`, or by hand), takes the
 * deployment-wide run lock, chooses faults and a given name for one flow (found by the
 * request_uri its authorization page was opened with), lists a client's flows, and reads a flow's
 * protocol trace (qa/flow-trace.ts) and the last JWKS responses.
 *
 * Who may use it is the QA panel's own rule (qa/panel-access.ts): the panel open, or the
 * request's cookie signed in to it (POST {base}/panel `action=sign_in`). A write (POST, PUT,
 * DELETE) made by another site in a browser is refused as the panel's posts are, and its body is
 * JSON of at most 4 KiB. Every answer is JSON, never cached; an error is
 * `{ error, error_description }` with one of QA_API_ERRORS.
 * @see README.md "QA API"; DECISIONS.md "The QA API and the flow trace"
 */
import { readBody } from '../checks/request-parameters';
import { MAX_STATE_OR_NONCE_LENGTH } from '../config';
import type { EmulatorContext } from '../context';
import { describeValue } from '../errors';
import { mayChooseFlowAnswers } from '../qa/choose-flow-answer';
import { createControl } from '../qa/control';
import { FAULTS, RUN_LOCK_SECONDS, faultById, isFaultId, isRunOwner, type FaultArming, type FaultId, type RunLock } from '../qa/faults';
import { FLOW_FAULTS } from '../qa/flow-answers';
import { summaryOf } from '../qa/flow-event-summaries';
import { panelCrossSite } from './panel';

/** The error codes of the QA API. */
export const QA_API_ERRORS = ['invalid_request', 'access_denied', 'not_found', 'unknown_client', 'unknown_fault', 'fault_armed', 'locked'] as const;
export type QaApiErrorCode = (typeof QA_API_ERRORS)[number];

/** A write's JSON body is a few short members; anything larger is not one of them. */
export const MAX_QA_BODY_BYTES = 4 * 1024;

/** A given name QA may choose: 1 to 64 letters, marks, spaces, hyphens and apostrophes, with a letter among them. */
const GIVEN_NAME = /^[\p{L}\p{M} \-\u2010'\u2019]+$/u;
const MAX_GIVEN_NAME_LENGTH = 64;

/** A refusal of the QA API: its status, code, an English description and headers of its own (`Retry-After`). */
class QaApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: QaApiErrorCode,
    readonly description: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(`${code}: ${description}`);
  }
}

/** An answer of the QA API: JSON, or 204 without a body. */
type QaAnswer = { status: number; body?: unknown };

type QaHandler = (request: Request, context: EmulatorContext, ...pathGroups: string[]) => Promise<QaAnswer>;

/**
 * A route handler for the QA API: the access rule, then (for writes) the cross-site rule, then
 * `handler`; its answer or refusal as JSON with `Cache-Control: no-store`.
 */
function qaEndpoint(handler: QaHandler): (request: Request, context: EmulatorContext, ...pathGroups: string[]) => Promise<Response> {
  return async (request, context, ...pathGroups) => {
    try {
      if (!(await mayChooseFlowAnswers(request, context))) {
        throw new QaApiError(403, 'access_denied', `the QA API needs the QA panel: sign in to the QA panel at ${context.issuer} and send its cookie`);
      }
      if (request.method.toUpperCase() !== 'GET' && request.method.toUpperCase() !== 'HEAD') {
        const crossSite = panelCrossSite(request, context);
        if (crossSite) {
          throw new QaApiError(
            403,
            'access_denied',
            'origin' in crossSite
              ? `a write from Origin ${describeValue(crossSite.origin)} is refused: it is not the QA panel's own origin ${new URL(context.issuer).origin}`
              : `a write with Sec-Fetch-Site ${describeValue(crossSite.site)} is refused: only the QA panel's own origin may write`,
          );
        }
      }
      const answer = await handler(request, context, ...pathGroups);
      return answer.body === undefined
        ? new Response(null, { status: answer.status, headers: { 'Cache-Control': 'no-store' } })
        : Response.json(answer.body, { status: answer.status, headers: { 'Cache-Control': 'no-store' } });
    } catch (error) {
      if (!(error instanceof QaApiError)) throw error;
      return Response.json(
        { error: error.code, error_description: error.description },
        { status: error.status, headers: { ...error.headers, 'Cache-Control': 'no-store' } },
      );
    }
  };
}

/** Handles GET {base}/qa/clients/{client_id}: the control API's ClientInfo. */
export const qaClientEndpoint = qaEndpoint(async (_request, context, encodedClientId = '') => {
  const clientId = pathSegment(encodedClientId, 'client_id');
  const client = (await createControl(context).clients()).find((known) => known.clientId === clientId);
  if (!client) throw new QaApiError(404, 'unknown_client', `client_id ${describeValue(clientId)} is not registered`);
  return { status: 200, body: client };
});

/**
 * Handles PUT {base}/qa/faults/{fault_id} with `{"client_id": "…", "armed_by"?: "…"}`: arms the
 * fault for the next matching response to that client (204). Without `armed_by` it replaces
 * whatever is armed; with it, the fault is the run's own, and a fault armed by anyone else (by
 * hand, or by another run) is left as it is: 409 `fault_armed`.
 */
export const qaArmFaultEndpoint = qaEndpoint(async (request, context, encodedFaultId = '') => {
  const fault = knownFault(encodedFaultId);
  const body = await readJsonObject(request, ['client_id', 'armed_by']);
  const clientId = body.client_id;
  if (typeof clientId !== 'string') throw new QaApiError(400, 'invalid_request', "body member 'client_id' is required: the client the fault waits for");
  if (!context.clients.has(clientId)) throw new QaApiError(400, 'unknown_client', `client_id ${describeValue(clientId)} is not registered`);
  const armedBy = body.armed_by === undefined ? undefined : runOwner(body.armed_by, "body member 'armed_by'");
  const control = createControl(context);
  if (armedBy === undefined) {
    await control.armFault(fault, clientId);
    return { status: 204 };
  }
  const outcome = await control.armFaultAs(fault, clientId, armedBy);
  if (!outcome.armed) {
    throw new QaApiError(
      409,
      'fault_armed',
      outcome.existing
        ? `fault '${fault}' is armed already ${describeArming(outcome.existing)}; it was left as it is`
        : `fault '${fault}' was armed and applied by others while this request tried; it was not armed for you: try again`,
    );
  }
  return { status: 204 };
});

/**
 * Handles DELETE {base}/qa/faults/{fault_id}, optionally `?armed_by=…`: disarms the fault (204,
 * armed or not); with `armed_by`, only when it was armed with that `armed_by`, leaving anyone
 * else's (204 as well: the caller's fault is not armed either way).
 */
export const qaDisarmFaultEndpoint = qaEndpoint(async (request, context, encodedFaultId = '') => {
  const fault = knownFault(encodedFaultId);
  const rawArmedBy = singleQueryParameter(new URL(request.url).searchParams, 'armed_by');
  const armedBy = rawArmedBy === undefined ? undefined : runOwner(rawArmedBy, "query parameter 'armed_by'");
  await createControl(context).disarmFault(fault, armedBy);
  return { status: 204 };
});

/**
 * Handles PUT {base}/qa/lock with `{"owner": "…", "seconds": N}`: takes the deployment-wide run
 * lock for N seconds (RUN_LOCK_SECONDS), or renews it from now when `owner` holds it; 200
 * `{owner, expires_at}`. Another owner's lock: 409 `locked` with `Retry-After`.
 */
export const qaTakeLockEndpoint = qaEndpoint(async (request, context) => {
  const body = await readJsonObject(request, ['owner', 'seconds']);
  const owner = runOwner(body.owner, "body member 'owner'");
  const seconds = body.seconds;
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < RUN_LOCK_SECONDS.min || seconds > RUN_LOCK_SECONDS.max) {
    throw new QaApiError(
      400,
      'invalid_request',
      `body member 'seconds' must be a whole number of seconds from ${RUN_LOCK_SECONDS.min} to ${RUN_LOCK_SECONDS.max}`,
    );
  }
  const outcome = await createControl(context).takeRunLock(owner, seconds);
  if (outcome.taken) return { status: 200, body: lockBody(outcome.lock) };
  // Whole seconds, at least 1 (RFC 9110 §10.2.3): a lock about to end is worth asking again for.
  const secondsLeft = outcome.lock ? Math.max(1, Math.ceil((outcome.lock.expiresAt - context.now()) / 1000)) : 1;
  throw new QaApiError(
    409,
    'locked',
    outcome.lock
      ? `the emulator is held by conformance run '${outcome.lock.owner}' for ${secondsLeft} s more (until ${new Date(outcome.lock.expiresAt).toISOString()}); try again then`
      : 'the run lock changed hands while this request tried to take it; try again',
    { 'Retry-After': String(secondsLeft) },
  );
});

/** Handles DELETE {base}/qa/lock?owner=…: releases the run lock when `owner` holds it (204 either way). */
export const qaReleaseLockEndpoint = qaEndpoint(async (request, context) => {
  const rawOwner = singleQueryParameter(new URL(request.url).searchParams, 'owner');
  if (rawOwner === undefined) throw new QaApiError(400, 'invalid_request', "query parameter 'owner' is required: the owner that holds the lock");
  await createControl(context).releaseRunLock(runOwner(rawOwner, "query parameter 'owner'"));
  return { status: 204 };
});

/** Handles GET {base}/qa/lock: `{locked: false}`, or `{locked: true, owner, expires_at}`. */
export const qaLockEndpoint = qaEndpoint(async (_request, context) => {
  const lock = await createControl(context).runLock();
  return { status: 200, body: lock ? { locked: true, ...lockBody(lock) } : { locked: false } };
});

/**
 * Handles POST {base}/qa/flows with `{"request_uri", "faults"?, "given_name"?}`: for the flow whose
 * authorization page was opened with that request_uri, arms the faults for that flow only and
 * sets the given name of its ID token, replacing an earlier choice; 200 `{state, client_id}`.
 */
export const qaChooseFlowEndpoint = qaEndpoint(async (request, context) => {
  const body = await readJsonObject(request, ['request_uri', 'faults', 'given_name']);
  const requestUri = body.request_uri;
  if (typeof requestUri !== 'string' || requestUri === '' || requestUri.length > 1024) {
    throw new QaApiError(400, 'invalid_request', "body member 'request_uri' is required: the request_uri the authorization page was opened with");
  }
  const faults = flowFaults(body.faults);
  const givenName = checkGivenName(body.given_name);

  const flow = await context.traces.flowOfRequestUri(requestUri);
  if (!flow) {
    throw new QaApiError(404, 'not_found', 'no flow was opened with this request_uri in the last hour: open its authorization page (GET /auth) first');
  }
  await context.faults.armForFlow(flow.state, flow.clientId, faults);
  await context.traces.chooseGivenName(flow.state, flow.clientId, givenName);
  await context.traces.record(flow.state, flow.clientId, {
    step: 'flow_answer',
    outcome: 'ok',
    details: { chosen_with: 'qa_api', faults, given_name: givenName ?? 'persona' },
  });
  return { status: 200, body: { state: flow.state, client_id: flow.clientId } };
});

/** Handles GET {base}/qa/flows?client_id=…&since=…: the client's flows since then, newest first. */
export const qaFlowsEndpoint = qaEndpoint(async (request, context) => {
  const query = new URL(request.url).searchParams;
  const clientId = singleQueryParameter(query, 'client_id');
  if (clientId === undefined) throw new QaApiError(400, 'invalid_request', "query parameter 'client_id' is required");
  if (!context.clients.has(clientId)) throw new QaApiError(400, 'unknown_client', `client_id ${describeValue(clientId)} is not registered`);
  const rawSince = singleQueryParameter(query, 'since');
  const since = rawSince === undefined ? 0 : Number(rawSince);
  if (rawSince !== undefined && (!/^\d{1,16}$/.test(rawSince) || !Number.isSafeInteger(since))) {
    throw new QaApiError(400, 'invalid_request', `query parameter 'since' must be a time in ms since the epoch, not ${describeValue(rawSince)}`);
  }
  const flows = await context.traces.flowsOf(clientId, since);
  return { status: 200, body: { flows: flows.map((flow) => ({ state: flow.state, client_id: flow.clientId, started_at: flow.startedAt })) } };
});

/** Handles GET {base}/qa/flow?state=…: the flow's trace, the faults applied to it and the error chosen for it. */
export const qaFlowEndpoint = qaEndpoint(async (request, context) => {
  const state = singleQueryParameter(new URL(request.url).searchParams, 'state');
  if (state === undefined || state === '' || state.length > MAX_STATE_OR_NONCE_LENGTH) {
    throw new QaApiError(400, 'invalid_request', `query parameter 'state' is required: 1 to ${MAX_STATE_OR_NONCE_LENGTH} characters`);
  }
  const trace = await context.traces.read(state);
  if (!trace) throw new QaApiError(404, 'not_found', 'the emulator saw no flow with this state from an authenticated client in the last hour');
  const record = await context.faults.flowRecord(state);
  return {
    status: 200,
    body: {
      state: trace.state,
      client_id: trace.clientId,
      started_at: trace.startedAt,
      ...(trace.givenName === undefined ? {} : { given_name: trace.givenName }),
      faults: record.faults.filter((fault) => fault.clientId === trace.clientId),
      ...(record.error ? { error: { error: record.error.error, description: record.error.description } } : {}),
      // Stored as facts, worded now.
      events: trace.events.map((event) => ({
        at: event.at,
        step: event.step,
        outcome: event.outcome,
        summary: summaryOf(event, trace.clientId),
        details: event.details,
      })),
    },
  };
});

/** Handles GET {base}/qa/jwks-fetches: the last JWKS responses, newest first. */
export const qaJwksFetchesEndpoint = qaEndpoint(async (_request, context) => ({ status: 200, body: { fetches: await context.traces.jwksFetches() } }));

/** A path segment, percent-decoded. */
function pathSegment(encoded: string, name: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new QaApiError(400, 'invalid_request', `the ${name} in the path is not valid percent-encoding`);
  }
}

/** The fault a path names, or 404 `unknown_fault` listing the known ones. */
function knownFault(encoded: string): FaultId {
  const id = pathSegment(encoded, 'fault id');
  if (!isFaultId(id))
    throw new QaApiError(404, 'unknown_fault', `unknown fault ${describeValue(id)}; known faults: ${FAULTS.map((fault) => fault.id).join(', ')}`);
  return id;
}

/** A run's name (`armed_by`, `owner`): 1 to 64 of `[A-Za-z0-9_-]`, or 400. */
function runOwner(value: unknown, name: string): string {
  if (!isRunOwner(value)) throw new QaApiError(400, 'invalid_request', `${name} must be 1 to 64 letters, digits, '_' and '-'`);
  return value;
}

/** "for client 'demo-client' (armed by 'run-2')", "for any client (armed by hand: …)". */
function describeArming(arming: FaultArming): string {
  const scope = arming.clientId === undefined ? 'for any client' : `for client ${describeValue(arming.clientId)}`;
  const by = arming.armedBy === undefined ? 'by hand: on the QA panel, or without armed_by' : `by '${arming.armedBy}'`;
  return `${scope} (armed ${by})`;
}

/** The lock as the API shows it: its owner and when it ends (ms since the epoch). */
function lockBody(lock: RunLock): { owner: string; expires_at: number } {
  return { owner: lock.owner, expires_at: lock.expiresAt };
}

/** The faults a flow may be answered with (FLOW_FAULTS), each once; PAR's are the panel's. */
function flowFaults(value: unknown): FaultId[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string')) {
    throw new QaApiError(400, 'invalid_request', "body member 'faults' must be an array of fault ids");
  }
  const ids = [...new Set(value as string[])];
  const unknown = ids.find((id) => !isFaultId(id));
  if (unknown !== undefined) {
    throw new QaApiError(400, 'unknown_fault', `unknown fault ${describeValue(unknown)}; a flow may be answered with: ${FLOW_FAULTS.join(', ')}`);
  }
  const par = ids.find((id) => !FLOW_FAULTS.includes(id as FaultId));
  if (par !== undefined) {
    throw new QaApiError(
      400,
      'invalid_request',
      `fault '${par}' spoils the pushed authorization request, which comes before the flow is opened (${faultById(par as FaultId).target}): arm it for the client with PUT {base}/qa/faults/${par} before the flow starts`,
    );
  }
  return ids as FaultId[];
}

/** A given name to put in the flow's ID token, or undefined for the persona's. */
function checkGivenName(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || [...value].length > MAX_GIVEN_NAME_LENGTH || !GIVEN_NAME.test(value) || !/\p{L}/u.test(value)) {
    throw new QaApiError(
      400,
      'invalid_request',
      `body member 'given_name' must be 1 to ${MAX_GIVEN_NAME_LENGTH} characters of letters, marks, spaces, hyphens and apostrophes, with at least one letter`,
    );
  }
  return value;
}

/** A query parameter given at most once; a second is refused (the value would be ambiguous). */
function singleQueryParameter(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new QaApiError(400, 'invalid_request', `query parameter '${name}' must be given once`);
  return values[0];
}

/**
 * The request's JSON body: `Content-Type: application/json` (415 otherwise), at most
 * MAX_QA_BODY_BYTES (413), UTF-8 JSON of an object with no member but `members` (400).
 */
async function readJsonObject(request: Request, members: readonly string[]): Promise<Record<string, unknown>> {
  const contentType = request.headers.get('content-type');
  const [mediaType = ''] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase());
  if (mediaType !== 'application/json') {
    throw new QaApiError(415, 'invalid_request', `Content-Type must be application/json, not ${contentType ? describeValue(contentType) : 'absent'}`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readBody(request, MAX_QA_BODY_BYTES));
  } catch (error) {
    if (error instanceof Error && 'status' in error && error.status === 413)
      throw new QaApiError(413, 'invalid_request', `the body must be at most ${MAX_QA_BODY_BYTES} bytes`);
    throw new QaApiError(400, 'invalid_request', 'the body could not be read as UTF-8');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new QaApiError(400, 'invalid_request', 'the body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new QaApiError(400, 'invalid_request', 'the body must be a JSON object');
  const unknown = Object.keys(body).find((name) => !members.includes(name));
  if (unknown !== undefined) {
    throw new QaApiError(400, 'invalid_request', `the body has an unknown member ${describeValue(unknown)}; its members are ${members.join(', ')}`);
  }
  return body as Record<string, unknown>;
}
