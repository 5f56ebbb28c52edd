/**
 * What every request meets before Next.js, in every HTTP server of the process (instrumentation.ts
 * installs it): the headers every answer carries, and a 4xx for the requests Next.js would answer
 * with a 500. Neither proxy.ts nor next.config.mjs can answer these: Next.js fails before the
 * proxy runs, or on paths it never shows the proxy (static files).
 *
 * Every answer carries `X-Content-Type-Options: nosniff`, Next.js's own too (its redirects, a
 * 304), and a JSON answer `Content-Security-Policy: default-src 'none'` (it loads nothing; pages
 * keep their nonce-based policy, proxy.ts). Refused here:
 *
 * - `TRACE`: the Fetch standard forbids it (https://fetch.spec.whatwg.org/#forbidden-method), so
 *   Node's `Request` refuses to be made with it, and Next.js fails making the one it hands to
 *   proxy.ts or a route handler. 405. (The other two it forbids never arrive as a request:
 *   Node's parser refuses `TRACK`, and closes the connection of a `CONNECT` a server does not
 *   listen for.)
 * - A path under /emulator that is not percent-encoded UTF-8 (RFC 3986 §2.1, §2.5): Next.js
 *   fails decoding it into the catch-all route's parameters. The emulator's own JSON error, 400
 *   `invalid_request` (other paths Next.js answers itself, with the not-found page).
 * - An RSC request (`RSC: 1`) whose `Next-Router-State-Tree` cannot be read: Next.js reads it
 *   before rendering a page and throws when it cannot; its own check decides here. 400.
 * - For a static file (public/, /_next/static/; and /_next/image), what Next.js means to answer
 *   with a 4xx and then fails to render a page for (an app of app/ alone has no Pages Router
 *   error page): a method other than GET or HEAD (405), a precondition that fails (412:
 *   `If-Match`, `If-Unmodified-Since`), a range outside the file (416). Decided as Next.js's file
 *   server (send) decides them, from the file's size and time; everything else it serves itself.
 * - What Node's HTTP parser refuses (a method it does not know, headers over its limit: 400, 431)
 *   and an `Expect` other than `100-continue` (417) get the same headers as every answer.
 */
import { readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join, posix, relative } from 'node:path';
import { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state';
import { InvalidRequest, NO_CONTENT_POLICY, withSecurityHeaders } from '@/lib/emulator';

/** A refusal: its status, its headers beyond those of every answer, and its body. */
export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Which path Next.js's file server answers (only GET and HEAD), and the file it names if any; undefined for any other path. */
export type StaticFiles = (pathname: string) => { file?: string } | undefined;

/** The methods some path of this server answers (RFC 9110 §15.5.6: a 405 lists them); which of them a path takes, its own 405 says. */
const METHODS_ANSWERED = 'GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS';

function plain(status: number, message: string, headers: Record<string, string> = {}): Refusal {
  return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers }, body: `${message}\n` };
}

/** The refusal of `request`, or undefined for a request Next.js answers itself. */
export function refusalOf(request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>, files: StaticFiles): Refusal | Promise<Refusal> | undefined {
  const method = request.method ?? 'GET';
  if (method === 'TRACE') return plain(405, `${method} is not answered here.`, { Allow: METHODS_ANSWERED });

  const pathname = (request.url ?? '/').split('?')[0]!;
  // (`/emulator` itself holds no percent-encoding to fail on.)
  if (pathname.startsWith('/emulator/') && decoded(pathname) === undefined) {
    return emulatorRefusal(new InvalidRequest(`the path is not percent-encoded UTF-8 (RFC 3986 section 2.5): '${pathname.slice(0, 80)}'`).toResponse());
  }

  const routerState = request.headers['next-router-state-tree'];
  if (request.headers.rsc === '1' && routerState !== undefined) {
    try {
      parseAndValidateFlightRouterState(routerState);
    } catch {
      return plain(400, 'The Next-Router-State-Tree header cannot be read.');
    }
  }

  const found = files(pathname);
  if (!found) return undefined;
  if (method !== 'GET' && method !== 'HEAD') return plain(405, `${method} is not answered for a file: GET or HEAD.`, { Allow: 'GET, HEAD' });
  return found.file === undefined ? undefined : fileRefusal(request.headers, found.file);
}

