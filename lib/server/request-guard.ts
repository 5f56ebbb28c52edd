/**
 * Input Next.js answers with a 500 of its own, answered here before Next.js sees it: like
 * client-address.ts, a hook on every HTTP server of this process, installed at start-up
 * (instrumentation.ts).
 * - A method no route has (TRACE, TRACK, CONNECT): Next.js cannot make a Request of it. 405.
 * - Under /emulator, a path that is not percent-encoded UTF-8: Next.js decodes the emulator
 *   route's segments first. 400, as the emulator's own JSON error.
 * - A Range that no range can satisfy the form of (bytes=5-1: RFC 9110 §14.1.1 calls it
 *   invalid, and §14.2 lets a server ignore it): the header is dropped, and a file comes whole.
 * - A router state tree Next.js cannot read (Next-Router-State-Tree, sent with RSC: 1 by its
 *   client router): the router's headers are dropped, and the page comes as a page.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** The methods a request may have; others are refused with 405. */
export const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The headers of an answer that is no page: nothing may sniff, load or frame it. */
const NO_CONTENT_HEADERS = {
  'Content-Type': 'application/json',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
};

/** A refusal, as its status, its JSON body and any more headers. */
export interface Refusal {
  status: number;
  body: { error: string; error_description: string };
  headers?: Record<string, string>;
}

/** Why a request is refused before Next.js sees it, if it is. */
export function refusalOf(method: string, url: string): Refusal | undefined {
  if (!METHODS.includes(method.toUpperCase())) {
    return {
      status: 405,
      body: { error: 'method_not_allowed', error_description: `method ${method} is not allowed` },
      headers: { Allow: METHODS.join(', ') },
    };
  }
  const path = url.split('?')[0]!;
  if ((path === '/emulator' || path.startsWith('/emulator/')) && !decodes(path)) {
    return { status: 400, body: { error: 'invalid_request', error_description: 'the path is not percent-encoded UTF-8' } };
  }
  return undefined;
}

/** The names of the request's headers Next.js would fail on rather than refuse (lower case). */
export function headersToDrop(headers: IncomingMessage['headers']): string[] {
  const drop: string[] = [];
  const range = headers.range;
  if (typeof range === 'string' && !validByteRanges(range)) drop.push('range');
  const tree = headers['next-router-state-tree'];
  if (tree !== undefined && (typeof tree !== 'string' || !isRouterStateTree(tree))) {
    drop.push('next-router-state-tree', 'rsc', 'next-router-prefetch', 'next-router-segment-prefetch');
  }
  return drop;
}

/** Installs the guard on every HTTP server of this process (`Server` from node:http). Once per process. */
export function guardRequests(server: { prototype: Server }): void {
  const prototype = server.prototype as Server & { [guarded]?: true };
  if (prototype[guarded]) return;
  prototype[guarded] = true;
  const emit = prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request' && guard(args[0] as IncomingMessage, args[1] as ServerResponse)) return true;
    return emit.call(this, event, ...args);
  } as Server['emit'];
}

const guarded = Symbol.for('idv.request-guard');

/** Answers `request` if it is refused (true), else drops the headers Next.js would fail on. */
function guard(request: IncomingMessage, response: ServerResponse): boolean {
  const refusal = refusalOf(request.method ?? '', request.url ?? '/');
  if (refusal) {
    response.writeHead(refusal.status, { ...NO_CONTENT_HEADERS, ...refusal.headers });
    response.end(JSON.stringify(refusal.body));
    return true;
  }
  for (const name of headersToDrop(request.headers)) dropHeader(request, name);
  return false;
}

function dropHeader(request: IncomingMessage, name: string): void {
  delete request.headers[name];
  for (let i = request.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (request.rawHeaders[i]!.toLowerCase() === name) request.rawHeaders.splice(i, 2);
  }
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** `bytes=` and one or more ranges, none with its last position before its first (RFC 9110 §14.1.1). */
export function validByteRanges(range: string): boolean {
  const match = /^bytes=(.+)$/i.exec(range.trim());
  if (!match) return false;
  return match[1]!.split(',').every((spec) => {
    const parts = /^\s*(\d*)-(\d*)\s*$/.exec(spec);
    if (!parts || (parts[1] === '' && parts[2] === '')) return false;
    return parts[1] === '' || parts[2] === '' || Number(parts[1]) <= Number(parts[2]);
  });
}

/** Deeper than any route tree of this app by far, and shallow enough that checking it cannot exhaust the stack. */
const MAX_TREE_DEPTH = 100;

/**
 * Whether a Next-Router-State-Tree header has the shape Next.js 16 reads (its
 * flightRouterStateSchema, app-render/types.js, and its 40,000-character bound): else Next.js
 * throws and answers 500. The shape only, not the names a dynamic segment's type may take; and
 * no deeper than MAX_TREE_DEPTH.
 */
export function isRouterStateTree(header: string): boolean {
  if (header.length > 40_000) return false;
  let tree: unknown;
  try {
    tree = JSON.parse(decodeURIComponent(header));
  } catch {
    return false;
  }
  const isSegment = (segment: unknown) =>
    typeof segment === 'string' ||
    (Array.isArray(segment) &&
      segment.length === 4 &&
      segment.slice(0, 3).every((part) => typeof part === 'string') &&
      (segment[3] === null || (Array.isArray(segment[3]) && segment[3].every((sibling) => typeof sibling === 'string'))));
  const isTree = (node: unknown, depth: number): boolean => {
    if (!Array.isArray(node) || node.length < 2 || node.length > 6 || depth > MAX_TREE_DEPTH || !isSegment(node[0])) return false;
    const [, children, url, refresh, rootLayout, prefetch] = node as unknown[];
    if (!children || typeof children !== 'object' || Array.isArray(children)) return false;
    if (url != null && !(Array.isArray(url) && url.length === 2 && url.every((part) => typeof part === 'string'))) return false;
    if (refresh != null && refresh !== 'refetch' && refresh !== 'inside-shared-layout' && refresh !== 'metadata-only') return false;
    if (rootLayout != null && typeof rootLayout !== 'number') return false;
    if (prefetch !== undefined && typeof prefetch !== 'string') return false;
    return Object.values(children).every((child) => isTree(child, depth + 1));
  };
  return isTree(tree, 0);
}
