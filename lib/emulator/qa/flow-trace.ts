/**
 * The protocol trace of each flow as the emulator saw it, for QA (the JSON QA API):
 * what the PAR, authorization, token and ID token steps received and
 * answered, kept per flow (the `state` of its request object) for an hour. Also kept here: the
 * flows of each client, which request_uri opened which flow, the given name QA chose for a flow,
 * and the last JWKS responses.
 *
 * Display only, and cheap: one read and one write per recorded step (a step's events are written
 * together), no locks. Two writers to one flow at once may lose an event; a flow is never lost,
 * since every flow has keys of its own. Only requests whose client authenticated record anything
 * (the flow log, qa/flow-log.ts, hears only of those), so an anonymous request never makes a
 * record. A store that cannot record does not fail the flow: the step goes unrecorded.
 * @see DECISIONS.md "The QA API and the flow trace"
 */
import { createHash } from 'node:crypto';
import { isStoreError, type Store } from '../../store/store';
import type { FaultId } from './faults';

/** The steps of a flow, in the order they happen. @see spec part 1 */
export const FLOW_STEPS = ['par', 'authorization_page', 'flow_answer', 'decision', 'redirect', 'token', 'id_token', 'token_response'] as const;
export type FlowStep = (typeof FLOW_STEPS)[number];

/** `ok`: as normal; `refused`: the emulator refused the request; `fault`: QA changed the answer on purpose. */
export type FlowEventOutcome = 'ok' | 'refused' | 'fault';

/** A value of an event's details: facts, never a credential in full (codes and nonces are masked). */
export type FlowEventDetail = string | number | boolean | string[];

/**
 * One thing the emulator saw or answered in a flow: facts, which the QA API words when it is read
 * (flow-event-summaries.ts).
 */
export interface FlowEvent {
  /** ms since the epoch */
  at: number;
  step: FlowStep;
  outcome: FlowEventOutcome;
  details: Record<string, FlowEventDetail>;
}

/** A flow's trace as stored. */
export interface FlowTrace {
  state: string;
  clientId: string;
  /** ms since the epoch: when the first event was recorded (the PAR, normally) */
  startedAt: number;
  /** the given name QA chose for this flow's ID token (POST {base}/qa/flows) */
  givenName?: string;
  events: FlowEvent[];
}

/** A flow in a client's list. */
export interface ListedFlow {
  state: string;
  clientId: string;
  startedAt: number;
}

/** One JWKS response: the kids in the order served, and the JWKS variants (qa/faults.ts) in effect. */
export interface JwksFetch {
  at: number;
  kids: string[];
  variants: FaultId[];
}

/** How long a trace, a client's flow list, a request_uri's flow and the JWKS log are kept. */
export const FLOW_TRACE_TTL_SECONDS = 3600;
/** At most this many events per flow: a flow has eight steps; a flow answer may be chosen a few times. */
export const MAX_FLOW_EVENTS = 40;
/** Every string value of an event (and each string of a list) is cut to this many characters. */
export const MAX_TRACE_STRING = 300;
/** At most this many strings in a list of an event's details. */
const MAX_TRACE_LIST = 40;
/** At most this many members in an event's details. */
const MAX_TRACE_DETAILS = 30;
/** The flows listed per client, and the JWKS responses kept. */
export const MAX_LISTED = 50;

/** The trace store of one emulator, over its state store. */
export class FlowTraces {
  /**
   * @param store the emulator's state store
   * @param now clock in ms
   */
  constructor(
    private readonly store: Store,
    private readonly now: () => number,
  ) {}

  /**
   * Appends events (in order) to the trace of the flow with `state`, making the trace when there
   * is none. A trace made for one client is never written by another: the events are dropped.
   * Call only once the client authenticated. Never throws for the store.
   */
  async record(state: string, clientId: string, ...events: Omit<FlowEvent, 'at'>[]): Promise<void> {
    await displayOnly(async () => {
      const key = traceKey(state);
      const trace = (await this.store.get<FlowTrace>(key)) ?? { state, clientId, startedAt: this.now(), events: [] };
      if (trace.clientId !== clientId) return;
      const at = this.now();
      trace.events = [...trace.events, ...events.map((event) => bounded({ ...event, at }))].slice(-MAX_FLOW_EVENTS);
      await this.store.set(key, trace, FLOW_TRACE_TTL_SECONDS);
    });
  }

  /** The trace of the flow with `state`, while kept. */
  async read(state: string): Promise<FlowTrace | undefined> {
    return this.store.get<FlowTrace>(traceKey(state));
  }

  /**
   * Sets (or, with undefined, removes) the given name QA chose for the flow's ID token, with an
   * event saying so; makes the trace when there is none.
   */
  async chooseGivenName(state: string, clientId: string, givenName: string | undefined): Promise<void> {
    const key = traceKey(state);
    const trace = (await this.store.get<FlowTrace>(key)) ?? { state, clientId, startedAt: this.now(), events: [] };
    if (trace.clientId !== clientId) return;
    if (givenName === undefined) delete trace.givenName;
    else trace.givenName = givenName;
    await this.store.set(key, trace, FLOW_TRACE_TTL_SECONDS);
  }

  /** The given name chosen for the flow with `state` of `clientId`, if any. */
  async givenName(state: string, clientId: string): Promise<string | undefined> {
    const trace = await this.store.get<FlowTrace>(traceKey(state));
    return trace?.clientId === clientId ? trace.givenName : undefined;
  }