/** The path with its percent-encoding decoded, or undefined when it is not UTF-8. */
function decoded(pathname: string): string | undefined {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
}

async function emulatorRefusal(response: Response): Promise<Refusal> {
  const secured = withSecurityHeaders(response);
  return { status: secured.status, headers: Object.fromEntries(secured.headers), body: await secured.text() };
}

/**
 * What Next.js's file server (send) answers with 412 or 416 for a GET or HEAD of `file`, in its
 * order: `If-Match` (the only entity tag it could match is its weak one, `W/"size-mtime"`), else
 * `If-Unmodified-Since`, against the file's time; then a `bytes` range none of whose parts lies in
 * the file. A range with `If-Range` it may serve or not: it is left to it.
 * @see RFC 9110 §13.1.1, §13.1.4, §14.1.2, §14.2
 */
function fileRefusal(headers: IncomingMessage['headers'], file: string): Refusal | undefined {
  const ifMatch = headers['if-match'];
  const ifUnmodifiedSince = headers['if-unmodified-since'];
  const range = headers.range;
  if (!ifMatch && !ifUnmodifiedSince && !range) return undefined;
  let stats;
  try {
    stats = statSync(file);
  } catch {
    return undefined;
  }
  if (!stats.isFile()) return undefined;
  if (ifMatch) {
    const etag = `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`;
    const tags = ifMatch.split(',').map((tag) => tag.trim());
    if (ifMatch !== '*' && tags.every((tag) => tag !== etag && tag !== `W/${etag}` && `W/${tag}` !== etag))
      return plain(412, 'The If-Match condition is not met.');
  } else if (ifUnmodifiedSince) {
    const since = Date.parse(ifUnmodifiedSince);
    // Last-Modified is written in whole seconds.
    if (!Number.isNaN(since) && Date.parse(stats.mtime.toUTCString()) > since) return plain(412, 'The If-Unmodified-Since condition is not met.');
  }
  if (range && !headers['if-range'] && /^ *bytes=/.test(range) && !satisfiable(range, stats.size)) {
    return plain(416, 'The range asked for is not in the file.', { 'Content-Range': `bytes */${stats.size}` });
  }
  return undefined;
}

/** Whether any part of a `bytes=` range lies within `size` bytes, read as Next.js's file server reads it (range-parser). */
export function satisfiable(range: string, size: number): boolean {
  return range
    .slice(range.indexOf('=') + 1)
    .split(',')
    .some((part) => {
      const [first = '', last = ''] = part.split('-');
      let start = parseInt(first, 10);
      let end = parseInt(last, 10);
      if (Number.isNaN(start)) {
        start = size - end;
        end = size - 1;
      } else if (Number.isNaN(end)) {
        end = size - 1;
      }
      end = Math.min(end, size - 1);
      return !Number.isNaN(start) && !Number.isNaN(end) && start <= end && start >= 0;
    });
}

/**
 * The static files of the server running in `directory` (the standalone server's, or the project
 * folder under `next dev`): /_next/static/… from .next/static, and the files of public/, as
 * listed now. `/_next/image` takes GET alone too, but names no file.
 */
export function staticFilesIn(directory: string): StaticFiles {
  const publicFolder = join(directory, 'public');
  let publicFiles = new Set<string>();
  try {
    publicFiles = new Set(
      readdirSync(publicFolder, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => `/${relative(publicFolder, join(entry.parentPath, entry.name)).split('\\').join('/')}`),
    );
  } catch {
    // No public/ folder: no public files.
  }
  return (pathname) => {
    const path = decoded(pathname);
    if (path === undefined) return undefined;
    const normal = posix.normalize(path);
    if (normal.startsWith('/_next/static/')) return { file: join(directory, '.next', 'static', normal.slice('/_next/static/'.length)) };
    if (publicFiles.has(normal)) return { file: join(publicFolder, normal) };
    if (normal === '/_next/image') return {};
    return undefined;
  };
}

