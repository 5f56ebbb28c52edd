import 'server-only';
/**
 * A failure's one way through the app: thrown with its trace where the flow fails (`traced`),
 * turned into a redirect by the route that caught it (`failureRedirect`), recorded on the way
 * for the browser whose failure it is (`recordFailure`, within failure-records.ts' limits), and
 * read by the failure page (`getFailure`, app/failure/page.tsx).
 *
 * A refusal (a start over the rate limits, a store that is full or does not answer) records
 * nothing: its code and its wait travel in the link, and the failure page is served with its
 * status, 429 or 503, and `Retry-After` (proxy.ts). Every failure is shown by one page, one
 * component.
 */
import { isIdvError, randomToken, type ProtocolTrace, type Selection, type TraceCheck } from '@/lib/oidc';
import { isStoreError } from '@/lib/store/store';
import { failureLink, isAppError, type FailureCode, type FailureLink } from '@/lib/verification/failures';
import { STORED_FORMAT, type FailureRecord } from '@/lib/verification/stored';
import type { AssurancePolicy } from '@/lib/verification/policy';
import { recordCheck, recordComparison, recordTrace } from '@/lib/verification/trace';
import { clientAddress } from './client-address';
import { serverConfig } from './configuration';
import { isRateLimited } from './rate-limits';
import { redirect303 } from './responses';
import { services, type Services } from './services';
import { currentBrowser } from './session';

/** What a failed flow asked for, so that the failure page can ask for it again. */
export interface FailedRequest {
  selection: Selection;
  policy?: AssurancePolicy;
  /** the flow's `state`, when the app knows it (the embedded emulator records what it did to a flow by it) */
  state?: string;
}

/**
 * Thrown work keeps its trace, so the failure page can show the exchanges up to the failure, and
 * what it asked for, so the page can ask again.
 */
class TracedFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly trace: ProtocolTrace,
    readonly request: FailedRequest | undefined,
  ) {
    super('traced failure');
  }
}

/** `error` with the trace of the flow it ended and what the flow asked for, for the failure page. */
export function traced(error: unknown, trace: ProtocolTrace, request?: FailedRequest): Error {
  return new TracedFailure(error, trace, request);
}

const unwrap = (thrown: unknown): unknown => (thrown instanceof TracedFailure ? thrown.error : thrown);

/** The code the failure page shows for what was thrown. */
export function failureCodeOf(thrown: unknown): FailureCode {
  const error = unwrap(thrown);
  if (isStoreError(error)) return error.code;
  if (isRateLimited(error)) return 'rate_limited';
  return isIdvError(error) || isAppError(error) ? error.code : 'internal_error';
}

/** When the endpoint that failed is asked again, if the core backs off from it (`cause.retryAfterMs`). */
function retryAt(error: unknown): Pick<FailureRecord, 'retryAt'> {
  const after = isIdvError(error) ? error.cause.retryAfterMs : undefined;
  return typeof after === 'number' && Number.isFinite(after) && after >= 0 ? { retryAt: Date.now() + after } : {};
}

/** The service's own `error` and `error_description`, verbatim, when it sent them (an OAuth error). */
function serviceWords(error: unknown): Pick<FailureRecord, 'serviceError' | 'description'> {
  if (!isIdvError(error)) return {};
  const { error: sent, description } = error.cause;
  return {
    ...(typeof sent === 'string' ? { serviceError: sent.slice(0, 100) } : {}),
    ...(typeof description === 'string' ? { description } : {}),
  };
}

/**
 * What the page says of the failure's cause beyond its code: the app's refusal as data, the
 * core's own sentence. Not for an error the service sent: the core's sentence only joins its
 * `error` and `error_description`, which the page shows as the service wrote them.
 */
function detailOf(error: unknown): Pick<FailureRecord, 'detail'> {
  if (isAppError(error)) return { detail: error.detail };
  if (isIdvError(error) && typeof error.cause.error !== 'string') return { detail: { kind: 'core_message', message: error.message } };
  return {};
}

/**
 * What the failure compared: the check of the ID token that failed with the failure's code (the
 * core reports every check: lib/oidc/checks.ts), else what the error's cause names.
 */
function whatFailed(error: unknown, events: ProtocolTrace['events']): Pick<FailureRecord, 'failedCheck' | 'comparison'> {
  if (!isIdvError(error)) return {};
  const checks = events.filter((event): event is TraceCheck => event.type === 'check' && !event.passed);
  const check = checks.find((event) => event.code === error.code) ?? checks[0];
  if (check) return { failedCheck: recordCheck(check) };
  const comparison = recordComparison(error.cause);
  return comparison ? { comparison } : {};
}

/**
 * In emulator mode, what the embedded emulator did on purpose to the flow that failed (the
 * faults it applied, armed on its panel or chosen for this flow on its page, and the error chosen
 * for it), asked by the flow's `state` through the diagnostics port. A redirect whose `state` a
 * fault changed finds no flow of ours: the flows the emulator altered last are then searched for
 * one still pending in this browser, and that flow's request is the one that failed (the service
 * says it altered that very flow, and this browser started it), so it can be asked for again.
 * Attribution never costs the failure its record: any error here gives no attribution.
 */
