/**
 * The built app as a production server of a test's own (`node scripts/start.mjs`, the standalone
 * server), for tests that must stop or restart a server, which Playwright's configured web
 * servers cannot. Listens on 127.0.0.1 only; killed when the test process ends.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { killOnExit } from './kill-on-exit';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface AppServer {
  readonly port: number;
  /** everything the server printed so far */
  output(): string;
  /** whether the process has not exited */
  running(): boolean;
  /** resolves with the exit code once the process has exited */
  readonly exited: Promise<number | null>;
  /** sends a signal (SIGTERM: a graceful shutdown) */
  kill(signal: NodeJS.Signals): void;
  /**
   * Resolves once its /readyz answers 200; throws, with what it printed, when it exits first or
   * `timeoutMs` passes.
   */
  ready(timeoutMs?: number): Promise<void>;
}

/**
 * Starts the built app on `port` with this environment added to the test's own (`args`: e.g.
 * `--demo`), on 127.0.0.1 unless `env.HOST` names another loopback address.
 */
export function startAppServer(port: number, env: Record<string, string>, args: string[] = []): AppServer {
  const child = spawn(process.execPath, ['scripts/start.mjs', ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: env.HOST ?? '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  killOnExit(child);
  const running = () => child.exitCode === null && child.signalCode === null;
  const readyz = `http://${env.HOST ?? '127.0.0.1'}:${port}/readyz`;
  const ready = async (timeoutMs = 30_000) => {
    for (const deadline = Date.now() + timeoutMs; running(); await new Promise((resolve) => setTimeout(resolve, 200))) {
      const status = await fetch(readyz, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return;
      if (Date.now() > deadline) throw new Error(`${readyz} did not answer 200 within ${timeoutMs / 1000} s (last: ${status || 'no answer'}):\n${output}`);
    }
    throw new Error(`the app on port ${port} exited before it was ready:\n${output}`);
  };
  return { port, output: () => output, running, exited, kill: (signal) => child.kill(signal), ready };
}

/** Starts the test balancer (test/support/balancer.mjs) on `host:port` in front of two backends. */
export async function startBalancer(host: string, port: number, backends: [number, number]): Promise<{ stop(): void }> {
  const child = spawn(process.execPath, ['test/support/balancer.mjs', String(port), String(backends[0]), String(backends[1]), host], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  killOnExit(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the balancer exited (${code})`)));
  });
  return { stop: () => child.kill('SIGTERM') };
}
