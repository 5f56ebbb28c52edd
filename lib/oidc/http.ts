/**
 * Outbound HTTP for every step: a timeout on each call, https unless insecure requests are
 * explicitly allowed, and failures mapped to codes. DESIGN.md: "Outbound calls have a timeout
 * (about 10 s) and every failure maps to a code and a page."
 */
import { IdvError, oauthError } from './errors';
import type { HttpOptions } from './types';

export const DEFAULT_TIMEOUT_MS = 10_000;
/** No answer of the service is this large (an ID token with a portrait is tens of kilobytes). */
export const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;
/** Nothing is cached longer than a day, whatever a header says (8: the JWKS max-age is 86400). */
const MAX_CACHE_SECONDS = 86_400;

/** Refuses a URL that is not https, unless `allowInsecureRequests` was named. */
export function assertSecureUrl(url: string, options: HttpOptions, what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new IdvError('invalid_response', `${what} is not a valid URL`, { actual: url });
  }
  if (parsed.protocol === 'https:') return parsed;
  if (parsed.protocol === 'http:' && options.allowInsecureRequests) return parsed;
  throw new IdvError('insecure_url', `${what} must use https (set allowInsecureRequests for a local emulator)`, {
    actual: url,
  });
}

/** fetch() with a timeout, no redirects followed, and transport failures mapped to codes. */
export async function send(url: string, init: RequestInit, options: HttpOptions, what: string): Promise<Response> {
  assertSecureUrl(url, options, what);
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    // `cache: 'no-store'`: caching is ours (Cache-Control aware), never a framework's fetch cache.
    return await doFetch(url, { ...init, redirect: 'manual', cache: 'no-store', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
      throw new IdvError('timeout', `${what} did not answer within ${timeoutMs} ms`, { url });
    }
    throw new IdvError('network_error', `${what} could not be reached: ${(error as Error).message}`, { url });
  }
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
        await reader.cancel().catch(() => undefined);
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

/** Reads a JSON object body; anything else is `invalid_response` (or the given code). */
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
 * keeps the service's code; any other failure gets `fallback`.
 */
export async function errorFromResponse(
  response: Response,
  what: string,
  fallback: 'par_failed' | 'token_failed',
): Promise<IdvError> {
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
 * `no-store` / `no-cache` → 0, `max-age=N` → N, absent → `fallback`.
 */
export function cacheLifetimeSeconds(response: Response, fallback: number): number {
  const header = response.headers.get('cache-control');
  if (!header) return fallback;
  const directives = header.toLowerCase().split(',').map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  for (const directive of directives) {
    const match = /^max-age=(\d+)$/.exec(directive);
    if (match) return Math.min(Number(match[1]), MAX_CACHE_SECONDS);
  }
  return fallback;
}
