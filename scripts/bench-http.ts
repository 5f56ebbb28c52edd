/**
 * `npm run bench:http`: whole verifications over HTTP against the production server, as browsers
 * would make them, in emulator mode and in provider mode. Prints figures; asserts nothing.
 *
 *   npm run bench:http                                   200 verifications at concurrency 16, both modes
 *   npm run bench:http -- --verifications 10000 --concurrency 16 --mode provider
 *   npm run bench:http -- --profile /tmp/profiles   the server's CPU profile (node --cpu-prof) per mode
 *   npm run bench:http -- --save-result /tmp/r      the last result page's HTML, per mode (/tmp/r-emulator.html)
 *   npm run bench:http -- --throughput              verifications per second with one server process and with two
 *   npm run bench:http -- --throughput --seconds 60 --concurrency 16
 *
 * - Builds the app first if there is no build, or one older than the sources.
 * - Emulator mode: the app with its embedded emulator (its rate limits raised for the run).
 *   Provider mode: the app against a lean provider in this process (lib/emulator served by
 *   node:http, rate limits off), so the server's figures are the relying party's alone.
 * - Each verification: GET / (the session binding), POST /auth/start, GET the authorization page,
 *   POST the quick-test decision, GET /auth/callback, GET /result (checked for the person's name),
 *   POST /auth/signout (so that a long run does not fill the in-memory store with results).
 * - The server's CPU time comes from its own accounting (/proc/<pid>/stat, user + system), over
 *   the measured verifications only (after a warm-up); memory is its resident set before and after.
 * - Each step alone: its time and the server's CPU meanwhile (every thread's schedstat, in ns).
 * - Next.js alone: the CPU of a route handler doing nothing (GET /healthz) and of a page with next
 *   to nothing (GET /result without a session), for the requests the server answers per verification; the
 *   ratio to the crypto floor plus that shows what is the app's own.
 * - The home page's JavaScript as a browser receives it (module scripts, compressed).
 * - The crypto floor is the jose work a verification cannot avoid, measured in this process in the
 *   same run: for the relying party three ES256 signatures (two client assertions, the request
 *   object), one RSA-OAEP-256/A256GCM decryption of an ID token of the real size and one ES256
 *   verification; the emulator adds three ES256 verifications, one ES256 signature and one
 *   encryption. The ratio is the server's CPU per verification over its floor.
 * - Throughput (`--throughput`): whole verifications in emulator mode for a fixed time (20 s, after
 *   5 s to warm up) at concurrency 16, on a redis-server this bench starts, first with one server
 *   process, then with two (WEB_CONCURRENCY=2; the same Redis either way, so that only the number
 *   of processes differs). Prints verifications per second, p50/p95, the server's CPU per
 *   verification (every process's), and the ratio of the two throughputs. This process, the
 *   client, runs on the same machine and takes its share of the cores.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompactEncrypt, CompactSign, compactDecrypt, compactVerify, generateKeyPair } from 'jose';
import { createEmulator } from '../lib/emulator';
import { clientPublicJwks, generateClientKeys } from '../lib/oidc';
import { freePort } from '../test/support/app-server';
import { startRedisServer } from '../test/support/redis-server';

const ROOT = join(import.meta.dirname, '..');

/** The size of the ID tokens the lean provider issued (the JWE, portrait included); 27 KiB until one is seen. */
let idTokenBytes = 27 * 1024;

interface Options {
  verifications: number;
  concurrency: number;
  modes: ('emulator' | 'provider')[];
  /** a folder for the server's CPU profiles */
  profile?: string;
  /** where to save the last result page (a path prefix) */
  saveResult?: string;
  /** throughput with one server process and with two, instead of the modes */
  throughput: boolean;
  /** how long each throughput run measures */
  seconds: number;
}

function parseOptions(args: string[]): Options {
  const options: Options = { verifications: 200, concurrency: 16, modes: ['emulator', 'provider'], throughput: false, seconds: 20 };
  for (let i = 0; i < args.length; i += 1) {
    const [name, value] = [args[i], args[i + 1]];
    if (name === '--throughput') {
      options.throughput = true;
      continue;
    }
    if (name === '--seconds' && Number(value) > 0) options.seconds = Number(value);
    else if (name === '--verifications' && Number(value) > 0) options.verifications = Number(value);
    else if (name === '--concurrency' && Number(value) > 0) options.concurrency = Number(value);
    else if (name === '--mode' && (value === 'emulator' || value === 'provider')) options.modes = [value];
    else if (name === '--profile' && value) options.profile = value;
    else if (name === '--save-result' && value) options.saveResult = value;
    else throw new Error(`unknown or bad argument "${name} ${value ?? ''}" (use --verifications N, --concurrency C, --mode emulator|provider, --profile DIR, --save-result PATH, --throughput, --seconds S)`);
    i += 1;
  }
  return options;
}