async function deliberateAnswer(
  { diagnostics, flows }: Pick<FailureServices, 'diagnostics' | 'flows'>,
  failure: TracedFailure | undefined,
  browser: string,
): Promise<Pick<FailureRecord, 'emulatorAnswer' | 'request'>> {
  try {
    if (!diagnostics || !failure) return {};
    let state = failure.request?.state;
    let request: FailureRecord['request'];
    if (state === undefined) {
      for (const altered of await diagnostics.alteredFlows()) {
        const flow = await flows.get(altered);
        if (flow?.browser === browser) {
          state = altered;
          request = { selection: flow.selection, ...(flow.policy ? { policy: flow.policy } : {}) };
          break;
        }
      }
    }
    const answer = state === undefined ? undefined : await diagnostics.answerTo(state);
    return answer ? { emulatorAnswer: answer, ...(request ? { request } : {}) } : {};
  } catch (error) {
    console.error('[idv] cannot tell what the emulator did to a failed flow', error);
    return {};
  }
}

/** What recording a failure needs of the process. */
export type FailureServices = Pick<Services, 'config' | 'failureRecorder' | 'failures' | 'flows' | 'diagnostics'>;

/**
 * Records a failure for the failure page, bound to this browser (its detail and trace name our
 * client and the request); never includes identity data. Kept only within the failure records'
 * limits (failure-records.ts): a request without a binding, or over them, gets its code only.
 */
export async function recordFailure(
  app: FailureServices,
  thrown: unknown,
  { browser, headers }: { browser: string | undefined; headers: Headers },
): Promise<FailureLink> {
  const { failureRecorder, config } = app;
  const error = unwrap(thrown);
  const known = isIdvError(error) || isAppError(error);
  if (!known) console.error('[idv] unexpected failure', error);
  const code = failureCodeOf(error);
  if (browser === undefined) return { code };
  const events = thrown instanceof TracedFailure ? thrown.trace.events : [];
  const record: FailureRecord = {
    format: STORED_FORMAT,
    id: randomToken(24),
    browser,
    code,
    ...detailOf(error),
    ...serviceWords(error),
    ...whatFailed(error, events),
    ...(thrown instanceof TracedFailure && thrown.request
      ? { request: { selection: thrown.request.selection, ...(thrown.request.policy ? { policy: thrown.request.policy } : {}) } }
      : {}),
    ...retryAt(error),
    createdAt: Date.now(),
    trace: recordTrace(events),
  };
  const kept = await failureRecorder.keep(record, clientAddress(headers, config.trustedProxies), () =>
    deliberateAnswer(app, thrown instanceof TracedFailure ? thrown : undefined, browser),
  );
  return kept ? { code, id: record.id } : { code };
}

/**
 * A recorded failure as this browser may see it: whole when it is this browser's own, else only
 * its code (the link alone must not show another browser's request, client and trace).
 */
export async function getFailure(
  { failures }: Pick<FailureServices, 'failures'>,
  id: string,
  browser: string | undefined,
): Promise<{ own: true; record: FailureRecord } | { own: false; code: FailureCode } | undefined> {
  const record = await failures.get(id);
  if (!record) return undefined;
  // One kept by another version of the app shows its code alone (STORED_FORMAT).
  const own = record.browser !== undefined && record.browser === browser && record.format === STORED_FORMAT;
  return own ? { own: true, record } : { own: false, code: record.code };
}

/**
 * 303 to the failure page. A refusal (a store that is full or does not answer, a start over the
 * rate limits) records nothing and carries its wait; any other failure is recorded first (within
 * the failure records' limits, for a browser with a binding). A failure that is not recorded (no
 * binding, over the limits, or the failure records' store refuses) still reaches the failure page
 * with its code, without the record's detail and trace.
 */
export async function failureRedirect(error: unknown, request: Request): Promise<Response> {
  try {
    const { appUrl } = await serverConfig();
    const to = (failure: FailureLink) => redirect303(new URL(failureLink(failure), appUrl));
    if (isStoreError(error) || isRateLimited(error)) return to({ code: failureCodeOf(error), retryAfterSeconds: error.retryAfterSeconds });
    try {
      return to(await recordFailure(await services(), error, { browser: await currentBrowser(), headers: request.headers }));
    } catch (recordError) {
      // The failure still reaches its page with its code, only without the record's detail.
      if (!isStoreError(recordError)) console.error('[idv] cannot record a failure', recordError);
      return to({ code: failureCodeOf(error) });
    }
  } catch (configError) {
    // The configuration itself is broken: there is no app URL to send anyone to.
    console.error('[idv] cannot record a failure', configError);
    return new Response('The app is misconfigured; see the server log.', { status: 500 });
  }
}
