/**
 * Start-up: stamp each request with its connection's address, and validate the configuration
 * before the first request, so a wrong variable stops the server with a message naming it
 * (docs/operations.md "Configuration"). NEXT_RUNTIME is Next.js's
 * own marker, the one variable read outside lib/server/env.ts.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Every request carries its connection's address in a header no client can set
  // (lib/server/client-address.ts): the rate limits' key without a trusted proxy.
  const [{ Server }, { stampSocketAddresses }] = await Promise.all([import('node:http'), import('./lib/server/client-address')]);
  stampSocketAddresses(Server);
  const { validateConfigurationAtStartup } = await import('./lib/server/startup');
  await validateConfigurationAtStartup();
}