  /**
   * Lists a flow among its client's, once its PAR passed every check (accepted, or answered by a
   * PAR fault). Each flow takes a slot of its own with `setIfAbsent`, in a bucket per client and
   * minute, so two flows listed at once never overwrite each other. Never throws for the store.
   */
  async list(state: string, clientId: string): Promise<void> {
    await displayOnly(async () => {
      const startedAt = this.now();
      const bucket = minuteOf(startedAt);
      const hint = (await this.store.get<number>(slotHintKey(clientId, bucket))) ?? 0;
      // The bucket's slots expire together, an hour after its minute ends.
      const ttl = Math.max(1, ((bucket + 1) * 60_000 + FLOW_TRACE_TTL_SECONDS * 1000 - startedAt) / 1000);
      for (let slot = hint; slot < hint + MAX_LISTED * 4; slot += 1) {
        if (await this.store.setIfAbsent(slotKey(clientId, bucket, slot), { state, clientId, startedAt } satisfies ListedFlow, ttl)) {
          await this.store.set(slotHintKey(clientId, bucket), slot + 1, ttl);
          return;
        }
      }
    });
  }

  /** The flows of `clientId` listed at or after `since` (ms), newest first, at most MAX_LISTED, from the last hour. */
  async flowsOf(clientId: string, since: number): Promise<ListedFlow[]> {
    const now = this.now();
    const oldest = Math.max(since, now - FLOW_TRACE_TTL_SECONDS * 1000);
    const flows: ListedFlow[] = [];
    for (let bucket = minuteOf(now); bucket >= minuteOf(oldest) && flows.length < MAX_LISTED; bucket -= 1) {
      const hint = (await this.store.get<number>(slotHintKey(clientId, bucket))) ?? 0;
      const inBucket: ListedFlow[] = [];
      // The hint may lag a slot just taken: read on until a free slot.
      for (let slot = 0; ; slot += 1) {
        const flow = await this.store.get<ListedFlow>(slotKey(clientId, bucket, slot));
        if (!flow) {
          if (slot >= hint) break;
          continue;
        }
        if (flow.startedAt >= oldest) inBucket.push(flow);
      }
      flows.push(...inBucket.sort((a, b) => b.startedAt - a.startedAt));
    }
    return flows.slice(0, MAX_LISTED);
  }

  /** Remembers which flow GET /auth opened with `requestUri` (it is used up then). Never throws for the store. */
  async rememberRequestUri(requestUri: string, state: string, clientId: string): Promise<void> {
    await displayOnly(() => this.store.set(requestUriKey(requestUri), { state, clientId }, FLOW_TRACE_TTL_SECONDS));
  }

  /** The flow a used request_uri opened, for an hour. */
  async flowOfRequestUri(requestUri: string): Promise<{ state: string; clientId: string } | undefined> {
    return this.store.get<{ state: string; clientId: string }>(requestUriKey(requestUri));
  }

  /** Logs one JWKS response. Never throws for the store. */
  async recordJwksFetch(kids: readonly string[], variants: readonly FaultId[]): Promise<void> {
    await displayOnly(async () => {
      const fetch: JwksFetch = { at: this.now(), kids: kids.slice(0, MAX_TRACE_LIST).map(cut), variants: [...variants] };
      await this.store.set(JWKS_LOG_KEY, [fetch, ...(await this.jwksFetches())].slice(0, MAX_LISTED), FLOW_TRACE_TTL_SECONDS);
    });
  }

  /** The last JWKS responses, newest first, at most MAX_LISTED, from the last hour. */
  async jwksFetches(): Promise<JwksFetch[]> {
    const oldest = this.now() - FLOW_TRACE_TTL_SECONDS * 1000;
    return ((await this.store.get<JwksFetch[]>(JWKS_LOG_KEY)) ?? []).filter((fetch) => fetch.at >= oldest);
  }
}

/**
 * A value shown in place of a secret or a long identifier: its first `keep` characters and "…"
 * (the whole value when it is that short).
 */
export function masked(value: string, keep: number): string {
  return value.length <= keep ? value : `${value.slice(0, keep)}…`;
}

/** Runs a write of the trace; a store that cannot take it loses the write, not the flow. */
async function displayOnly(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!isStoreError(error)) throw error;
  }
}

function cut(value: string): string {
  return value.length > MAX_TRACE_STRING ? `${value.slice(0, MAX_TRACE_STRING - 1)}…` : value;
}

/** The event with every string cut to MAX_TRACE_STRING, lists and details bounded. */
function bounded(event: FlowEvent): FlowEvent {
  const details = Object.entries(event.details)
    .slice(0, MAX_TRACE_DETAILS)
    .map(([name, value]) => [cut(name), Array.isArray(value) ? value.slice(0, MAX_TRACE_LIST).map(cut) : typeof value === 'string' ? cut(value) : value]);
  return { at: event.at, step: event.step, outcome: event.outcome, details: Object.fromEntries(details) };
}

/** Keys hold the SHA-256 of what the client chose (a state, a client_id, a request_uri), as qa/faults.ts does. */
function digest(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('base64url');
}

function traceKey(state: string): string {
  return `flow-trace:${digest(state)}`;
}

function requestUriKey(requestUri: string): string {
  return `flow-request-uri:${digest(requestUri)}`;
}

function slotKey(clientId: string, bucket: number, slot: number): string {
  return `flow-list:${digest(clientId)}:${bucket}:${slot}`;
}

function slotHintKey(clientId: string, bucket: number): string {
  return `flow-list-next:${digest(clientId)}:${bucket}`;
}

function minuteOf(ms: number): number {
  return Math.floor(ms / 60_000);
}

const JWKS_LOG_KEY = 'jwks-fetches';
