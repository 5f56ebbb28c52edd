/**
 * Outbound HTTP for every step: a timeout on each call, https unless insecure requests are
 * explicitly allowed, and failures mapped to codes. Our rule: every outbound call has a timeout
 * (about 10 s), and every failure maps to a code, so that a page can explain it.
 *
 * Copy with: errors.ts, types.ts.
 */
import { IdvError, isIdvError, oauthError } from './errors.ts';
import type { HttpOptions } from './types.ts';

/** Milliseconds before an outbound call is aborted, unless `HttpOptions.timeoutMs` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** No answer of the service is this large (an ID token with a portrait is tens of kilobytes). */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Nothing is cached longer than a day, whatever a header says (8: the JWKS max-age is 86400). */
const MAX_CACHE_SECONDS = 86_400;

/**
 * A cache's HTTP options for one call made on a relying party's behalf: each of the call's own
 * (`fetch`, `timeoutMs`, `allowInsecureRequests`) over the cache's, where given. So the relying
 * party's `http` is the one switch: `allowInsecureRequests` there reaches discovery and the JWKS.
 */
export function withCallOptions<T extends HttpOptions>(own: T, call: HttpOptions): T {
  const given = Object.fromEntries(Object.entries(call).filter(([, value]) => value !== undefined));
  return { ...own, ...given };
}

/**
 * Refuses a URL that is not https, unless `allowInsecureRequests` was named.
 * @param what the endpoint in words, for the error message ("The PAR endpoint")
 * @returns the parsed URL
 * @throws IdvError with code `invalid_response` (not a URL) or `insecure_url` (not https)
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.2.1
 */
export function assertSecureUrl(url: string, options: HttpOptions, what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new IdvError('invalid_response', `${what} is not a valid URL`, { actual: url });
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:' && options.allowInsecureRequests) return parsed;
  throw new IdvError(
    'insecure_url',
    `${what} must use https (for an emulator on this machine, set allowInsecureRequests in the relying party's http options)`,
    {
      actual: url,
    },
  );
}

/**
 * fetch() with a timeout, no redirects followed, and transport failures mapped to codes. A
 * redirect is returned as it came, so the step that called sees an unexpected status rather than
 * following it somewhere else. An HTTP error status is not a failure here: the caller checks it.
 * @param what the endpoint in words, for error messages
 * @throws IdvError with code `insecure_url` (not https) or `invalid_response` (not a URL),
 *   `timeout` or `network_error`; a `network_error` keeps the platform's code of the failure in
 *   `cause.transportCode` (ENOTFOUND, ECONNREFUSED, CERT_HAS_EXPIRED, ...) and its words in
 *   `cause.transportMessage`, where the failed fetch carried them
 * @see https://openid.net/specs/fapi-security-profile-2_0-final.html#section-5.2.1
 */
export async function send(url: string, init: RequestInit, options: HttpOptions, what: string): Promise<Response> {
  assertSecureUrl(url, options, what);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    // `cache: 'no-store'`: caching is ours (Cache-Control aware), never a framework's fetch cache
    // (Next.js caches fetch otherwise). Node's own RequestInit type does not list `cache`.
    const request: RequestInit & { cache: 'no-store' } = { ...init, redirect: 'manual', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) };
    return await doFetch(url, request);
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new IdvError('timeout', `${what} did not answer within ${timeoutMs} ms`, { url });
    }
    const transport = transportFailure(error);
    const said = transport?.message ?? (error as Error).message;
    const message = transport?.code && !said.includes(transport.code) ? `${said} (${transport.code})` : said;
    throw new IdvError('network_error', `${what} could not be reached: ${message}`, {
      url,
      ...(transport?.code ? { transportCode: transport.code } : {}),
      ...(transport ? { transportMessage: transport.message } : {}),
    });
  }
}

