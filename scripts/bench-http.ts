/**
 * `npm run bench:http`: whole verifications over HTTP against the production server, as browsers
 * would make them, beside references built in the same run. Prints figures; asserts nothing.
 *
 *   npm run bench:http                                   both modes, 200 verifications each, then 5 rounds
 *   npm run bench:http -- --rounds 2 --verifications 50  a short run
 *   npm run bench:http -- --verifications 10000 --mode provider   memory over 10,000 verifications
 *   npm run bench:http -- --profile /tmp/profiles   the app's CPU profile (node --cpu-prof) per mode
 *   npm run bench:http -- --heap 160 --verifications 10000 --mode provider   every server in a 160 MiB heap (--max-old-space-size):
 *                                                   memory that levels off there is V8's heap growing, not a leak
 *   npm run bench:http -- --save-result /tmp/r      the last result page's HTML, per relying party (/tmp/r-app-provider.html)
 *   npm run bench:http -- --throughput              verifications per second with one server process and with two
 *   npm run bench:http -- --throughput --seconds 60 --concurrency 16
 *
 * On a 2-core machine shared with other work, the default run takes about 2 minutes, the short
 * run 1 minute (plus the app's build if it has none, and the references' first build, about
 * 25 s). `--verifications 10000 --mode provider` takes about 15 minutes: 10,000 verifications for
 * the app (8 minutes), 10,000 for the minimal relying party (5 minutes), then the rounds.
 *
 * What runs:
 * - The app: built first if there is no build, or one older than the sources. In emulator mode
 *   with its embedded emulator (its rate limits raised for the run); in provider mode against a
 *   lean provider in this process (lib/emulator served by node:http, rate limits off), so the
 *   server's figures are the relying party's alone.
 * - Two references, built by this bench from scripts/bench-references/ in a temporary folder
 *   (`os.tmpdir()/idv-bench-references-<hash>`), with the repository's own node_modules, so the
 *   very same Next.js and React; standalone servers like the app's. The hash covers their
 *   sources, the core's and Next.js's version: a second run reuses them, and says so.
 *   - blank: an empty prerendered page (`/`), an empty dynamic page (`/dynamic`) and an empty
 *     route handler (`/handler`): Next.js's own CPU for each kind of request.
 *   - minimal-rp: a minimal App Router relying party doing the same verification with the same
 *     core (lib/oidc, copied in at build time) against the same lean provider, with the app's
 *     `full-kyc` selection: a static home page, PAR, state, nonce and PKCE checked, the token
 *     exchange and the ID token's decryption and validation, its flows and results in a Map, the
 *     browser bound by an HMAC-signed cookie, a dynamic result page and the portrait.
 * - Each verification makes every request a browser makes: GET / (the app binds the session),
 *   POST /auth/start, GET the authorization page, POST the quick-test decision, GET
 *   /auth/callback, GET /result (checked for the person's name and the portrait's <img>),
 *   GET /result/portrait, POST /auth/signout (so that a long run does not fill the in-memory
 *   store with results) and GET /?signed_out=1, where its 303 leads. Not /_next/static/*: those
 *   files are immutable, and a browser keeps them after its first visit. Printed: the requests
 *   the relying party's server answers per verification (the authorization page and the
 *   decision are the provider's, except in emulator mode).
 * - Each relying party alone: its verifications at concurrency 16 (after a warm-up), with the
 *   server's CPU per verification (every thread's schedstat, in ns), latency, and its resident
 *   set at each tenth of the run (the memory trend); then each request's median time and server
 *   CPU over twenty verifications one at a time, in one table for every relying party.
 * - The home page's JavaScript as a browser receives it (module scripts, compressed).
 * - Interleaved rounds (`--rounds N`, default 5), so that a machine busy with other work weighs
 *   on every figure alike. Each round measures, one after the other: the server's CPU per
 *   verification of each relying party (100 at concurrency 16, after 16 to warm up), the blank
 *   app's CPU per request of each kind and the app's home page (200 requests at concurrency 16,
 *   after 20), and the crypto floor: the jose work a verification cannot avoid, as this process's
 *   CPU (process.cpuUsage) over 50 verifications' worth. For the relying party that is three
 *   ES256 signatures (two client assertions, the request object), one RSA-OAEP-256/A256GCM
 *   decryption of an ID token of the real size and one ES256 verification; the embedded
 *   emulator adds three ES256 verifications, one ES256 signature and one encryption. Each round's
 *   ratios, then their median and min–max, beside the issue's targets: the app over the minimal
 *   relying party, the app's home page over the blank static page, and each relying party over
 *   the crypto floor, and over the crypto floor plus Next.js's floor for its requests (each
 *   request at the blank app's price for its kind: prerendered page, dynamic page, handler).
 * - Throughput (`--throughput`): whole verifications in emulator mode for a fixed time (20 s, after
 *   5 s to warm up) at concurrency 16, on a redis-server this bench starts, first with one server
 *   process, then with two (WEB_CONCURRENCY=2; the same Redis either way, so that only the number
 *   of processes differs). Prints verifications per second, p50/p95, the server's CPU per
 *   verification (every process's), and the ratio of the two throughputs. This process, the
 *   client, runs on the same machine and takes its share of the cores.
 */
