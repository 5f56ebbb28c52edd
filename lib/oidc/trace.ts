/**
 * A record of every exchange of one flow, in order, for the protocol trace that QA reads
 * (method, URL, status, time, the form sent and the body received). The core records into it
 * through a wrapping fetch, so nothing is traced that did not really go over the wire; what a
 * cache answered is noted as such, and so is each check of the ID token with its verdict.
 * Presentation (decoding JWTs, masking secrets) is not done here.
 *
 * Copy with: checks.ts, errors.ts, http.ts, types.ts.
 */
import type { IdTokenCheck } from './checks.ts';
import { readBoundedText } from './http.ts';
import type { FetchLike } from './types.ts';

/**
 * The steps of the flow of part 1 a trace entry belongs to, in their order.
 * @see Interface specification 1 "What the service does"
 * @see https://openid.net/specs/openid-connect-core-1_0.html#CodeFlowAuth
 */
export type TraceStep = 'discovery' | 'par' | 'authorization_redirect' | 'callback' | 'token' | 'jwks' | 'id_token';

/** One request and its response (or its failure), as it went over the wire. */
export interface TraceExchange {
  type: 'http';
  step: TraceStep;
  method: string;
  url: string;
  /** the parameters of an `application/x-www-form-urlencoded` request body */
  requestForm?: Record<string, string>;
  status?: number;
  /** content-type, cache-control and retry-after of the response */
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  /** ms since the epoch */
  startedAt: number;
  durationMs: number;
  /** set when the request failed without a response (timeout, connection refused) */
  error?: string;
}

/** A step that did not go over the wire: a redirect, a callback, a cache hit, the ID token's content. */
export interface TraceNote {
  type: 'note';
  step: TraceStep;
  /** ms since the epoch */
  at: number;
  /** true when a cache answered instead of the network */
  fromCache?: boolean;
  url?: string;
  detail?: Record<string, unknown>;
}

/**
 * One check of the ID token and its verdict (checks.ts), as `processIdToken` made it. Its
 * `expected` and `received` hold the values compared, secrets (the nonce) included.
 */
export interface TraceCheck extends IdTokenCheck {
  type: 'check';
  step: 'id_token';
  /** ms since the epoch */
  at: number;
}

/** One entry of a trace. */
export type TraceEvent = TraceExchange | TraceNote | TraceCheck;

const KEPT_RESPONSE_HEADERS = ['content-type', 'cache-control', 'retry-after'];
/** Bodies beyond this are cut: an encrypted ID token with a portrait is tens of kilobytes. */
const MAX_BODY_CHARS = 100_000;

function formOf(body: RequestInit['body']): Record<string, string> | undefined {
  if (body instanceof URLSearchParams) return Object.fromEntries(body);
  if (typeof body === 'string') return Object.fromEntries(new URLSearchParams(body));
  return undefined;
}

/**
 * The events of one flow, in order. Pass it to `startAuthorization` and `completeAuthorization`
 * as `trace`. Events are plain data: store them between the two calls and continue with
 * `new ProtocolTrace(events)`.
 * @param events the events so far (appended to in place)
 * @param now the clock, in ms since the epoch
 */
export class ProtocolTrace {
  readonly events: TraceEvent[];
  /**
   * The `state` of the flow this trace records, once `startAuthorization` generated it (before
   * PAR): a failure of the start can then be told apart by the flow it ended. Not an event: keep
   * it yourself between the two calls, as the pending authorization does.
   */
  state: string | undefined = undefined;
  readonly #now: () => number;

  constructor(events: TraceEvent[] = [], now: () => number = Date.now) {
    this.events = events;
    this.#now = now;
  }

  /**
   * A fetch that records each exchange under `step`, then behaves exactly like `inner`: the same
   * response, or the same error rethrown.
   */
  fetchFor(step: TraceStep, inner: FetchLike = fetch): FetchLike {
    return async (input, init) => {
      const startedAt = this.#now();
      const exchange: TraceExchange = {
        type: 'http',
        step,
        method: (init?.method ?? 'GET').toUpperCase(),
        url: input instanceof Request ? input.url : String(input),
        startedAt,
        durationMs: 0,
      };
      const form = formOf(init?.body);
      if (form) exchange.requestForm = form;
      this.events.push(exchange);
      try {
        const response = await inner(input, init);
        exchange.durationMs = this.#now() - startedAt;
        exchange.status = response.status;
        exchange.responseHeaders = Object.fromEntries(
          KEPT_RESPONSE_HEADERS.flatMap((name) => {
            const value = response.headers.get(name);
            return value === null ? [] : [[name, value]];
          }),
        );
        exchange.responseBody = ((await readBoundedText(response.clone())) ?? '(too large to record)').slice(0, MAX_BODY_CHARS);
        return response;
      } catch (error) {
        exchange.durationMs = this.#now() - startedAt;
        exchange.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        throw error;
      }
    };
  }

  /** Records a step that did not go over the wire (a redirect, a callback, a cache hit). */
  note(step: TraceStep, note: Omit<TraceNote, 'type' | 'step' | 'at'> = {}): void {
    this.events.push({ type: 'note', step, at: this.#now(), ...note });
  }

  /** Records one check of the ID token (pass it to `processIdToken` as `onCheck`). */
  check(check: IdTokenCheck): void {
    this.events.push({ type: 'check', step: 'id_token', at: this.#now(), ...check });
  }

  /** Whether anything was recorded for `step` since event number `since`. */
  recordedSince(since: number, step: TraceStep): boolean {
    return this.events.slice(since).some((event) => event.step === step);
  }
}
