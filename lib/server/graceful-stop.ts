/**
 * A stop that loses no verification (docs/operations.md "Health and shutdown").
 *
 * Next.js's own stop (its SIGTERM handler) stops accepting connections at once, then answers the
 * requests in flight. In emulator mode those requests call the embedded emulator over HTTP at
 * APP_URL, exactly as they would call the service: each call needs a new connection to this very
 * server, refused once it stopped accepting, and a verification in flight ended on
 * `network_error`, after the start or after the callback had used up its pending flow.
 *
 * So `npm start` takes the signal from Next.js (its documented NEXT_MANUAL_SIG_HANDLE,
 * scripts/start.mjs), and the process stops here instead:
 * - at once, `/readyz` answers 503 (`stopping`), so a balancer sends it nothing new, and every
 *   answer closes its connection (`Connection: close`), so no client keeps one to send more on;
 * - it keeps accepting while a request is in flight, so that request's calls to the emulator are
 *   answered, whichever connection they come on;
 * - at the first moment none is (or after STOP_CEILING_MS), it stops accepting, waits for the
 *   connections left, and exits with 128 + the signal's number, as Next.js does.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { constants } from 'node:os';

/**
 * The longest the server keeps accepting after the signal, should requests never stop coming
 * (no balancer in front to heed /readyz): within the 10 s a container runtime waits by default
 * before it kills the process.
 */
export const STOP_CEILING_MS = 5_000;

interface StopState {
  stopping: boolean;
  /** the answers not yet sent whole */
  inFlight: Set<ServerResponse>;
  servers: Set<Server>;
  /** told each time a request ends */
  onIdle?: () => void;
}

// One state per process: the route handlers and instrumentation.ts are bundled apart, and each
// bundle has its own copy of this module.
const KEY = Symbol.for('idv.graceful-stop');
const state: StopState = ((globalThis as { [KEY]?: StopState })[KEY] ??= { stopping: false, inFlight: new Set(), servers: new Set() });

/** Whether this process is stopping: /readyz then says so with 503. */
export function isStopping(): boolean {
  return state.stopping;
}

/**
 * Counts the requests in flight on every HTTP server of the process, and, once stopping, closes
 * each answer's connection. Once per process.
 */
export function trackRequests(): void {
  const root = globalThis as { [TRACKING]?: true };
  if (root[TRACKING]) return;
  root[TRACKING] = true;
  subscribe('http.server.request.start', (message) => {
    const { response, server } = message as { request: IncomingMessage; response: ServerResponse; server: Server };
    state.servers.add(server);
    state.inFlight.add(response);
    if (state.stopping) response.shouldKeepAlive = false;
    response.once('close', () => {
      state.inFlight.delete(response);
      state.onIdle?.();
    });
  });
}

const TRACKING = Symbol.for('idv.graceful-stop.tracking');

/** Stops the process on SIGTERM and SIGINT as the module's comment says, in place of Next.js's own stop. */
export function stopGracefullyOnSignals(): void {
  const stop = (signal: 'SIGTERM' | 'SIGINT') => {
    if (state.stopping) return;
    void stopGracefully().then(() => process.exit(128 + constants.signals[signal]));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * Stops accepting once no request is in flight (or after `ceilingMs`), then resolves when every
 * server has closed its connections. Exported for its test; the signal handler calls it.
 */
export async function stopGracefully(ceilingMs = STOP_CEILING_MS): Promise<void> {
  state.stopping = true;
  // Those already begun close their connections too, where their headers are not yet sent.
  for (const response of state.inFlight) response.shouldKeepAlive = false;
  const closing = await new Promise<Promise<void>[]>((idle) => {
    const close = () => {
      clearTimeout(ceiling);
      state.onIdle = undefined;
      // In the very turn no request is in flight: no connection can be accepted in between.
      idle([...state.servers].map((server) => new Promise<void>((closed) => server.close(() => closed()))));
    };
    const ceiling = setTimeout(close, ceilingMs);
    state.onIdle = () => {
      if (state.inFlight.size === 0) close();
    };
    state.onIdle();
  });
  await Promise.all(closing);
}