function figure(label: string, value: string): void {
  console.log(`  ${label.padEnd(52)} ${value}`);
}

/** The newest modification time under the app's source folders. */
function newestSource(): number {
  let newest = 0;
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const folder of ['app', 'lib', 'public']) walk(join(ROOT, folder));
  for (const file of ['next.config.mjs', 'proxy.ts', 'instrumentation.ts', 'package.json']) newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
  return newest;
}

function buildIfNeeded(): void {
  const server = join(ROOT, '.next/standalone/server.js');
  if (existsSync(server) && statSync(server).mtimeMs > newestSource()) return;
  console.log('building the app (npm run build)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) throw new Error('npm run build failed');
}

/** CPU ms (user + system) and resident set (MiB) of a process, from /proc. */
function processFigures(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat (11 and 12 after the command), in clock ticks of 10 ms.
  const cpuMs = (Number(fields[11]) + Number(fields[12])) * 10;
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuMs, rssMiB: rssKiB / 1024 };
}

/**
 * CPU ns a process has used, all its threads (the event loop and libuv's pool), from each thread's
 * schedstat: nanoseconds where /proc/<pid>/stat counts 10 ms ticks, so one request can be measured.
 */
function processCpuNs(pid: number): number {
  let total = 0;
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** Mean ms of one call of `operation`, after a warm-up. */
async function timeIt(operation: () => Promise<unknown>, rounds = 200): Promise<number> {
  for (let i = 0; i < 20; i += 1) await operation();
  const started = performance.now();
  for (let i = 0; i < rounds; i += 1) await operation();
  return (performance.now() - started) / rounds;
}

/** The jose work of one verification, for the relying party and for the emulator (ms). */
async function cryptoFloor(idTokenBytes: number): Promise<{ relyingParty: number; emulator: number }> {
  const signing = await generateKeyPair('ES256');
  const encryption = await generateKeyPair('RSA-OAEP-256', { modulusLength: 2048 });
  const payload = new TextEncoder().encode('x'.repeat(300));
  const sign = () => new CompactSign(payload).setProtectedHeader({ alg: 'ES256', kid: 'k', typ: 'JWT' }).sign(signing.privateKey);
  const jws = await sign();
  const verify = () => compactVerify(jws, signing.publicKey);
  // An ID token of the real size: the signed token (with its portrait) encrypted to the client.
  const inner = new TextEncoder().encode('y'.repeat(Math.round(idTokenBytes * 0.75)));
  const encrypt = () => new CompactEncrypt(inner).setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM' }).encrypt(encryption.publicKey);
  const jwe = await encrypt();
  const decrypt = () => compactDecrypt(jwe, encryption.privateKey);
  const [signMs, verifyMs, encryptMs, decryptMs] = [await timeIt(sign), await timeIt(verify), await timeIt(encrypt), await timeIt(decrypt)];
  return { relyingParty: 3 * signMs + decryptMs + verifyMs, emulator: 3 * verifyMs + signMs + encryptMs };
}

/** A browser's cookie jar for one origin: enough for the session cookie. */
class Browser {
  #cookies = new Map<string, string>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.#cookies.size > 0) headers.set('cookie', [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, index), pair!.slice(index + 1));
    }
    return response;
  }
}

function location(response: Response, what: string): string {
  const target = response.headers.get('location');
  if (response.status !== 303 && response.status !== 302 && response.status !== 307) {
    throw new Error(`${what}: expected a redirect, got HTTP ${response.status}`);
  }
  if (!target) throw new Error(`${what}: redirect without Location`);
  return target;
}

const STEPS = ['GET /', 'POST /auth/start', 'GET authorization page', 'POST decision', 'GET /auth/callback', 'GET /result', 'POST /auth/signout'] as const;
type Step = (typeof STEPS)[number];