import { recordFigures } from './bench-figures';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CompactEncrypt, CompactSign, compactDecrypt, compactVerify, generateKeyPair } from 'jose';
import { createEmulator } from '../lib/emulator';
import { clientPublicJwks, generateClientKeys } from '../lib/oidc';
import { MemoryStore } from '../lib/store/memory-store';
import { freePort } from '../test/support/app-server';
import { startRedisServer } from '../test/support/redis-server';

const ROOT = join(import.meta.dirname, '..');

/** The size of the ID tokens the lean provider issued (the JWE, portrait included); 27 KiB until one is seen. */
let idTokenBytes = 27 * 1024;

interface Options {
  verifications: number;
  concurrency: number;
  modes: ('emulator' | 'provider')[];
  /** interleaved rounds of the comparisons */
  rounds: number;
  /** a folder for the app's CPU profiles */
  profile?: string;
  /** where to save the last result page (a path prefix) */
  saveResult?: string;
  /** every server's V8 heap limit, MiB (node --max-old-space-size), to tell a growing heap from a leak */
  heap?: number;
  /** throughput with one server process and with two, instead of the modes */
  throughput: boolean;
  /** how long each throughput run measures */
  seconds: number;
}

function parseOptions(args: string[]): Options {
  const options: Options = { verifications: 200, concurrency: 16, modes: ['emulator', 'provider'], rounds: 5, throughput: false, seconds: 20 };
  for (let i = 0; i < args.length; i += 1) {
    const [name, value] = [args[i], args[i + 1]];
    if (name === '--throughput') {
      options.throughput = true;
      continue;
    }
    if (name === '--seconds' && Number(value) > 0) options.seconds = Number(value);
    else if (name === '--verifications' && Number(value) > 0) options.verifications = Number(value);
    else if (name === '--concurrency' && Number(value) > 0) options.concurrency = Number(value);
    else if (name === '--rounds' && Number.isInteger(Number(value)) && Number(value) > 0) options.rounds = Number(value);
    else if (name === '--mode' && (value === 'emulator' || value === 'provider')) options.modes = [value];
    else if (name === '--profile' && value) options.profile = value;
    else if (name === '--heap' && Number.isInteger(Number(value)) && Number(value) >= 64) options.heap = Number(value);
    else if (name === '--save-result' && value) options.saveResult = value;
    else
      throw new Error(
        `unknown or bad argument "${name} ${value ?? ''}" (use --verifications N, --concurrency C, --rounds N, --mode emulator|provider, --profile DIR, --save-result PATH, --heap MiB (64 or more), --throughput, --seconds S)`,
      );
    i += 1;
  }
  return options;
}

function figure(label: string, value: string): void {
  console.log(`  ${label.padEnd(66)} ${value}`);
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

const REFERENCE_TEMPLATES = join(ROOT, 'scripts/bench-references');
const CORE = join(ROOT, 'lib/oidc');
const REFERENCES = ['blank', 'minimal-rp'] as const;
type ReferenceName = (typeof REFERENCES)[number];

/** What a build leaves in a template folder, if somebody built one there by hand: never a source. */
const isBuildOutput = (name: string) => ['node_modules', '.next', 'next-env.d.ts'].includes(name) || name.endsWith('.tsbuildinfo');

/** The files under `folder`, relative to it, sorted, without build output. */
function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .filter((path) => !path.split(sep).some(isBuildOutput))
    .sort();
}

/** The core's files as an integrator copies them (lib/oidc/README.md "Copy it"): without the tests. */
function coreFiles(): string[] {
  return sourceFiles(CORE).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
}

/** A hash of what the references are built from: their templates, the core and Next.js's version. */
function referencesHash(): string {
  const hash = createHash('sha256');
  hash.update(`next ${(JSON.parse(readFileSync(join(ROOT, 'node_modules/next/package.json'), 'utf8')) as { version: string }).version}\0`);
  const add = (folder: string, files: string[]) => {
    for (const file of files)
      hash
        .update(`${relative(ROOT, join(folder, file))}\0`)
        .update(readFileSync(join(folder, file)))
        .update('\0');
  };
  add(REFERENCE_TEMPLATES, sourceFiles(REFERENCE_TEMPLATES));
  add(CORE, coreFiles());
  return hash.digest('hex').slice(0, 16);
}

/** The deepest folder that holds both paths. */
function commonAncestor(a: string, b: string): string {
  const [first, second] = [a.split(sep), b.split(sep)];
  let shared = 0;
  while (shared < first.length && first[shared] === second[shared]) shared += 1;
  return first.slice(0, shared).join(sep) || sep;
}

