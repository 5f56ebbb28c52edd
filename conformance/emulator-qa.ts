/**
 * The kit's side of the emulator's QA API ({base}/qa/, lib/emulator/README.md "QA API"): the
 * only way the kit reaches the emulator, so it works against any instance it can sign in to, on
 * this machine or hosted. Every failure says what to do about it.
 */
import type { APIRequestContext, APIResponse } from 'playwright-core';
import type { FaultId } from '../lib/emulator/qa/faults';

/** One step of a flow as the emulator saw it. */
export interface FlowEvent {
  /** ms since the epoch */
  at: number;
  step: string;
  outcome: 'ok' | 'refused' | 'fault';
  summary: string;
  details: Record<string, string | number | boolean | string[]>;
}

/** A fault the emulator applied to a flow. */
export interface AppliedFault {
  id: string;
  at: number;
  chosen: 'panel' | 'flow';
}

/** A flow as the emulator saw it. */
export interface FlowTrace {
  state: string;
  client_id: string;
  started_at: number;
  given_name?: string;
  faults: AppliedFault[];
  error?: { error: string; description: string };
  events: FlowEvent[];
}

/** A response of the JWKS endpoint. */
export interface JwksFetch {
  at: number;
  kids: string[];
  variants: string[];
}

/** A registered client, as the QA API shows it. */
export interface ClientInfo {
  clientId: string;
  name?: string;
  redirectUris: string[];
}

/** An answer of the QA API that was not what the kit asked for. */
/** How often a run waiting for another's run lock asks again, in seconds. */
const LOCK_POLL_SECONDS = 5;
/** How many times a request the emulator turned away for a while (429, 503) is asked again, and the longest wait. */
const RETRIES = 3;
const RETRY_WAIT_SECONDS = 10;

export class EmulatorQaError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'EmulatorQaError';
  }
}

/** The QA API of the emulator at `base` (its base URL, e.g. http://localhost:3000/emulator). */
export class EmulatorQa {
  constructor(
    private readonly request: APIRequestContext,
    readonly base: string,
  ) {}

  /**
   * Signs in to the QA panel (its cookie stays in the request context), when `password` is given;
   * then checks that the QA API answers.
   */
  async signIn(password: string | undefined): Promise<void> {
    if (password !== undefined) {
      const response = await this.send(() => this.request.post(`${this.base}/panel`, { form: { action: 'sign_in', password }, maxRedirects: 0 }));
      if (response.status() === 403) throw new EmulatorQaError(`the QA panel at ${this.base} refused the password`, 403, 'access_denied');
      if (response.status() !== 303) throw await this.unexpected(response, 'signing in to the QA panel');
    }
    const probe = await this.send(() => this.request.get(`${this.base}/qa/jwks-fetches`));
    if (probe.status() === 403) {
      throw new EmulatorQaError(
        password === undefined
          ? `the emulator's QA panel at ${this.base} needs a password: give it with --panel-password (or EMULATOR_PANEL_PASSWORD)`
          : `the QA panel at ${this.base} took the password but its QA API still refuses: ${await this.describe(probe)}`,
        403,
        'access_denied',
      );
    }
    if (probe.status() === 404) {
      throw new EmulatorQaError(
        `${this.base} has no QA API (404 at ${this.base}/qa/jwks-fetches): is it this project's emulator, and is --emulator its base URL?`,
        404,
        'not_found',
      );
    }
    if (!probe.ok()) throw await this.unexpected(probe, 'reading the QA API');
  }

  /** The registered client, or an error saying it is not registered. */
  async client(clientId: string): Promise<ClientInfo> {
    const response = await this.send(() => this.request.get(`${this.base}/qa/clients/${encodeURIComponent(clientId)}`));
    if (response.status() === 404) {
      throw new EmulatorQaError(
        `the emulator at ${this.base} has no client '${clientId}': register it with EMULATOR_CLIENTS (README, "Test your own relying party")`,
        404,
        'unknown_client',
      );
    }
    if (!response.ok()) throw await this.unexpected(response, `reading client '${clientId}'`);
    return (await response.json()) as ClientInfo;
  }

  /**
   * Arms `fault` for the next matching response to `clientId`, as `armedBy`'s: the emulator
   * refuses (`fault_armed`) when someone armed it already, and leaves theirs alone.
   */
  async armFault(fault: FaultId, clientId: string, armedBy: string): Promise<void> {
    const response = await this.send(() => this.request.put(`${this.base}/qa/faults/${fault}`, { data: { client_id: clientId, armed_by: armedBy } }));
    if (response.status() !== 204) throw await this.unexpected(response, `arming '${fault}'`);
  }

  /** Disarms `fault` if `armedBy` armed it (a case that did not use it); anyone else's stays armed. */
  async disarmFault(fault: FaultId, armedBy: string): Promise<void> {
    const response = await this.send(() => this.request.delete(`${this.base}/qa/faults/${fault}`, { params: { armed_by: armedBy } }));
    if (response.status() !== 204) throw await this.unexpected(response, `disarming '${fault}'`);
  }