/** Each step's figures over some verifications made one at a time. */
interface StepTimings {
  /** the server's process, whose CPU each step is charged */
  pid: number;
  /** ms from the request to its body read */
  ms: Map<Step, number[]>;
  /** the server's CPU ms meanwhile */
  cpuMs: Map<Step, number[]>;
}

/**
 * One whole verification as a browser makes it; resolves with the result page's size. With
 * `timings`, adds each step's milliseconds (the request and reading its body) and the server's CPU
 * meanwhile under its name.
 */
async function verifyOnce(app: string, timings?: StepTimings, save?: string): Promise<number> {
  const browser = new Browser();
  let mark = performance.now();
  let cpuMark = timings ? processCpuNs(timings.pid) : 0;
  const lap = (step: Step) => {
    if (!timings) return;
    const [now, cpuNow] = [performance.now(), processCpuNs(timings.pid)];
    timings.ms.set(step, [...(timings.ms.get(step) ?? []), now - mark]);
    timings.cpuMs.set(step, [...(timings.cpuMs.get(step) ?? []), (cpuNow - cpuMark) / 1e6]);
    [mark, cpuMark] = [now, cpuNow];
  };
  await (await browser.request(`${app}/`)).arrayBuffer();
  lap('GET /');
  const started = await browser.request(`${app}/auth/start`, {
    method: 'POST',
    headers: { origin: app, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'preset=full-kyc',
  });
  const authorization = location(started, 'POST /auth/start');
  lap('POST /auth/start');
  const page = await (await browser.request(authorization)).text();
  lap('GET authorization page');
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';
  const decided = await browser.request(new URL('auth', authorization.slice(0, authorization.indexOf('/auth?') + 1)).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ interaction: field('interaction'), browser: field('browser'), persona: 'ingrid-haugen', outcome: 'approve' }),
  });
  const callback = location(decided, 'POST /auth (decision)');
  lap('POST decision');
  const completed = await browser.request(callback);
  const result = location(completed, 'GET /auth/callback');
  if (!result.endsWith('/result')) throw new Error(`the callback failed: ${result}`);
  lap('GET /auth/callback');
  const html = await (await browser.request(new URL(result, app).href)).text();
  lap('GET /result');
  if (!html.includes('Ingrid Solberg Haugen')) throw new Error('the result page does not show the person');
  if (save) writeFileSync(save, html);
  // Signed out, as a tidy person does: the result goes at once rather than after 15 minutes, so
  // thousands of verifications measure the server, not a store filling up.
  const signedOut = await browser.request(`${app}/auth/signout`, { method: 'POST', headers: { origin: app } });
  if (!location(signedOut, 'POST /auth/signout').includes('signed_out')) throw new Error('sign-out failed');
  lap('POST /auth/signout');
  return html.length;
}

/**
 * Runs `count` verifications, `concurrency` at a time; their durations in ms. With `onTenth`,
 * calls it after each tenth of them (for the memory trend).
 */
async function runVerifications(
  app: string,
  count: number,
  concurrency: number,
  onTenth?: () => void,
): Promise<{ durations: number[]; resultPageBytes: number }> {
  const durations: number[] = [];
  let next = 0;
  let resultPageBytes = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const started = performance.now();
      resultPageBytes = await verifyOnce(app);
      durations.push(performance.now() - started);
      if (onTenth && durations.length % Math.max(1, Math.floor(count / 10)) === 0) onTenth();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { durations, resultPageBytes };
}

/**
 * Starts verifications `concurrency` at a time for `seconds`, and waits for the last to end; their
 * durations (ms). Throughput is their number over the time until the last ended.
 */
async function runFor(app: string, seconds: number, concurrency: number): Promise<number[]> {
  const durations: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      await verifyOnce(app);
      durations.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return durations;
}

/** A process and its children (the server processes of WEB_CONCURRENCY), from /proc. */
function processTree(pid: number): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
    readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(processTree)];
}

