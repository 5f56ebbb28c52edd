/**
 * Start-up: validate the configuration before the first request, so a wrong variable stops the
 * server with a message naming it (README "Configuration"). NEXT_RUNTIME is Next.js's
 * own marker, the one variable read outside lib/server/env.ts.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { validateConfigurationAtStartup } = await import('./lib/server/startup');
  await validateConfigurationAtStartup();
}
