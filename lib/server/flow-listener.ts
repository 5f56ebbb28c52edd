import 'server-only';
/**
 * The embedded emulator's `{flow_url}` on an origin of its own (EMULATOR_FLOW_URL): spec part 4
 * puts the authorization endpoint on `{flow_url}`, another address than `{base_url}`, and a
 * relying party that assumes one origin for both would pass here and fail at staging. This
 * second listener hands every request to the emulator as it is, like the app's /emulator route
 * (the emulator routes by path and ignores the origin), so the authorization page, its script,
 * its status poll and the simulated app all work on it.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { InvalidRequest, RequestTooLarge, withSecurityHeaders, type Emulator } from '@/lib/emulator';

/** No form or poll of the emulator's pages is near this large. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Starts the listener on `host`:`port`; resolves once it listens.
 * @throws Error when the port cannot be bound (the message names it)
 */
export function startFlowListener(emulator: Emulator, baseUrl: string, listen: { host: string; port: number }): Promise<Server> {
  const origin = new URL(baseUrl).origin;
  const server = createServer((incoming, outgoing) => {
    void toRequest(incoming, origin)
      // A request Fetch cannot hold (TRACE, a target that is no URL) is bad input; the emulator never throws.
      .catch(() => null)
      .then((request) => (request ? emulator.handle(request) : withSecurityHeaders(refusal(request === null ? 400 : 413))))
      .then(async (response) => {
        outgoing.writeHead(response.status, [...response.headers.entries()].flat());
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
      // The client went away while its body was read or its answer written: nobody to answer.
      .catch(() => outgoing.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`EMULATOR_FLOW_URL: cannot listen on ${listen.host}:${listen.port}: ${error.message}`)));
    server.listen(listen.port, listen.host, () => {
      // It never keeps the process alive: on SIGTERM the app's own server decides when to exit.
      server.unref();
      resolve(server);
    });
  });
}

/** The emulator's JSON error for a request it never saw: one it cannot read (400), or too large (413). */
function refusal(status: 400 | 413): Response {
  return (status === 400 ? new InvalidRequest('the request could not be read') : new RequestTooLarge(MAX_BODY_BYTES)).toResponse();
}

/** The Web Request for a Node request, its body read up to MAX_BODY_BYTES (undefined past it). */
async function toRequest(incoming: IncomingMessage, origin: string): Promise<Request | undefined> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  // The rate limits count per client address, which the emulator reads from X-Forwarded-For.
  headers.set('x-forwarded-for', incoming.socket.remoteAddress ?? 'unknown');
  const method = incoming.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of incoming) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) return undefined;
      chunks.push(chunk as Buffer);
    }
    body = Buffer.concat(chunks);
  }
  return new Request(new URL(incoming.url ?? '/', origin), { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) });
}