/**
 * The failure under a failed fetch: fetch itself says only "fetch failed", and keeps what went
 * wrong in its `cause` (Node: an Error with a `code` such as ENOTFOUND, ECONNREFUSED,
 * DEPTH_ZERO_SELF_SIGNED_CERT), sometimes several addresses' failures in an AggregateError.
 * The first code found, looking a few causes deep, with its message; else the innermost message.
 */
function transportFailure(error: unknown): { code?: string; message: string } | undefined {
  let innermost: string | undefined;
  const queue: unknown[] = [error];
  for (let looked = 0; queue.length > 0 && looked < 8; looked++) {
    const next = queue.shift();
    if (!(next instanceof Error)) continue;
    const { code } = next as Error & { code?: unknown };
    if (typeof code === 'string' && code !== '') return { code, message: next.message };
    if (next !== error && next.message) innermost = next.message;
    if (next.cause !== undefined) queue.push(next.cause);
    if (next instanceof AggregateError) queue.push(...next.errors);
  }
  return innermost === undefined ? undefined : { message: innermost };
}

/**
 * A body as text, read no further than `maxBytes`: a hostile or broken peer cannot make us buffer
 * an endless body (a chunked one has no Content-Length to check first). Undefined when it is
 * larger, or when reading it failed.
 */
export async function readBoundedText(message: Request | Response, maxBytes = MAX_RESPONSE_BYTES): Promise<string | undefined> {
  if (Number(message.headers.get('content-length') ?? 0) > maxBytes) return undefined;
  if (!message.body) return '';
  const reader = message.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        // Not awaited: cancelling one branch of a cloned (teed) body settles only once the other
        // branch is cancelled too, which the caller may do only after this returns.
        reader.cancel().catch(() => undefined);
        return undefined;
      }
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Reads a JSON object body; anything else is `invalid_response` (or the given code).
 * @param what the body in words, for error messages ("The PAR response")
 * @param code the code to throw with, so that discovery and the JWKS keep their own
 * @throws IdvError with code `code`: the body is too large or unreadable, not JSON, or not an object
 */
export async function readJsonObject(
  response: Response,
  what: string,
  code: 'invalid_response' | 'discovery_failed' | 'jwks_fetch_failed' = 'invalid_response',
): Promise<Record<string, unknown>> {
  const text = await readBoundedText(response);
  if (text === undefined) throw new IdvError(code, `${what} is too large or could not be read`, { status: response.status });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new IdvError(code, `${what} is not JSON`, { status: response.status });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new IdvError(code, `${what} is not a JSON object`, { status: response.status });
  }
  return body as Record<string, unknown>;
}

/**
 * Turns an error response into an IdvError: an RFC 6749 §5.2 body `{error, error_description}`
 * keeps the service's code (part 7 lists those of PAR); any other failure gets `fallback`, with
 * the status and the first 500 characters of the body in `cause`. Returns the error; the caller
 * throws it.
 * @see Interface specification 7 "Errors"
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 * @see https://www.rfc-editor.org/rfc/rfc9126#section-2.3
 */
export async function errorFromResponse(response: Response, what: string, fallback: 'par_failed' | 'token_failed'): Promise<IdvError> {
  const text = (await readBoundedText(response)) ?? '';
  try {
    const body: unknown = JSON.parse(text);
    if (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string') {
      const { error, error_description: description } = body as { error: string; error_description?: unknown };
      return oauthError(error, typeof description === 'string' ? description : undefined, response.status);
    }
  } catch {
    // not JSON: fall through to the generic failure below
  }
  return new IdvError(fallback, `${what} answered HTTP ${response.status}`, {
    status: response.status,
    body: text.slice(0, 500),
  });
}

/**
 * Seconds a response may be cached for, from its Cache-Control header (RFC 9111 §5.2.2):
 * `no-store` / `no-cache` → 0, `max-age=N` → N, absent → `fallback`. Never more than a day.
 * @see Interface specification 4.4 "GET /jwks"
 * @see Interface specification 8 "Limits"
 * @see https://www.rfc-editor.org/rfc/rfc9111#section-5.2.2
 */
