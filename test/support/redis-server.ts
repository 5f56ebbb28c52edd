/**
 * A real redis-server for tests (Debian's package): started on a free loopback port in a
 * temporary directory, without persistence unless asked, and stopped by the test (or when the
 * test process ends). Missing redis-server fails at once with the command that installs it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './app-server';
import { killOnExit } from './kill-on-exit';

export const REDIS_SERVER_INSTALL = 'apt-get update && apt-get install -y redis-server';

/** The redis-server binary: REDIS_SERVER_PATH, or redis-server on the PATH. */
export function redisServerBinary(): string {
  const binary = process.env.REDIS_SERVER_PATH ?? 'redis-server';
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(`redis-server is needed by the store tests and was not found (${binary}). Install it: ${REDIS_SERVER_INSTALL} (or set REDIS_SERVER_PATH).`);
  }
  return binary;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.write('PING\r\n');
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGKILL: an outage, not a shutdown); resolves once the port is closed. */
  stop(): Promise<void>;
  /** Starts it again on the same port: empty, or with every write it acknowledged when `persistent`. */
  start(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

/**
 * Starts a redis-server on a free port; call `close()` in afterAll.
 * @param options.persistent every write is in its append-only file before Redis acknowledges it
 *   (`appendfsync always`), so that after `stop()` (an outage) `start()` brings back the same data,
 *   as a production Redis with persistence restarts
 */
export async function startRedisServer(options: { persistent?: boolean } = {}): Promise<RedisServer> {
  const binary = redisServerBinary();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'idv-redis-'));
  let child: ChildProcess | undefined;
  const persistence = options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];

  const start = async () => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir], {
      stdio: 'ignore',
    });
    // The test process ending must not leave a server behind.
    killOnExit(child);
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await answers(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not answer on 127.0.0.1:${port} within 5 s`);
  };

  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