/**
 * A reference's standalone server.js, built now unless this folder holds a finished build.
 * node_modules is a symlink to the repository's. Turbopack compiles nothing outside its root and
 * refuses a node_modules that points out of it ("Symlink node_modules is invalid"), so the
 * templates' next.config.mjs makes the folder that holds both this one and the real node_modules
 * (`tracingRoot`, passed as BENCH_REFERENCE_ROOT) Turbopack's root and the standalone output's
 * tracing root. The standalone output mirrors that root: server.js sits at the app's path under it.
 * Without .next/static and public/: the bench asks for neither, as a browser that has them cached.
 */
function buildReference(name: ReferenceName, folder: string, tracingRoot: string): { serverJs: string; built: boolean } {
  const app = join(folder, name);
  const serverJs = join(app, '.next/standalone', relative(tracingRoot, app), 'server.js');
  // Written last: a build that failed or was interrupted is done again.
  const finished = join(app, 'bench-build-finished');
  if (existsSync(finished) && existsSync(serverJs)) return { serverJs, built: false };
  rmSync(app, { recursive: true, force: true });
  cpSync(join(REFERENCE_TEMPLATES, name), app, { recursive: true, filter: (path) => !isBuildOutput(path.split(sep).at(-1)!) });
  symlinkSync(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir');
  if (name === 'minimal-rp') {
    mkdirSync(join(app, 'lib/oidc'), { recursive: true });
    for (const file of coreFiles()) cpSync(join(CORE, file), join(app, 'lib/oidc', file));
  }
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: app,
    env: { ...process.env, BENCH_REFERENCE_ROOT: tracingRoot, NEXT_TELEMETRY_DISABLED: '1' },
    encoding: 'utf8',
    timeout: 5 * 60 * 1000,
  });
  if (build.status !== 0 || !existsSync(serverJs)) {
    const why = build.error ? build.error.message : build.status !== 0 ? `exit code ${build.status}` : `no ${serverJs}`;
    const output = `${build.stdout ?? ''}${build.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`building the ${name} reference failed (${why}) in ${app}:\n${output}`);
  }
  writeFileSync(finished, `${new Date().toISOString()}\n`);
  return { serverJs, built: true };
}

/** Both references' server.js, built in the temporary folder of this hash or reused from it. */
function prepareReferences(): Record<ReferenceName, string> {
  const folder = join(tmpdir(), `idv-bench-references-${referencesHash()}`);
  const tracingRoot = commonAncestor(folder, realpathSync(join(ROOT, 'node_modules')));
  const started = performance.now();
  const servers = {} as Record<ReferenceName, string>;
  const built: ReferenceName[] = [];
  for (const name of REFERENCES) {
    if (!existsSync(join(folder, name, 'bench-build-finished'))) console.log(`building the ${name} reference (next build)…`);
    const reference = buildReference(name, folder, tracingRoot);
    servers[name] = reference.serverJs;
    if (reference.built) built.push(name);
  }
  const how = built.length === 0 ? 'reused' : `built (${built.join(', ')}) in ${((performance.now() - started) / 1000).toFixed(0)} s`;
  console.log(`references (blank, minimal-rp): ${how}, in ${folder}`);
  return servers;
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

/** The middle value, or the mean of the two middle ones (of two rounds, not the lower). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The jose work of one verification, for the relying party and for the embedded emulator. */
interface CryptoFloorWork {
  relyingParty(): Promise<void>;
  emulator(): Promise<void>;
}

/** Keys and tokens made once, so that a measurement holds the operations alone. */
async function cryptoFloorWork(idTokenBytes: number): Promise<CryptoFloorWork> {
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
  return {
    async relyingParty() {
      for (let i = 0; i < 3; i += 1) await sign();
      await decrypt();
      await verify();
    },
    async emulator() {
      for (let i = 0; i < 3; i += 1) await verify();
      await sign();
      await encrypt();
    },
  };
}

/**
 * This process's CPU ms per call of `work`, over `count` calls: user + system of every thread, so
 * WebCrypto's work on libuv's pool counts too. Measured between rounds, when this process (the
 * client and the lean provider) has nothing else to do.
 */
async function cpuMsPerCall(work: () => Promise<void>, count = 50): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < count; i += 1) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

/** A browser's cookie jar for one origin: enough for the session cookie. Counts its requests per origin. */
class Browser {
  #cookies = new Map<string, string>();
  #requests = new Map<string, number>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const { origin } = new URL(url);
    this.#requests.set(origin, (this.#requests.get(origin) ?? 0) + 1);
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

  /** The body of a GET that must succeed. */
  async page(url: string, what: string): Promise<string> {
    const response = await this.request(url);
    if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`);
    return response.text();
  }

  requestsTo(origin: string): number {
    return this.#requests.get(origin) ?? 0;
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

const STEPS = [
  'GET /',
  'POST /auth/start',
  'GET authorization page',
  'POST decision',
  'GET /auth/callback',
  'GET /result',
  'GET /result/portrait',
  'POST /auth/signout',
  'GET /?signed_out=1',
] as const;
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

/** What one verification saw. */
interface Verification {
  resultPageBytes: number;
  /** the requests the relying party's server answered (the provider's are not counted) */
  serverRequests: number;
}

/**
 * One whole verification as a browser makes it, every request to the server included (not
 * /_next/static/*, which a browser has cached since its first visit). With `timings`, adds each
 * step's milliseconds (the request and reading its body) and the server's CPU meanwhile under its name.
 */
async function verifyOnce(app: string, timings?: StepTimings, save?: string): Promise<Verification> {
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
  await browser.page(`${app}/`, 'GET /');
  lap('GET /');
  const started = await browser.request(`${app}/auth/start`, {
    method: 'POST',
    headers: { origin: app, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'preset=full-kyc',
  });
  const authorization = location(started, 'POST /auth/start');
  lap('POST /auth/start');
  const page = await browser.page(authorization, 'GET authorization page');
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
  const html = await browser.page(new URL(result, app).href, 'GET /result');
  lap('GET /result');
  if (!html.includes('Ingrid Solberg Haugen')) throw new Error('the result page does not show the person');
  if (!html.includes('src="/result/portrait"')) throw new Error('the result page does not show the portrait');
  if (save) writeFileSync(save, html);
  const portrait = await browser.request(`${app}/result/portrait`);
  const portraitBytes = (await portrait.arrayBuffer()).byteLength;
  if (!portrait.ok || !portrait.headers.get('content-type')?.startsWith('image/') || portraitBytes === 0) {
    throw new Error(`GET /result/portrait: HTTP ${portrait.status}, ${portrait.headers.get('content-type')}, ${portraitBytes} bytes`);
  }
  lap('GET /result/portrait');
  // Signed out, as a tidy person does: the result goes at once rather than after 15 minutes, so
  // thousands of verifications measure the server, not a store filling up.
  const signedOut = await browser.request(`${app}/auth/signout`, { method: 'POST', headers: { origin: app } });
  const home = location(signedOut, 'POST /auth/signout');
  if (!home.includes('signed_out')) throw new Error(`sign-out failed: ${home}`);
  lap('POST /auth/signout');
  await browser.page(new URL(home, app).href, 'GET /?signed_out=1');
  lap('GET /?signed_out=1');
  return { resultPageBytes: html.length, serverRequests: browser.requestsTo(new URL(app).origin) };
}

/**
 * Runs `count` verifications, `concurrency` at a time; their durations in ms and what the last
 * saw. With `onTenth`, calls it after each tenth of them (for the memory trend).
 */
async function runVerifications(app: string, count: number, concurrency: number, onTenth?: () => void): Promise<{ durations: number[]; last: Verification }> {
  const durations: number[] = [];
  let next = 0;
  let last: Verification | undefined;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const started = performance.now();
      last = await verifyOnce(app);
      durations.push(performance.now() - started);
      if (onTenth && durations.length % Math.max(1, Math.floor(count / 10)) === 0) onTenth();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return { durations, last: last! };
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

/** The app's environment for a run of the bench: its own secret and data folder, start limits out of the way. */
function appEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: dataDir,
    IDV_START_LIMIT_PER_ADDRESS: '100000',
    IDV_START_LIMIT_OVERALL: '100000',
    EMULATOR_RATE_LIMITS: JSON.stringify({ par: 1_000_000, token: 1_000_000, interaction: 1_000_000 }),
  };
}

/** Verifications per second at `concurrency` with one server process and with two, on one redis-server of this run. */
async function benchThroughput(options: Options, dataDir: string): Promise<void> {
  const redis = await startRedisServer();
  try {
    const figures: { processes: number; perSecond: number; p95: number }[] = [];
    for (const processes of [1, 2]) {
      const port = await freePort();
      const server = await startApp(`${processes} server process(es)`, {
        ...appEnv(port, join(dataDir, `throughput-${processes}`)),
        WEB_CONCURRENCY: String(processes),
        REDIS_URL: redis.url,
        IDV_REDIS_PREFIX: `bench-${processes}:`,
      });
      try {
        // The server answered /readyz, which one process answering suffices for: the warm-up lets every one start and warm.
        await runFor(server.url, 5, options.concurrency);
        const pids = processTree(server.pid);
        const cpuEach = () => pids.map((pid) => processFigures(pid).cpuMs);
        const cpuMs = () => cpuEach().reduce((sum, ms) => sum + ms, 0);
        const eachBefore = cpuEach();
        const rssMiB = () => pids.reduce((sum, pid) => sum + processFigures(pid).rssMiB, 0);
        const [cpuBefore, rssBefore, clientBefore, started] = [cpuMs(), rssMiB(), process.cpuUsage(), performance.now()];
        const durations = await runFor(server.url, options.seconds, options.concurrency);
        const seconds = (performance.now() - started) / 1000;
        const [cpuAfter, rssAfter, client, eachAfter] = [cpuMs(), rssMiB(), process.cpuUsage(clientBefore), cpuEach()];
        durations.sort((a, b) => a - b);
        const perSecond = durations.length / seconds;
        const p95 = percentile(durations, 95);
        figures.push({ processes, perSecond, p95 });
        console.log(
          `\n${processes === 1 ? 'one server process' : `${processes} server processes (WEB_CONCURRENCY=${processes})`}, emulator mode on Redis: ${options.seconds} s at concurrency ${options.concurrency} (after 5 s to warm up)`,
        );
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
        figure("this client's CPU per verification", `${((client.user + client.system) / 1000 / durations.length).toFixed(1)} ms`);
      } finally {
        await server.stop();
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

/** A server this bench started and stops. */
interface RunningServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** How long a server may take to answer its first request before the bench gives up on it. */
const START_TIMEOUT_MS = 60_000;

/**
 * Starts `node <args>` as a server on `env.PORT` and resolves once `readyPath` answers 200; rejects
 * with the server's output if it exits first, or does not answer within START_TIMEOUT_MS.
 */
function startServer(name: string, args: string[], env: Record<string, string>, readyPath: string): Promise<RunningServer> {
  const child = spawn(process.execPath, [...heapFlags, ...args], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${env.PORT}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: RunningServer = {
    url,
    pid: child.pid!,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      clearInterval(poll);
      void server.stop();
      reject(new Error(`${name} did not answer ${readyPath} within ${START_TIMEOUT_MS / 1000} s:\n${output}`));
    }, START_TIMEOUT_MS);
    const poll = setInterval(async () => {
      const ok = await fetch(`${url}${readyPath}`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) {
        clearInterval(poll);
        clearTimeout(deadline);
        resolve(server);
      }
    }, 200);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(deadline);
      reject(new Error(`${name} exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** `--heap`: every server's V8 heap limit (set once the options are read). */
let heapFlags: string[] = [];

/** The app, as `npm start` runs it (scripts/start.mjs and the standalone build). */
function startApp(name: string, env: Record<string, string>, profile?: string): Promise<RunningServer> {
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  return startServer(name, [...flags, join(ROOT, 'scripts/start.mjs')], { ...env, HOST: '127.0.0.1' }, '/readyz');
}

/** A reference's standalone server, as Next.js documents it (PORT, HOSTNAME); ready when its home page answers. */
function startReference(name: ReferenceName, serverJs: string, port: number, env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer(`the ${name} reference`, [serverJs], { ...env, PORT: String(port), HOSTNAME: '127.0.0.1' }, '/');
}

/** A client of the lean provider. */
interface ProviderClient {
  clientId: string;
  redirectUri: string;
  jwks: ReturnType<typeof clientPublicJwks>;
}

/** The lean provider of provider mode: the emulator's handlers on a node:http server in this process. */
async function startProvider(port: number, clients: ProviderClient[]) {
  const baseUrl = `http://127.0.0.1:${port}`;
  const emulator = createEmulator({
    baseUrl,
    clients: clients.map(({ clientId, redirectUri, jwks }) => ({ clientId, name: 'bench', jwks, redirectUris: [redirectUri], populationRegister: true })),
    rateLimits: false,
    // The emulator keeps each flow's record and trace for an hour (for its QA panel), within its
    // store's budget: 64 MiB by default, about 8,000 flows, where a run of 10,000 verifications
    // per relying party makes 20,000. This store is in the bench's process, not the measured server's.
    store: new MemoryStore({ budgetBytes: 1024 * 1024 * 1024 }),
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
 * `noModule` script is for browsers without modules, which no supported browser is), named in a
 * `src` attribute.
 */
async function homePageJavaScript(app: string): Promise<{ bytes: number; files: number }> {
  const html = await (await fetch(`${app}/`)).text();
  const sources = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes]) => !/\snomodule\b/i.test(attributes!))
    .map(([, attributes]) => /\ssrc="([^"]+)"/.exec(attributes!)?.[1])
    .filter((source): source is string => Boolean(source));
  const unique = [...new Set(sources)];
  const sizes = await Promise.all(unique.map((source) => transferredBytes(new URL(source, app).href)));
  return { bytes: sizes.reduce((sum, size) => sum + size, 0), files: unique.length };
}

/**
 * The requests a relying party's server answers in one verification, by what Next.js does for
 * each: serve a prerendered page, render a page, or run a route handler.
 */
interface RequestKinds {
  staticPages: number;
  dynamicPages: number;
  handlers: number;
}

/** A relying party this bench measures. */
interface RelyingPartyUnderTest {
  /** its name in the figures, also the suffix of --save-result's file */
  name: 'app-emulator' | 'app-provider' | 'minimal-rp';
  label: string;
  server: RunningServer;
  requests: RequestKinds;
  /** which crypto floor its server's work is held against: the embedded emulator's too, or not */
  floor: 'relying party' | 'relying party and emulator';
}

const requestCount = ({ staticPages, dynamicPages, handlers }: RequestKinds) => staticPages + dynamicPages + handlers;

function describeRequests({ staticPages, dynamicPages, handlers }: RequestKinds): string {
  const count = (n: number, what: string) => (n === 0 ? [] : [`${n} ${what}${n === 1 ? '' : 's'}`]);
  return [...count(staticPages, 'prerendered page'), ...count(dynamicPages, 'dynamic page'), ...count(handlers, 'handler')].join(', ');
}

/** Each step's medians over twenty verifications one at a time: time and the server's CPU, ms. */
type StepMedians = Map<Step, { ms: number; cpuMs: number }>;

/**
 * One relying party alone: `options.verifications` at concurrency (after a warm-up), with its
 * memory at each tenth; then each step over twenty verifications one at a time.
 */
async function measureRelyingParty(subject: RelyingPartyUnderTest, options: Options): Promise<StepMedians> {
  const { url, pid } = subject.server;
  const warmUp = Math.min(50, options.verifications);
  await runVerifications(url, warmUp, options.concurrency);
  const [rssBefore, cpuBefore, started] = [processFigures(pid).rssMiB, processCpuNs(pid), performance.now()];
  const trend: number[] = [];
  const { durations, last } = await runVerifications(url, options.verifications, options.concurrency, () => trend.push(processFigures(pid).rssMiB));
  const seconds = (performance.now() - started) / 1000;
  const [rssAfter, cpuAfter] = [processFigures(pid).rssMiB, processCpuNs(pid)];
  if (last.serverRequests !== requestCount(subject.requests)) {
    throw new Error(
      `${subject.label}: a verification made ${last.serverRequests} requests to its server, the bench counts ${requestCount(subject.requests)} (${describeRequests(subject.requests)})`,
    );
  }
  durations.sort((a, b) => a - b);
  console.log(`\n${subject.label}: ${options.verifications} verifications at concurrency ${options.concurrency} (after ${warmUp} to warm up)`);
  figure('requests its server answers per verification', `${last.serverRequests} (${describeRequests(subject.requests)})`);
  figure('verifications per second', (options.verifications / seconds).toFixed(1));
  figure(
    'latency p50 / p95 / p99',
    `${percentile(durations, 50).toFixed(0)} / ${percentile(durations, 95).toFixed(0)} / ${percentile(durations, 99).toFixed(0)} ms`,
  );
  figure('server CPU per verification', `${((cpuAfter - cpuBefore) / 1e6 / options.verifications).toFixed(1)} ms`);
  figure('server memory (RSS) before → after', `${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MiB`);
  // V8 grows its heap while it may (it lets garbage pile up on a machine with memory to spare):
  // a leak keeps climbing at every tenth; a heap that settles levels off. Run the server with
  // `--heap 160` to see it hold in a small heap.
  figure('RSS at each tenth of the run (MiB)', trend.map((rss) => rss.toFixed(0)).join(' '));
  figure('result page HTML', `${(last.resultPageBytes / 1024).toFixed(1)} KiB`);
  const timings: StepTimings = { pid, ms: new Map(), cpuMs: new Map() };
  for (let i = 0; i < 20; i += 1) await verifyOnce(url, timings, options.saveResult && `${options.saveResult}-${subject.name}.html`);
  return new Map(STEPS.map((step) => [step, { ms: median(timings.ms.get(step)!), cpuMs: median(timings.cpuMs.get(step)!) }]));
}

/** Every relying party's steps side by side. */
function printSteps(subjects: RelyingPartyUnderTest[], steps: StepMedians[]): void {
  const column = 22;
  console.log("\neach request at concurrency 1, median of 20: time / the server's CPU, ms");
  console.log(`    ${''.padEnd(28)}${subjects.map((subject) => subject.name.padStart(column)).join('')}`);
  for (const step of STEPS) {
    const cells = steps.map((medians) => {
      const { ms, cpuMs } = medians.get(step)!;
      return `${ms.toFixed(1)} / ${cpuMs.toFixed(1)}`.padStart(column);
    });
    console.log(`    ${step.padEnd(28)}${cells.join('')}`);
  }
}

/** Verifications in a round, per relying party, and requests per page or handler. */
const ROUND_VERIFICATIONS = 100;
const ROUND_REQUESTS = 200;

/** The server's CPU ms per verification: ROUND_VERIFICATIONS at `concurrency`, after one each to warm up. */
async function cpuPerVerification({ url, pid }: RunningServer, concurrency: number): Promise<number> {
  await runVerifications(url, concurrency, concurrency);
  const before = processCpuNs(pid);
  await runVerifications(url, ROUND_VERIFICATIONS, concurrency);
  return (processCpuNs(pid) - before) / 1e6 / ROUND_VERIFICATIONS;
}

/** The server's CPU ms per GET of `path`: ROUND_REQUESTS at `concurrency`, after 20 to warm up, each answered 2xx. */
async function cpuPerRequest({ url, pid }: RunningServer, path: string, concurrency: number): Promise<number> {
  const fetchAll = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        const response = await fetch(`${url}${path}`);
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`GET ${url}${path}: HTTP ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  };
  await fetchAll(20);
  const before = processCpuNs(pid);
  await fetchAll(ROUND_REQUESTS);
  return (processCpuNs(pid) - before) / 1e6 / ROUND_REQUESTS;
}

/** What one round measured, in CPU ms. */
interface Round {
  cryptoFloor: { relyingParty: number; emulator: number };
  blank: { staticPage: number; dynamicPage: number; handler: number };
  homePage: number;
  perVerification: Map<RelyingPartyUnderTest['name'], number>;
}

/** A figure over the rounds: its median and its spread. */
function overRounds(values: number[], digits: number, unit: string): string {
  return `${median(values).toFixed(digits)}${unit} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

/**
 * `options.rounds` rounds, each measuring every relying party, the blank app, the app's home page
 * and the crypto floor one after the other; then the figures and each round's ratios over the rounds.
 */
async function compareInRounds(subjects: RelyingPartyUnderTest[], blank: RunningServer, options: Options): Promise<void> {
  const app = subjects.find((subject) => subject.name !== 'minimal-rp')!;
  const crypto = await cryptoFloorWork(idTokenBytes);
  // Once unmeasured: WebCrypto's first calls import and set up what later ones reuse.
  await cpuMsPerCall(crypto.relyingParty, 10);
  await cpuMsPerCall(crypto.emulator, 10);
  console.log(
    `\n${options.rounds} interleaved rounds: each ${ROUND_VERIFICATIONS} verifications per relying party and ${ROUND_REQUESTS} requests per page at concurrency ${options.concurrency}, then the crypto floor`,
  );
  const rounds: Round[] = [];
  for (let index = 0; index < options.rounds; index += 1) {
    const perVerification = new Map<RelyingPartyUnderTest['name'], number>();
    for (const subject of subjects) perVerification.set(subject.name, await cpuPerVerification(subject.server, options.concurrency));
    const round: Round = {
      perVerification,
      blank: {
        staticPage: await cpuPerRequest(blank, '/', options.concurrency),
        dynamicPage: await cpuPerRequest(blank, '/dynamic', options.concurrency),
        handler: await cpuPerRequest(blank, '/handler', options.concurrency),
      },
      homePage: await cpuPerRequest(app.server, '/', options.concurrency),
      cryptoFloor: { relyingParty: await cpuMsPerCall(crypto.relyingParty), emulator: await cpuMsPerCall(crypto.emulator) },
    };
    rounds.push(round);
    console.log(`  round ${index + 1}: ${subjects.map((subject) => `${subject.name} ${perVerification.get(subject.name)!.toFixed(1)} ms`).join(', ')}`);
  }
  const of = (pick: (round: Round) => number) => rounds.map(pick);
  const floorOf = (subject: RelyingPartyUnderTest, round: Round) =>
    round.cryptoFloor.relyingParty + (subject.floor === 'relying party and emulator' ? round.cryptoFloor.emulator : 0);
  const nextFloorOf = ({ requests }: RelyingPartyUnderTest, { blank }: Round) =>
    requests.staticPages * blank.staticPage + requests.dynamicPages * blank.dynamicPage + requests.handlers * blank.handler;
  const verification = (subject: RelyingPartyUnderTest) => (round: Round) => round.perVerification.get(subject.name)!;

  console.log('\nCPU, median of the rounds (min–max)');
  figure(
    `crypto floor, relying party (an ID token of ${(idTokenBytes / 1024).toFixed(1)} KiB)`,
    overRounds(
      of((round) => round.cryptoFloor.relyingParty),
      2,
      ' ms',
    ),
  );
  if (subjects.some((subject) => subject.floor === 'relying party and emulator')) {
    figure(
      'crypto floor, embedded emulator',
      overRounds(
        of((round) => round.cryptoFloor.emulator),
        2,
        ' ms',
      ),
    );
  }
  figure(
    'blank Next.js app: prerendered page',
    overRounds(
      of((round) => round.blank.staticPage),
      2,
      ' ms',
    ),
  );
  figure(
    'blank Next.js app: dynamic page',
    overRounds(
      of((round) => round.blank.dynamicPage),
      2,
      ' ms',
    ),
  );
  figure(
    'blank Next.js app: route handler',
    overRounds(
      of((round) => round.blank.handler),
      2,
      ' ms',
    ),
  );
  figure(
    "the app's home page (GET /)",
    overRounds(
      of((round) => round.homePage),
      2,
      ' ms',
    ),
  );
  for (const subject of subjects) figure(`${subject.label}: per verification`, overRounds(of(verification(subject)), 1, ' ms'));

  console.log("\neach round's ratios: median (min–max)");
  const minimal = subjects.find((subject) => subject.name === 'minimal-rp');
  const appProvider = subjects.find((subject) => subject.name === 'app-provider');
  if (minimal && appProvider) {
    figure(
      'app (provider mode) / minimal relying party',
      `${overRounds(
        of((round) => verification(appProvider)(round) / verification(minimal)(round)),
        2,
        '×',
      )}  target ≤ 1.5×`,
    );
  }
  figure(
    "app's home page / blank prerendered page",
    `${overRounds(
      of((round) => round.homePage / round.blank.staticPage),
      2,
      '×',
    )}  target ≤ 3×`,
  );
  for (const subject of subjects) {
    figure(
      `${subject.label} / crypto floor`,
      overRounds(
        of((round) => verification(subject)(round) / floorOf(subject, round)),
        1,
        '×',
      ),
    );
    figure(
      `${subject.label} / (crypto floor + Next.js's floor)`,
      overRounds(
        of((round) => verification(subject)(round) / (floorOf(subject, round) + nextFloorOf(subject, round))),
        2,
        '×',
      ),
    );
  }
  console.log("\nNext.js's floor: each request at the blank app's CPU for its kind, median (min–max)");
  for (const subject of subjects)
    figure(
      `${subject.label} (${describeRequests(subject.requests)})`,
      overRounds(
        of((round) => nextFloorOf(subject, round)),
        1,
        ' ms',
      ),
    );
}

/** Starts the relying parties of the modes asked for, the blank app and the lean provider; measures; stops them. */
async function benchModes(options: Options, dataDir: string): Promise<void> {
  const references = prepareReferences();
  const subjects: RelyingPartyUnderTest[] = [];
  const servers: RunningServer[] = [];
  let provider: { close(): void } | undefined;
  const started = async (server: Promise<RunningServer>) => {
    servers.push(await server);
    return servers.at(-1)!;
  };
  try {
    if (options.modes.includes('emulator')) {
      const port = await freePort();
      const server = await started(
        startApp('the app in emulator mode', appEnv(port, join(dataDir, 'emulator')), options.profile && join(options.profile, 'emulator')),
      );
      // Pages rendered per request: the home page (twice) and the result; its handlers: start,
      // callback, the portrait, sign-out and the embedded emulator's authorization page and decision.
      subjects.push({
        name: 'app-emulator',
        label: 'app, emulator mode',
        server,
        requests: { staticPages: 0, dynamicPages: 3, handlers: 6 },
        floor: 'relying party and emulator',
      });
    }
    if (options.modes.includes('provider')) {
      const [appPort, minimalPort, providerPort] = [await freePort(), await freePort(), await freePort()];
      const [appUrl, minimalUrl] = [`http://127.0.0.1:${appPort}`, `http://127.0.0.1:${minimalPort}`];
      const [appKeys, minimalKeys] = [await generateClientKeys('ES256'), await generateClientKeys('ES256')];
      const lean = await startProvider(providerPort, [
        { clientId: 'bench-app', redirectUri: `${appUrl}/auth/callback`, jwks: clientPublicJwks(appKeys) },
        { clientId: 'bench-minimal-rp', redirectUri: `${minimalUrl}/auth/callback`, jwks: clientPublicJwks(minimalKeys) },
      ]);
      provider = lean;
      const clientEnv = (clientId: string, keys: typeof appKeys) => ({
        IDV_BASE_URL: lean.baseUrl,
        IDV_CLIENT_ID: clientId,
        IDV_SIGNING_KEY: JSON.stringify(keys.signingKey),
        IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryptionKey),
      });
      const app = await started(
        startApp(
          'the app in provider mode',
          { ...appEnv(appPort, join(dataDir, 'provider')), ...clientEnv('bench-app', appKeys) },
          options.profile && join(options.profile, 'provider'),
        ),
      );
      subjects.push({
        name: 'app-provider',
        label: 'app, provider mode',
        server: app,
        requests: { staticPages: 0, dynamicPages: 3, handlers: 4 },
        floor: 'relying party',
      });
      const minimal = await started(
        startReference('minimal-rp', references['minimal-rp'], minimalPort, {
          APP_URL: minimalUrl,
          SESSION_SECRET: randomBytes(32).toString('base64url'),
          ...clientEnv('bench-minimal-rp', minimalKeys),
        }),
      );
      // Its home page is prerendered, also after sign-out (a query changes nothing on it).
      subjects.push({
        name: 'minimal-rp',
        label: 'minimal relying party',
        server: minimal,
        requests: { staticPages: 2, dynamicPages: 1, handlers: 4 },
        floor: 'relying party',
      });
    }
    const blank = await started(startReference('blank', references.blank, await freePort()));
    const steps: StepMedians[] = [];
    for (const subject of subjects) steps.push(await measureRelyingParty(subject, options));
    printSteps(subjects, steps);
    const javaScript = await homePageJavaScript(subjects[0]!.server.url);
    console.log('');
    figure("the app's home page JavaScript (as transferred)", `${(javaScript.bytes / 1024).toFixed(1)} KiB in ${javaScript.files} files`);
    await compareInRounds(subjects, blank, options);
  } finally {
    for (const server of servers) await server.stop();
    provider?.close();
  }
}

async function main(): Promise<void> {
  const figures = recordFigures();
  const options = parseOptions(process.argv.slice(2));
  heapFlags = options.heap ? [`--max-old-space-size=${options.heap}`] : [];
  buildIfNeeded();
  console.log(
    `node ${process.version}, ${process.arch}, ${cpus().length} cores; the app runs \`npm start\` (the standalone build)${options.heap ? `; every server in a ${options.heap} MiB heap` : ''}`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-http-'));
  try {
    if (options.throughput) await benchThroughput(options, dataDir);
    else await benchModes(options, dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  figures.save(`bench:http${options.throughput ? ' -- --throughput' : ''}${options.heap ? ` -- --heap ${options.heap}` : ''}`);
}

await main();
