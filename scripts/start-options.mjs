/**
 * What `npm start` (scripts/start.mjs) decides itself, before any server process starts: how many
 * processes (WEB_CONCURRENCY) and whether Next.js compresses (IDV_COMPRESS). Everything else is
 * validated by the app at start-up (lib/server/env.ts). Pure: reads only the environment given.
 */

/** The most server processes `npm start` runs: far past any machine this app needs. */
export const MAX_PROCESSES = 64;

/** A value `npm start` cannot use; the message names the variable and what to do. */
export class StartOptionError extends Error {
  /** @param {string} variable @param {string} message */
  constructor(variable, message) {
    super(`${variable} ${message}`);
    this.name = 'StartOptionError';
    this.variable = variable;
  }
}

/** @param {Record<string, string | undefined>} env @param {string} name */
function value(env, name) {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/**
 * WEB_CONCURRENCY, as Heroku-style platforms set it: the number of server processes, a whole
 * number from 1 to 64; unset or empty is 1. More than one needs REDIS_URL: each process has its
 * own memory, so a verification started in one and completed in another would find nothing.
 * @param {Record<string, string | undefined>} env
 * @returns {number}
 */
export function parseProcesses(env) {
  const raw = value(env, 'WEB_CONCURRENCY');
  if (raw === undefined) return 1;
  const processes = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(processes >= 1 && processes <= MAX_PROCESSES)) {
    throw new StartOptionError('WEB_CONCURRENCY', `must be a whole number of server processes from 1 to ${MAX_PROCESSES} (it is "${raw}")`);
  }
  if (processes > 1 && value(env, 'REDIS_URL') === undefined) {
    throw new StartOptionError(
      'WEB_CONCURRENCY',
      `is ${processes}, and several server processes share their state only through Redis: set REDIS_URL (without it each process keeps its state in its own memory, so a verification started in one process and completed in another would fail), or set WEB_CONCURRENCY=1`,
    );
  }
  return processes;
}

/**
 * IDV_COMPRESS: `1` (the default) or `0`, Next.js's `compress` option (gzip of pages and static
 * files). `0` for a deployment whose proxy compresses, so the work is not done twice.
 * @param {Record<string, string | undefined>} env
 * @returns {boolean}
 */
export function parseCompress(env) {
  const raw = value(env, 'IDV_COMPRESS');
  if (raw === undefined || raw === '1') return true;
  if (raw === '0') return false;
  throw new StartOptionError(
    'IDV_COMPRESS',
    `must be 1 (Next.js compresses its responses, the default) or 0 (a proxy in front compresses them) (it is "${raw}")`,
  );
}

/**
 * @param {Record<string, string | undefined>} env
 * @returns {{ processes: number, compress: boolean }}
 * @throws {StartOptionError}
 */
export function startOptions(env) {
  return { processes: parseProcesses(env), compress: parseCompress(env) };
}
