import 'server-only';
/**
 * The relying party's calls to the embedded emulator (discovery, PAR, token, JWKS), handed to the
 * emulator's handler in this process instead of being sent over the network to this same server.
 *
 * Sent over the network, such a call needs a connection to the server whose request it serves.
 * On SIGTERM, Next.js's server stops accepting connections and then answers the requests in
 * flight, and those on the connections still open; their calls to the emulator were refused, so a
 * verification in flight ended on `network_error`, after its callback had already used the pending
 * flow. Handed over in this process, every call of a request the server accepted is answered until
 * the process exits, whoever stops it.
 *
 * The emulator answers the very Request a route would give it (it routes by path: lib/emulator
 * `handle`), and the core sees a fetch like any other: the same status, headers and body, the same
 * timeout. What the handler answers after the caller gave up is dropped, as a network would drop it.
 * Its rate limits count these calls under one key of their own (no client address: `unknown`), as
 * they counted them under this server's own address.
 */
import type { Emulator } from '@/lib/emulator';
import type { FetchLike } from '@/lib/oidc';

/**
 * A fetch that hands every request under the emulator's base URL to `emulator.handle`, and sends
 * any other one with `network`. It rejects as fetch does when the request's signal aborts (the
 * core's timeout): with the signal's reason.
 */
export function embeddedEmulatorFetch(emulator: Pick<Emulator, 'baseUrl' | 'handle'>, network: FetchLike = fetch): FetchLike {
  const base = new URL(emulator.baseUrl);
  const under = (url: URL) => url.origin === base.origin && (url.pathname === base.pathname || url.pathname.startsWith(`${base.pathname}/`));
  return (input, init) => {
    if (!under(new URL(input instanceof Request ? input.url : input))) return network(input, init);
    const request = new Request(input, init);
    const { signal } = request;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(signal.reason as Error);
      signal.addEventListener('abort', abort, { once: true });
      emulator
        .handle(request)
        .then(resolve, reject)
        .finally(() => signal.removeEventListener('abort', abort));
    });
  };
}
