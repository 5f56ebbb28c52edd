import 'server-only';
import cluster from 'node:cluster';
import { RedisStore } from '@/lib/store/redis-store';
import { ConfigurationError } from './env';
import { serverConfig } from './configuration';
import { services } from './services';

/**
 * Start-up: loads the configuration and builds the services; exits the process on a
 * configuration error (docs/operations.md "Configuration"). Then prepares the shutdown.
 */
export async function validateConfigurationAtStartup(): Promise<void> {
  try {
    const { store } = await services();
    prepareShutdown(store);
    // Next.js prints every address it listens on ("Local:", "Network:"); only one works for sign-in.
    const { appUrl } = await serverConfig();
    console.info(
      `[idv] open ${appUrl}/ : the app’s address (APP_URL). Sign-in works there only: a page opened under another name of this machine is sent there.`,
    );
    // One of several server processes (WEB_CONCURRENCY): tell `npm start`'s primary that this one
    // started (scripts/server-processes.mjs), which then replaces it should it exit later.
    if (cluster.isWorker) process.send?.({ idv: 'ready' });
  } catch (error) {
    if (error instanceof ConfigurationError) {
      console.error(`\n[idv] configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Graceful shutdown. On SIGTERM (or SIGINT) the server finishes the requests in flight and exits
 * (graceful-stop.ts under `npm start`, else Next.js's own handler); nothing here may close the
 * store before that, since those requests still use it. So the store is released when the
 * process exits.
 */
function prepareShutdown(store: unknown): void {
  const announce = (signal: string) => console.info(`[idv] ${signal}: finishing the requests in flight, then closing the store`);
  process.once('SIGTERM', () => announce('SIGTERM'));
  process.once('SIGINT', () => announce('SIGINT'));
  process.once('exit', () => {
    if (store instanceof RedisStore) store.destroy();
  });
}
