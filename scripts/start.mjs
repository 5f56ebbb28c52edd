/**
 * `npm start`: runs the production server `npm run build` made, Next.js's standalone server
 * (.next/standalone/server.js, the one the Dockerfile ships), in this process, so SIGTERM reaches
 * it directly (graceful shutdown: lib/server/graceful-stop.ts).
 *
 * - WEB_CONCURRENCY=N (N > 1, with REDIS_URL): N server processes on the one port instead,
 *   started and stopped by this one (scripts/server-processes.mjs).
 * - IDV_COMPRESS=0: Next.js does not compress its responses (a proxy in front does), as
 *   scripts/complete-standalone.mjs made the built server read it.
 *   Both are validated here, before any server starts (scripts/start-options.mjs).
 * - PORT (default 3000); HOST, the address to listen on (default all interfaces, so a phone on the
 *   network can open the emulator's QR code; 127.0.0.1 for this machine only).
 * - IDV_DATA_DIR is resolved against the project folder, as under `npm run dev` (the standalone
 *   server runs in .next/standalone, which every build replaces).
 * - `--demo` (`npm run demo`): without SESSION_SECRET, this run gets a random one of its own
 *   (sign-ins end when it stops). Production otherwise requires it (lib/server/env.ts). Without
 *   EMULATOR_PANEL_PASSWORD, the QA panel gets a random password for this run, printed here:
 *   production would otherwise leave the panel read-only.
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startOptions, StartOptionError } from './start-options.mjs';
import { runServerProcesses } from './server-processes.mjs';

// SIGTERM and SIGINT are the app's to handle, not Next.js's: it stops accepting only once no
// request is in flight (lib/server/graceful-stop.ts). Next.js's documented switch for that.
process.env.NEXT_MANUAL_SIG_HANDLE = 'true';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = resolve(root, '.next/standalone/server.js');

if (cluster.isWorker) {
  // A server process of WEB_CONCURRENCY: the primary checked and prepared the environment it inherits.
  await import(pathToFileURL(server).href);
} else {
  await startPrimary();
}

async function startPrimary() {
  if (!existsSync(server) || !existsSync(resolve(root, '.next/standalone/.next/static'))) {
    console.error('No production build in .next/standalone: run `npm run build` first (or `npm run demo`, which builds and starts).');
    process.exit(1);
  }
  let options;
  try {
    options = startOptions(process.env);
  } catch (error) {
    if (!(error instanceof StartOptionError)) throw error;
    console.error(`\n[idv] configuration error: ${error.message}\n`);
    process.exit(1);
  }

  const dataDir = process.env.IDV_DATA_DIR || '.data';
  process.env.IDV_DATA_DIR = isAbsolute(dataDir) ? dataDir : resolve(root, dataDir);
  // IDV_DEMO_LOGO too: a relative path means the project folder's, as under `npm run dev`.
  if (process.env.IDV_DEMO_LOGO?.trim() && !isAbsolute(process.env.IDV_DEMO_LOGO.trim()))
    process.env.IDV_DEMO_LOGO = resolve(root, process.env.IDV_DEMO_LOGO.trim());
  // Next.js's standalone server listens on HOSTNAME, which shells and containers often set to the
  // machine's name: only HOST decides here.
  process.env.HOSTNAME = process.env.HOST || '0.0.0.0';

  // Made here, before any worker starts, so that every server process uses the same ones.
  if (process.argv.includes('--demo')) {
    if (!process.env.SESSION_SECRET) {
      process.env.SESSION_SECRET = randomBytes(32).toString('base64url');
      console.info('[idv] demo: SESSION_SECRET is not set, so this run uses a random one of its own (sign-ins end when it stops)');
    }
    if (!process.env.EMULATOR_PANEL_PASSWORD && !process.env.IDV_BASE_URL) {
      process.env.EMULATOR_PANEL_PASSWORD = randomBytes(12).toString('base64url');
      console.info(`[idv] demo: the QA panel's password for this run is ${process.env.EMULATOR_PANEL_PASSWORD} (set EMULATOR_PANEL_PASSWORD to choose one)`);
    }
  }

  if (options.processes > 1) runServerProcesses(options.processes);
  else await import(pathToFileURL(server).href);
}