/** Verifications per second at `concurrency` with one server process and with two, on one redis-server of this run. */
async function benchThroughput(options: Options, dataDir: string): Promise<void> {
  const redis = await startRedisServer();
  try {
    const figures: { processes: number; perSecond: number; p95: number }[] = [];
    for (const processes of [1, 2]) {
      const port = await freePort();
      const app = `http://127.0.0.1:${port}`;
      const server = await startServer({
        PORT: String(port),
        APP_URL: app,
        WEB_CONCURRENCY: String(processes),
        REDIS_URL: redis.url,
        IDV_REDIS_PREFIX: `bench-${processes}:`,
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        IDV_DATA_DIR: join(dataDir, `throughput-${processes}`),
        IDV_START_LIMIT_PER_ADDRESS: '100000',
        IDV_START_LIMIT_OVERALL: '100000',
        EMULATOR_RATE_LIMITS: JSON.stringify({ par: 1_000_000, token: 1_000_000, interaction: 1_000_000 }),
      });
      try {
        // startServer waited for /readyz, which one process answering suffices for: the warm-up lets every one start and warm.
        await runFor(app, 5, options.concurrency);
        const pids = processTree(server.pid!);
        const cpuEach = () => pids.map((pid) => processFigures(pid).cpuMs);
        const cpuMs = () => cpuEach().reduce((sum, ms) => sum + ms, 0);
        const eachBefore = cpuEach();
        const rssMiB = () => pids.reduce((sum, pid) => sum + processFigures(pid).rssMiB, 0);
        const [cpuBefore, rssBefore, clientBefore, started] = [cpuMs(), rssMiB(), process.cpuUsage(), performance.now()];
        const durations = await runFor(app, options.seconds, options.concurrency);
        const seconds = (performance.now() - started) / 1000;
        const [cpuAfter, rssAfter, client, eachAfter] = [cpuMs(), rssMiB(), process.cpuUsage(clientBefore), cpuEach()];
        durations.sort((a, b) => a - b);
        const perSecond = durations.length / seconds;
        const p95 = percentile(durations, 95);
        figures.push({ processes, perSecond, p95 });
        console.log(`\n${processes === 1 ? 'one server process' : `${processes} server processes (WEB_CONCURRENCY=${processes})`}, emulator mode on Redis: ${options.seconds} s at concurrency ${options.concurrency} (after 5 s to warm up)`);
        figure('verifications per second', perSecond.toFixed(1));
        figure('latency p50 / p95', `${percentile(durations, 50).toFixed(0)} / ${p95.toFixed(0)} ms`);
        figure('server CPU per verification (all processes)', `${((cpuAfter - cpuBefore) / durations.length).toFixed(1)} ms`);
        if (processes > 1) {
          // The primary only hands connections over; the workers serve them.
          const share = eachAfter.map((after, index) => ((after - eachBefore[index]!) / durations.length).toFixed(1));
          figure('  of which the primary / each server process', `${share[0]} / ${share.slice(1).join(' / ')} ms`);
        }
        figure('server memory (RSS, all processes) before → after', `${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB`);
        // The client shares the cores: what it takes is not the server's to use.
        figure('this client\'s CPU per verification', `${((client.user + client.system) / 1000 / durations.length).toFixed(1)} ms`);
      } finally {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
    }
    const [one, two] = figures as [(typeof figures)[0], (typeof figures)[0]];
    console.log('');
    figure('two processes / one: throughput', `${(two.perSecond / one.perSecond).toFixed(2)}×`);
    figure('two processes / one: p95', `${(two.p95 / one.p95).toFixed(2)}×`);
    console.log(`  (${cpus().length} cores here, shared with this client and anything else running)`);
  } finally {
    await redis.close();
  }
}

function startServer(env: Record<string, string>, profile?: string): Promise<ChildProcess> {
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...flags, join(ROOT, 'scripts/start.mjs')], { env: { ...process.env, ...env, HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  process.once('exit', () => child.kill('SIGKILL'));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const poll = setInterval(async () => {
      const ok = await fetch(`http://127.0.0.1:${env.PORT}/readyz`).then((response) => response.ok, () => false);
      if (ok) {
        clearInterval(poll);
        resolve(child);
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`the server exited (${code}):\n${output}`));
    });
  });
}