export function cacheLifetimeSeconds(response: Response, fallback: number): number {
  const header = response.headers.get('cache-control');
  if (!header) return fallback;
  const directives = header
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  for (const directive of directives) {
    const match = /^max-age=(\d+)$/.exec(directive);
    if (match) return Math.min(Number(match[1]), MAX_CACHE_SECONDS);
  }
  return fallback;
}

/**
 * RFC 5861 stale-if-error: a cached document (discovery, JWKS) stays usable for a day past its
 * freshness while refreshes fail. A day is the service's own JWKS max-age (4.4): an outage the
 * service fixes within a working day does not stop verifications, and a key it has withdrawn is
 * still trusted for at most that long after our last successful fetch.
 * @see https://www.rfc-editor.org/rfc/rfc5861#section-4
 */
export const DEFAULT_STALE_IF_ERROR_SECONDS = 86_400;

/**
 * After a failed fetch, no other for a second, doubling with each failure in a row up to 30 s; a
 * success starts again at a second. A provider in trouble gets one request per back-off from us,
 * however many page views, ID tokens or forged callbacks arrive meanwhile, and once it is back we
 * know within 30 s.
 */
export const RETRY_BACKOFF_INITIAL_MS = 1_000;
export const RETRY_BACKOFF_MAX_MS = 30_000;

/**
 * `staleIfErrorSeconds` in milliseconds.
 * @throws RangeError unless a finite number, 0 or more (NaN would switch the bound off)
 */
export function staleIfErrorMs(seconds: number): number {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new RangeError(`staleIfErrorSeconds must be a finite number, 0 or more (got ${String(seconds)})`);
  }
  return seconds * 1000;
}

/** The back-off after `count` failures in a row: 1 s, 2 s, 4 s, ... up to 30 s. */
export function retryBackoffMs(count: number): number {
  return Math.min(RETRY_BACKOFF_INITIAL_MS * 2 ** (count - 1), RETRY_BACKOFF_MAX_MS);
}

/**
 * Loads per key, one request at a time (concurrent callers share it), and none while backed off
 * after a failure: a call then fails at once with the failure that started the back-off. Every
 * IdvError it rejects with, the failure itself and its repetitions, says when the next request
 * may go (`cause.retryAfterMs`, and the message). A success ends the back-off.
 */
export class BackedOffLoader<T> {
  readonly #now: () => number;
  readonly #inflight = new Map<string, Promise<T>>();
  readonly #failures = new Map<string, { error: unknown; count: number; retryAt: number }>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /** `load()` for `key`, unless a load is in flight (its promise) or the key is backed off (rejected). */
  load(key: string, load: () => Promise<T>): Promise<T> {
    const pending = this.#inflight.get(key);
    if (pending) return pending;
    const failure = this.#failures.get(key);
    if (failure && this.#now() < failure.retryAt) return Promise.reject(heldBack(failure.error, failure.retryAt - this.#now(), 'not tried again for'));
    const loading = (async () => {
      try {
        const value = await load();
        this.#failures.delete(key);
        return value;
      } catch (error) {
        const count = (this.#failures.get(key)?.count ?? 0) + 1;
        this.#failures.set(key, { error, count, retryAt: this.#now() + retryBackoffMs(count) });
        throw heldBack(error, retryBackoffMs(count), 'tried again in');
      }
    })().finally(() => this.#inflight.delete(key));
    this.#inflight.set(key, loading);
    return loading;
  }
}

/** A failure, or a failure told again while backed off: its code and cause, and when we try again. */
function heldBack(error: unknown, retryAfterMs: number, words: string): unknown {
  if (!isIdvError(error)) return error;
  return new IdvError(error.code, `${error.message} (${words} ${Math.ceil(retryAfterMs / 1000)} s)`, { ...error.cause, retryAfterMs });
}
