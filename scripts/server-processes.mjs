/**
 * `npm start` with WEB_CONCURRENCY=N (N > 1): this process, the primary, runs N server processes
 * (node:cluster workers, each the standalone server) on the one PORT and HOST. On Linux the
 * primary accepts the connections and hands them to the workers in turn (the cluster module's
 * round-robin); the workers share their state through REDIS_URL, which scripts/start-options.mjs
 * requires.
 *
 * - SIGTERM or SIGINT to the primary is passed to every worker, which finishes its requests in
 *   flight and exits as one server does (Next.js's own handler: 143 or 130). The primary exits
 *   once all have: 0 when each stopped that way, else the worst exit code.
 * - A worker that exits on its own after it started is logged and replaced, after 1 s, doubling
 *   with each such exit of the last five minutes up to 30 s, so a crash loop does not spin.
 * - A worker that exits before it says it started (lib/server/startup.ts: a configuration error,
 *   which every worker would meet again) stops the others, and the primary exits with its code.
 */
import cluster from 'node:cluster';
import { constants } from 'node:os';

/** How long to wait before replacing a worker, given the unexpected exits of the last five minutes (this one counted). */
export function restartDelayMs(recentExits) {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, recentExits - 1));
}

const log = (message) => console.info(`[idv] ${message}`);

/** @param {number} count the number of workers */
export function runServerProcesses(count) {
  /** @type {Map<number, import('node:cluster').Worker>} worker number (1..count) → the worker serving as it */
  const workers = new Map();
  /** workers that said they started */
  const ready = new WeakSet();
  /** when workers exited on their own, for the back-off */
  let unexpectedExits = [];
  /** the signal passed on, once stopping */
  let stopping;
  let worstExitCode = 0;
  const restarts = new Set();

  const stop = (signal) => {
    if (stopping) return;
    stopping = signal;
    for (const timer of restarts) clearTimeout(timer);
    log(`${signal}: passing it to the ${workers.size} server processes, which finish their requests in flight`);
    for (const worker of workers.values()) worker.process.kill(signal);
    if (workers.size === 0) process.exit(worstExitCode);
  };

  const fork = (number, replacing) => {
    const worker = cluster.fork();
    workers.set(number, worker);
    worker.on('message', (message) => {
      if (message?.idv !== 'ready' || ready.has(worker)) return;
      ready.add(worker);
      log(`server process ${number} of ${count} (pid ${worker.process.pid}) is ready${replacing ? ', replacing the one that exited' : ''}`);
    });
    worker.once('exit', (code, signal) => {
      workers.delete(number);
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const exitCode = code ?? 128 + (constants.signals[signal] ?? 0);
      if (stopping) {
        // Next.js exits 128 + the signal's number once its requests in flight are answered.
        const graceful = exitCode === 0 || exitCode === 128 + constants.signals[stopping];
        if (!graceful) {
          console.error(`[idv] server process ${number} (pid ${worker.process.pid}) stopped with ${how}`);
          worstExitCode = Math.max(worstExitCode, exitCode);
        }
        if (workers.size === 0) {
          log(`every server process has stopped`);
          process.exit(worstExitCode);
        }
        return;
      }
      if (!ready.has(worker) && !replacing) {
        console.error(`[idv] server process ${number} (pid ${worker.process.pid}) exited with ${how} before it started: stopping the others`);
        worstExitCode = Math.max(1, exitCode);
        stop('SIGTERM');
        return;
      }
      const now = Date.now();
      unexpectedExits = [...unexpectedExits.filter((time) => now - time < 5 * 60_000), now];
      const delay = restartDelayMs(unexpectedExits.length);
      console.error(`[idv] server process ${number} (pid ${worker.process.pid}) exited unexpectedly with ${how}: starting another in ${delay / 1000} s`);
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (!stopping) fork(number, true);
      }, delay);
      restarts.add(timer);
    });
  };

  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  log(`starting ${count} server processes (WEB_CONCURRENCY=${count}) on one port, sharing their state through REDIS_URL`);
  for (let number = 1; number <= count; number += 1) fork(number, false);
}
