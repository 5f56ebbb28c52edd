/**
 * The client's address, for rate limits and the failure records' limits.
 *
 * With no proxy in front (`TRUST_PROXY` = 0, the default) it is the address of the TCP
 * connection, which `stampSocketAddresses` (run at start-up by instrumentation.ts) writes into
 * every request as `X-IDV-Client-Address`, replacing whatever a client sent under that name.
 * `X-Forwarded-For` is not read then: Next.js's server keeps a client's own header, so it would
 * be the client's own claim.
 *
 * Behind `TRUST_PROXY` = N trusted proxies, each of which appends the address it received a
 * request from to `X-Forwarded-For`, the client is the entry the furthest of them appended, the
 * N-th from the right. Entries further left were written by the client and are ignored.
 */
import type { IncomingMessage, Server } from 'node:http';

/** The header the server writes the connection's address into (lower case, as Node keeps headers). */
export const CLIENT_ADDRESS_HEADER = 'x-idv-client-address';

export function clientAddress(headers: Headers, trustedProxies: number): string {
  if (trustedProxies === 0) {
    // Absent only if the start-up hook did not run: every such request shares one key, so a
    // limit still holds for all of them together.
    return (headers.get(CLIENT_ADDRESS_HEADER) ?? '').trim().slice(0, 64) || 'unknown';
  }
  const entries = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return 'unknown';
  const index = Math.max(0, entries.length - trustedProxies);
  // An address is short; anything else is a client's invention, and a key that must stay small.
  return entries[index]!.slice(0, 64);
}

const stamped = Symbol.for('idv.client-address.stamped');

/**
 * Makes every HTTP server of this process write the connection's address into each request it
 * receives, as `X-IDV-Client-Address`, before any handler sees it (Next.js's own server, and the
 * embedded emulator's flow listener). A client's own header of that name is replaced, in the
 * parsed headers and in the raw ones. Once per process.
 */
export function stampSocketAddresses(server: { prototype: Server }): void {
  const prototype = server.prototype as Server & { [stamped]?: true };
  if (prototype[stamped]) return;
  prototype[stamped] = true;
  const emit = prototype.emit as (this: Server, event: string | symbol, ...args: unknown[]) => boolean;
  prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') stamp(args[0] as IncomingMessage);
    return emit.call(this, event, ...args);
  } as Server['emit'];
}

function stamp(request: IncomingMessage): void {
  const address = request.socket?.remoteAddress ?? 'unknown';
  for (let i = request.rawHeaders.length - 2; i >= 0; i -= 2) {
    if (request.rawHeaders[i]!.toLowerCase() === CLIENT_ADDRESS_HEADER) request.rawHeaders.splice(i, 2);
  }
  request.rawHeaders.push(CLIENT_ADDRESS_HEADER, address);
  request.headers[CLIENT_ADDRESS_HEADER] = address;
}