  /**
   * Takes the emulator's run lock for `seconds`, or renews it when `owner` holds it: one
   * conformance run at a time per emulator deployment (every instance on its store).
   * @returns undefined when taken; when another run holds it, how long to wait and why: at most
   *   LOCK_POLL_SECONDS, as the lock's Retry-After is when it would expire unrenewed, and its holder
   *   may release it at any moment before
   */
  async lock(owner: string, seconds: number): Promise<{ retryAfterSeconds: number; why: string } | undefined> {
    const response = await this.send(() => this.request.put(`${this.base}/qa/lock`, { data: { owner, seconds } }));
    if (response.ok()) return undefined;
    if (response.status() === 409) {
      const retryAfter = Number(response.headers()['retry-after']);
      return {
        retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 1 ? Math.min(retryAfter, LOCK_POLL_SECONDS) : LOCK_POLL_SECONDS,
        why: await this.describe(response),
      };
    }
    throw await this.unexpected(response, 'taking the run lock');
  }

  /** Releases the run lock if `owner` holds it. */
  async unlock(owner: string): Promise<void> {
    const response = await this.send(() => this.request.delete(`${this.base}/qa/lock`, { params: { owner } }));
    if (response.status() !== 204) throw await this.unexpected(response, 'releasing the run lock');
  }

  /**
   * Chooses how the flow whose authorization page was opened with `requestUri` is answered: its
   * faults, and the given name its ID token carries. @returns the flow's `state`
   */
  async answerFlow(requestUri: string, faults: readonly FaultId[], givenName: string): Promise<string> {
    const response = await this.send(() => this.request.post(`${this.base}/qa/flows`, { data: { request_uri: requestUri, faults, given_name: givenName } }));
    if (!response.ok()) throw await this.unexpected(response, 'choosing the answer of the flow');
    return ((await response.json()) as { state: string }).state;
  }

  /** The states of the flows of `clientId` started at or after `since` (ms), newest first. */
  async flowsSince(clientId: string, since: number): Promise<string[]> {
    const response = await this.send(() => this.request.get(`${this.base}/qa/flows`, { params: { client_id: clientId, since: String(since) } }));
    if (!response.ok()) throw await this.unexpected(response, 'listing the flows');
    return ((await response.json()) as { flows: { state: string }[] }).flows.map((flow) => flow.state);
  }

  /** The flow with this `state` as the emulator saw it; undefined when it saw none. */
  async flow(state: string): Promise<FlowTrace | undefined> {
    const response = await this.send(() => this.request.get(`${this.base}/qa/flow`, { params: { state } }));
    if (response.status() === 404) return undefined;
    if (!response.ok()) throw await this.unexpected(response, 'reading the flow');
    return (await response.json()) as FlowTrace;
  }

  /** The latest responses of the JWKS endpoint, newest first. */
  async jwksFetches(): Promise<JwksFetch[]> {
    const response = await this.send(() => this.request.get(`${this.base}/qa/jwks-fetches`));
    if (!response.ok()) throw await this.unexpected(response, 'reading the JWKS fetches');
    return ((await response.json()) as { fetches: JwksFetch[] }).fetches;
  }

  /**
   * Sends a request, turning a connection failure into an error that names the emulator. An
   * answer of 429 or 503 with Retry-After (the emulator's rate limits, a store that is out for a
   * moment) is waited out and asked again, up to RETRIES times, for at most RETRY_WAIT_SECONDS each.
   */
  private async send(request: () => Promise<APIResponse>): Promise<APIResponse> {
    for (let attempt = 0; ; attempt += 1) {
      const response = await this.sendOnce(request);
      const retryAfter = Number(response.headers()['retry-after']);
      if (attempt >= RETRIES || (response.status() !== 429 && response.status() !== 503) || !(retryAfter >= 0)) return response;
      await response.dispose();
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, RETRY_WAIT_SECONDS) * 1000));
    }
  }

  private async sendOnce(request: () => Promise<APIResponse>): Promise<APIResponse> {
    try {
      return await request();
    } catch (error) {
      throw new EmulatorQaError(
        `cannot reach the emulator at ${this.base}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        0,
        'unreachable',
      );
    }
  }

  private async unexpected(response: APIResponse, doing: string): Promise<EmulatorQaError> {
    const body = await response.json().catch(() => undefined);
    const code = typeof body?.error === 'string' ? body.error : undefined;
    return new EmulatorQaError(`the emulator answered ${doing} with ${await this.describe(response, body)}`, response.status(), code);
  }

  private async describe(response: APIResponse, body?: { error?: unknown; error_description?: unknown }): Promise<string> {
    const parsed = body ?? (await response.json().catch(() => undefined));
    const error = typeof parsed?.error === 'string' ? ` ${parsed.error}` : '';
    const description = typeof parsed?.error_description === 'string' ? `: ${parsed.error_description}` : '';
    return `${response.status()}${error}${description}`;
  }
}
