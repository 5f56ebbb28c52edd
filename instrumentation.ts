/**
 * Start-up: stamp each request with its connection's address, and validate the configuration
 * before the first request, so a wrong variable stops the server with a message naming it
 * (docs/operations.md "Configuration"). NEXT_RUNTIME and
 * NEXT_MANUAL_SIG_HANDLE are Next.js's own markers, the variables read outside lib/server/env.ts.
 */
export async function register(): Promise<void> {
  // Written as Next.js's instrumentation guide writes it, a condition around the imports rather
  // than an early return: the bundler then drops the block from the Edge Runtime's build of this
  // file, which would otherwise warn that node:http is not supported there.
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    // Every request carries its connection's address in a header no client can set
    // (lib/server/client-address.ts): the rate limits' key without a trusted proxy.
    const [{ Server }, { stampSocketAddresses }, { guardRequests, staticFilesIn }, { trackRequests, stopGracefullyOnSignals }] = await Promise.all([
      import('node:http'),
      import('./lib/server/client-address'),
      import('./lib/server/request-guard'),
      import('./lib/server/graceful-stop'),
    ]);
    stampSocketAddresses(Server);
    // The requests in flight are counted; under `npm start`, which takes SIGTERM and SIGINT from
    // Next.js (its NEXT_MANUAL_SIG_HANDLE), the process stops only once none is, so that their
    // calls to the embedded emulator are still accepted (lib/server/graceful-stop.ts).
    trackRequests();
    if (process.env.NEXT_MANUAL_SIG_HANDLE) stopGracefullyOnSignals();
    // What Next.js would answer with a 500 of its own (TRACE, an undecodable emulator path, a
    // router state tree it cannot read, a range outside a static file) gets a 4xx first, and
    // every answer carries nosniff (lib/server/request-guard.ts). The server runs in its own
    // folder: the standalone build's, or the project's under `next dev`.
    guardRequests(Server, staticFilesIn(process.cwd()));
    const { validateConfigurationAtStartup } = await import('./lib/server/startup');
    await validateConfigurationAtStartup();
  }
}