/** The lean provider of provider mode: the emulator's handlers on a node:http server in this process. */
async function startProvider(port: number, client: { clientId: string; redirectUri: string; jwks: ReturnType<typeof clientPublicJwks> }) {
  const baseUrl = `http://127.0.0.1:${port}`;
  const emulator = createEmulator({
    baseUrl,
    clients: [{ clientId: client.clientId, name: 'bench', jwks: client.jwks, redirectUris: [client.redirectUri], populationRegister: true }],
    rateLimits: false,
  });
  const server = createServer(async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = incoming.method === 'GET' || incoming.method === 'HEAD' ? undefined : Buffer.concat(chunks);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = await emulator.handle(new Request(new URL(incoming.url ?? '/', baseUrl), { method: incoming.method, headers, body }));
    const bytes = Buffer.from(await response.arrayBuffer());
    if (incoming.url === '/token' && response.ok) idTokenBytes = (JSON.parse(bytes.toString()) as { id_token: string }).id_token.length;
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { baseUrl, close: () => server.close() };
}

/** The bytes a browser receives for `url`: the body as sent, compressed when the server compresses. */
function transferredBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (incoming) => {
      let bytes = 0;
      incoming.on('data', (chunk: Buffer) => (bytes += chunk.length));
      incoming.on('end', () => (incoming.statusCode === 200 ? resolve(bytes) : reject(new Error(`${url}: HTTP ${incoming.statusCode}`))));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/**
 * The JavaScript the home page makes a browser load, as transferred: its module scripts (a
 * `noModule` script is for browsers without modules, which no supported browser is).
 */
async function homePageJavaScript(app: string): Promise<{ bytes: number; files: number }> {
  const html = await (await fetch(`${app}/`)).text();
  const sources = [...html.matchAll(/<script\b[^>]*>/g)]
    .map(([tag]) => tag)
    .filter((tag) => !/\snomodule\b/i.test(tag))
    .map((tag) => /\ssrc="([^"]+)"/.exec(tag)?.[1])
    .filter((source): source is string => Boolean(source));
  const unique = [...new Set(sources)];
  const sizes = await Promise.all(unique.map((source) => transferredBytes(new URL(source, app).href)));
  return { bytes: sizes.reduce((sum, size) => sum + size, 0), files: unique.length };
}

/**
 * Next.js's own CPU per request on this server, measured over `rounds` requests one at a time: a
 * route handler that does nothing (GET /healthz: no proxy, no store, no session) and a page with
 * next to nothing (the result page without a session: "No verified identity", through the proxy
 * like every page). Not the not-found page: Next.js renders it along a costlier error path.
 */
async function frameworkPerRequest(app: string, pid: number, rounds = 300): Promise<{ handler: number; page: number }> {
  const cpuPerRequest = async (url: string) => {
    for (let i = 0; i < 30; i += 1) await (await fetch(url)).arrayBuffer();
    const before = processCpuNs(pid);
    for (let i = 0; i < rounds; i += 1) await (await fetch(url)).arrayBuffer();
    return (processCpuNs(pid) - before) / 1e6 / rounds;
  };
  return { handler: await cpuPerRequest(`${app}/healthz`), page: await cpuPerRequest(`${app}/result`) };
}

/** What one mode measured. */
interface ModeFigures {
  /** the server's CPU ms per verification, under load */
  cpuPerVerification: number;
  /** Next.js's own CPU ms for the requests the server answers in one verification */
  frameworkPerVerification: number;
}

/** Runs one mode. */
async function benchMode(mode: 'emulator' | 'provider', options: Options, dataDir: string): Promise<ModeFigures> {
  const port = await freePort();
  const app = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    APP_URL: app,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: join(dataDir, mode),
    IDV_START_LIMIT_PER_ADDRESS: '100000',
    IDV_START_LIMIT_OVERALL: '100000',
    EMULATOR_RATE_LIMITS: JSON.stringify({ par: 1_000_000, token: 1_000_000, interaction: 1_000_000 }),
  };
  let provider: { close(): void } | undefined;
  if (mode === 'provider') {
    const keys = await generateClientKeys('ES256');
    const started = await startProvider(await freePort(), { clientId: 'bench-rp', redirectUri: `${app}/auth/callback`, jwks: clientPublicJwks(keys) });
    provider = started;
    Object.assign(env, {
      IDV_BASE_URL: started.baseUrl,
      IDV_CLIENT_ID: 'bench-rp',
      IDV_SIGNING_KEY: JSON.stringify(keys.signingKey),
      IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionKey),
    });
  }
  const server = await startServer(env, options.profile && join(options.profile, mode));
  try {
    const warmUp = Math.min(50, options.verifications);
    await runVerifications(app, warmUp, options.concurrency);
    const before = processFigures(server.pid!);
    const started = performance.now();
    const trend: number[] = [];
    const { durations, resultPageBytes } = await runVerifications(app, options.verifications, options.concurrency, () =>
      trend.push(processFigures(server.pid!).rssMiB),
    );
    const seconds = (performance.now() - started) / 1000;
    const after = processFigures(server.pid!);
    durations.sort((a, b) => a - b);
    const cpuPerVerification = (after.cpuMs - before.cpuMs) / options.verifications;
    console.log(`\n${mode} mode: ${options.verifications} verifications at concurrency ${options.concurrency} (after ${warmUp} to warm up)`);
    figure('verifications per second', (options.verifications / seconds).toFixed(1));
    figure('latency p50 / p95 / p99', `${percentile(durations, 50).toFixed(0)} / ${percentile(durations, 95).toFixed(0)} / ${percentile(durations, 99).toFixed(0)} ms`);
    figure('server CPU per verification', `${cpuPerVerification.toFixed(1)} ms`);
    figure('server memory (RSS) before → after', `${before.rssMiB.toFixed(0)} → ${after.rssMiB.toFixed(0)} MiB`);
    // V8 grows its heap while it may (it lets garbage pile up on a machine with memory to spare):
    // a leak keeps climbing at every tenth; a heap that settles levels off. Run the server with
    // NODE_OPTIONS=--max-old-space-size=160 to see it hold in a small heap.
    figure('RSS at each tenth of the run (MiB)', trend.map((rss) => rss.toFixed(0)).join(' '));
    figure('result page HTML', `${(resultPageBytes / 1024).toFixed(1)} KiB`);
    // Each step alone: twenty verifications one at a time.
    const timings: StepTimings = { pid: server.pid!, ms: new Map(), cpuMs: new Map() };
    for (let i = 0; i < 20; i += 1) await verifyOnce(app, timings, options.saveResult && `${options.saveResult}-${mode}.html`);
    const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
    console.log('  per request at concurrency 1 (median of 20): time / the server\'s CPU, ms');
    for (const step of STEPS) console.log(`    ${step.padEnd(50)} ${median(timings.ms.get(step)!).toFixed(1).padStart(5)} / ${median(timings.cpuMs.get(step)!).toFixed(1)}`);
    // Two pages (home, result); the other requests are route handlers (the embedded emulator's
    // too). In provider mode the authorization page and the decision go to the provider.
    const handlers = mode === 'emulator' ? 5 : 3;
    const framework = await frameworkPerRequest(app, server.pid!);
    const frameworkPerVerification = 2 * framework.page + handlers * framework.handler;
    figure('Next.js alone: an empty route handler / page', `${framework.handler.toFixed(2)} / ${framework.page.toFixed(2)} ms`);
    figure(`  for ${handlers} route handlers and 2 pages`, `${frameworkPerVerification.toFixed(1)} ms`);
    const javaScript = await homePageJavaScript(app);
    figure('home page JavaScript (as transferred)', `${(javaScript.bytes / 1024).toFixed(1)} KiB in ${javaScript.files} files`);
    return { cpuPerVerification, frameworkPerVerification };
  } finally {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    provider?.close();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  buildIfNeeded();
  console.log(`node ${process.version}, ${process.arch}; the server runs \`npm start\` (the standalone build)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-http-'));
  if (options.throughput) {
    try {
      await benchThroughput(options, dataDir);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    return;
  }
  try {
    const figures: Partial<Record<'emulator' | 'provider', ModeFigures>> = {};
    for (const mode of options.modes) figures[mode] = await benchMode(mode, options, dataDir);
    const floor = await cryptoFloor(idTokenBytes);
    console.log(`\ncrypto floor (jose alone, measured now; an ID token of ${(idTokenBytes / 1024).toFixed(1)} KiB)`);
    figure('relying party (3 signs, 1 decrypt, 1 verify)', `${floor.relyingParty.toFixed(2)} ms`);
    figure('emulator (3 verifies, 1 sign, 1 encrypt)', `${floor.emulator.toFixed(2)} ms`);
    // The crypto floor alone, then with Next.js's own cost of the requests added: what is left
    // above the second is this app's own work.
    const ratios = (mode: 'emulator' | 'provider', crypto: number) => {
      const measured = figures[mode];
      if (!measured) return;
      const { cpuPerVerification, frameworkPerVerification } = measured;
      figure(`${mode} mode: server CPU / floor`, `${(cpuPerVerification / crypto).toFixed(1)}×`);
      figure(`${mode} mode: server CPU / (floor + Next.js alone)`, `${(cpuPerVerification / (crypto + frameworkPerVerification)).toFixed(1)}×`);
    };
    ratios('provider', floor.relyingParty);
    ratios('emulator', floor.relyingParty + floor.emulator);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