/** Writes `refusal`, with the headers of every answer; its body only to a method that has one. */
function answer(request: IncomingMessage, response: ServerResponse, refusal: Refusal): void {
  response.writeHead(refusal.status, { ...refusal.headers, 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': NO_CONTENT_POLICY });
  response.end(request.method === 'HEAD' ? undefined : refusal.body);
}

/** The answers Node's HTTP parser would write for a request it cannot read, with the headers of every answer. */
function parserRefusal(code: string | undefined): string {
  const [status, reason] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? [413, 'Payload Too Large']
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout']
          : [400, 'Bad Request'];
  // No body, as Node's own: which method it answers is unknown, and a HEAD's answer has none.
  return [
    `HTTP/1.1 ${status} ${reason}`,
    'Connection: close',
    'Content-Length: 0',
    'X-Content-Type-Options: nosniff',
    `Content-Security-Policy: ${NO_CONTENT_POLICY}`,
    '',
    '',
  ].join('\r\n');
}

/** The Content-Type of an answer: set on it, or given to writeHead (an object, or an array of names and values). */
function contentType(response: ServerResponse, args: unknown[]): string {
  const given = args.find((arg) => typeof arg === 'object' && arg !== null);
  const entries: [string, unknown][] = Array.isArray(given)
    ? Array.from({ length: given.length / 2 }, (_, i) => [String(given[2 * i]), given[2 * i + 1]])
    : Object.entries((given ?? {}) as Record<string, unknown>);
  const named = entries.find(([name]) => name.toLowerCase() === 'content-type');
  return String(named?.[1] ?? response.getHeader('content-type') ?? '');
}

/**
 * Gives every answer `response` makes nosniff, and a JSON one the policy that loads nothing,
 * whichever code writes its headers (a handler, Next.js, Node itself).
 */
function secure(response: ServerResponse): void {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  const writeHead = response.writeHead;
  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType(this, args))) this.setHeader('Content-Security-Policy', NO_CONTENT_POLICY);
    return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}

const guarded = Symbol.for('idv.request-guard.installed');
const listening = Symbol.for('idv.request-guard.listeners');

/**
 * The answers Node writes itself, before any handler, given the headers of every answer: an
 * `Expect` it does not meet (417), and a request its parser cannot read (as Node does without a
 * `clientError` listener: node:_http_server, socketOnError). Unless the server listens itself.
 */
function listenForNodeAnswers(server: Server & { [listening]?: true }): void {
  if (server[listening]) return;
  server[listening] = true;
  if (server.listenerCount('checkExpectation') === 0) {
    server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      secure(response);
      answer(request, response, plain(417, 'Only Expect: 100-continue is answered here.'));
    });
  }
  if (server.listenerCount('clientError') === 0) {
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket & { _httpMessage?: ServerResponse | null }) => {
      if (socket.writable && !socket._httpMessage?.headersSent) socket.write(parserRefusal(error.code));
      socket.destroy();
    });
  }
}

/**
 * Makes every HTTP server of this process (Next.js's own, and the embedded emulator's flow
 * listener) secure each answer and answer the refusals of `refusalOf` itself, before any handler
 * sees the request. Once per process.
 */
export function guardRequests(server: { prototype: Server }, files: StaticFiles): void {
  const prototype = server.prototype as Server & { [guarded]?: true };
  if (prototype[guarded]) return;
  prototype[guarded] = true;
  const emit = prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    // A server's first connection comes before anything is parsed on it.
    if (event === 'connection' || event === 'request') listenForNodeAnswers(this);
    if (event === 'request') {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      secure(response);
      const refusal = refusalOf(request, files);
      if (refusal instanceof Promise) {
        void refusal.then((made) => answer(request, response, made));
        return true;
      }
      if (refusal) {
        answer(request, response, refusal);
        return true;
      }
    }
    return emit.call(this, event, ...args);
  } as Server['emit'];
}
