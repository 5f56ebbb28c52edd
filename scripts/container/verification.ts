/**
 * One whole verification over HTTP, as a browser makes it without running scripts: the home page,
 * the start form, the emulator's authorization page, the quick-test decision (a persona and
 * "approve"), the callback, and the result page showing the person. Each response's
 * `X-Served-By` (the balancer's upstream, when there is one) is kept, to see which instances
 * served the flow; a test may hear of every answer, and have a request that got none sent again
 * (VerifyOptions).
 */

/** The persona the decision picks, and the name its result page must show. */
const PERSONA = { id: 'ingrid-haugen', name: 'Ingrid Solberg Haugen' };

export interface Verification {
  /** the result page's person */
  person: string;
  /** the instance that answered each request (the last address of `X-Served-By`), when known */
  servedBy: string[];
  /** of those, the ones after `midway` */
  servedAfterMidway: string[];
}

/** One answer the browser got. */
export interface Answer {
  method: string;
  url: string;
  status: number;
  /** where a redirect sends the browser */
  location?: string;
  /** when it came, and how long after the request was sent (the last time, if it was sent again) */
  at: number;
  ms: number;
  /** how many times the request was sent (more than once: sent again after no answer, `retryUnansweredUntil`) */
  sent: number;
}

export interface VerifyOptions {
  /** runs after the start, before the identity app's decision: e.g. stopping an instance mid-flow */
  midway?: () => Promise<void>;
  /**
   * Until when (epoch ms) a request that got no answer, because the connection was refused or
   * closed before one came (a server stopping, or not started yet), is sent again, every 200 ms,
   * as a patient person reloads. Without it, such a request fails the verification.
   */
  retryUnansweredUntil?: number;
  /** told of every answer, whether the verification then goes on or fails */
  onAnswer?: (answer: Answer) => void;
}

/** The codes of a request that got no answer: no connection, or one closed before any answer. */
const UNANSWERED = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET']);

function unanswered(error: unknown): boolean {
  const code = ((error as Error).cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && UNANSWERED.has(code);
}

/** A browser's cookie jar for one origin: enough for the session cookie. */
class Browser {
  #cookies = new Map<string, string>();
  readonly servedBy: string[] = [];

  constructor(private readonly options: VerifyOptions) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size > 0) headers.set('cookie', [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    let response: Response;
    let sentAt: number;
    let sent = 0;
    for (;;) {
      sentAt = Date.now();
      sent += 1;
      try {
        response = await fetch(url, { ...init, headers, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
        break;
      } catch (error) {
        if (!unanswered(error) || Date.now() >= (this.options.retryUnansweredUntil ?? 0)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const at = Date.now();
    const location = response.headers.get('location');
    this.options.onAnswer?.({ method: init.method ?? 'GET', url, status: response.status, ...(location ? { location } : {}), at, ms: at - sentAt, sent });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    // nginx lists every upstream it tried ("a:1, b:1"); the last one answered.
    const served = response.headers.get('x-served-by')?.split(',').at(-1)?.trim();
    if (served) this.servedBy.push(served);
    return response;
  }
}

function location(response: Response, step: string): string {
  const target = response.headers.get('location');
  if (![302, 303, 307].includes(response.status) || !target) throw new Error(`${step}: expected a redirect, got HTTP ${response.status}`);
  return target;
}

/** Completes one verification at `app` (the origin the browser uses, APP_URL). */
export async function verify(app: string, options: VerifyOptions = {}): Promise<Verification> {
  const browser = new Browser(options);
  const home = await browser.request(`${app}/`);
  if (home.status !== 200) throw new Error(`GET /: HTTP ${home.status}`);
  await home.arrayBuffer();
  const started = await browser.request(`${app}/auth/start`, {
    method: 'POST',
    headers: { origin: app, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'preset=full-kyc',
  });
  const authorization = location(started, 'POST /auth/start');
  if (!authorization.includes('/emulator/auth?'))
    throw new Error(`POST /auth/start sent the browser to ${authorization}, not to the emulator's authorization page`);
  const beforeMidway = browser.servedBy.length;
  await options.midway?.();
  const page = await (await browser.request(authorization)).text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';
  if (!field('interaction')) throw new Error('the authorization page has no interaction field');
  const decided = await browser.request(new URL('auth', authorization.slice(0, authorization.indexOf('/auth?') + 1)).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ interaction: field('interaction'), browser: field('browser'), persona: PERSONA.id, outcome: 'approve' }),
  });
  const callback = location(decided, 'POST /emulator/auth (the decision)');
  const completed = await browser.request(callback);
  const result = location(completed, 'GET /auth/callback');
  if (!result.endsWith('/result')) throw new Error(`the callback failed: it sent the browser to ${result}`);
  const html = await (await browser.request(new URL(result, app).href)).text();
  if (!html.includes(PERSONA.name)) {
    const code = /data-testid="error-code"[^>]*>([^<]+)</.exec(html)?.[1];
    throw new Error(`the result page does not show ${PERSONA.name}${code ? `: it shows the failure code ${code}` : ''}`);
  }
  return { person: PERSONA.name, servedBy: browser.servedBy, servedAfterMidway: browser.servedBy.slice(beforeMidway) };
}

/** Polls `url` until it answers 200 (and `accept` agrees), or throws after `timeoutMs`. */
export async function waitFor(url: string, timeoutMs: number, accept: (response: Response) => boolean = () => true): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.status === 200 && accept(response)) return response;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}
