/**
 * Malformed requests against the built app (a production server of its own, emulator mode): no
 * answer is a 5xx, none hangs, and every answer carries `X-Content-Type-Options: nosniff` (JSON
 * also `Content-Security-Policy: default-src 'none'`, HTML a policy of its own).
 *
 * Every route is asked: the app's (read from the build's route table,
 * .next/app-path-routes-manifest.json), the embedded emulator's (its route table,
 * EMULATOR_ROUTES), the files of public/ and Next.js's own static files. First each route with
 * each method, for the headers of every answer; then thousands of requests, each route in turn
 * with a method drawn from all, odd percent-encodings in the path and the query, odd headers
 * (Range, the preconditions, RSC, Next-Router-State-Tree, Next-Action, Content-Type, Host,
 * forwarding headers), odd bodies and cookies: huge, malformed, and real ones (the session
 * binding, the QA panel's sign-in).
 *
 * The requests are drawn from a fixed seed, so a failure is reproduced by running the test again:
 * `FUZZ_SEED` draws another set, `FUZZ_COUNT` sets how many (docs/testing.md "The fuzz test").
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { join, relative } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROUTES } from '../lib/emulator';
import { freePort, startAppServer, type AppServer } from '../test/support/app-server';

const SEED = Number(process.env.FUZZ_SEED ?? 3939);
const COUNT = Number(process.env.FUZZ_COUNT ?? 2000);
/** No answer may take longer: a request that has none by then hangs. */
const REQUEST_TIMEOUT_MS = 10_000;
const CONCURRENCY = 6;

/** mulberry32: a small PRNG whose sequence a seed fixes (https://gist.github.com/tommyettinger/46a874533244883189143505d203312c). */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One request as it goes on the wire. */
interface FuzzRequest {
  index: number;
  method: string;
  /** the request target: path and query, sent byte for byte */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** what must come back: an answer, or (CONNECT) a closed connection; `parser`: Node's own refusal before any handler */
  expect: 'answer' | 'closed' | 'parser';
}

/** A path of an emulator route (each group of a pattern filled with a value it matches). */
function emulatorPath(path: string | RegExp): string {
  if (typeof path === 'string') return `/emulator${path}`;
  return `/emulator${path.source
    .replace(/^\^/, '')
    .replace(/\$$/, '')
    .replace(/\([^)]*\)/g, 'x')
    .replace(/\\(.)/g, '$1')}`;
}

/** Each row of the emulator's route table: its path (or the pattern of its paths) and its methods, HEAD wherever GET. */
const EMULATOR_ROUTES = ROUTES.map((row) => {
  const methods = Object.keys(row.methods);
  return { path: row.path, methods: methods.includes('GET') ? [...methods, 'HEAD'] : methods };
});

/** Every route the fuzz asks: the app's, the emulator's, the static files, and paths nothing serves. */
function routes(): string[] {
  const appRoutes = Object.values(JSON.parse(readFileSync('.next/app-path-routes-manifest.json', 'utf8')) as Record<string, string>);
  const emulator = EMULATOR_ROUTES.map((row) => emulatorPath(row.path));
  const publicFiles = (readdirSync('public', { recursive: true, withFileTypes: true }) as { isFile(): boolean; parentPath: string; name: string }[])
    .filter((entry) => entry.isFile())
    .map((entry) => `/${relative('public', join(entry.parentPath, entry.name))}`);
  const chunks = readdirSync('.next/static/chunks');
  const script = chunks.find((name) => name.endsWith('.js'))!;
  const stylesheet = chunks.find((name) => name.endsWith('.css'))!;
  return [
    ...appRoutes.filter((route) => !route.includes('[')),
    ...emulator,
    ...publicFiles,
    `/_next/static/chunks/${script}`,
    `/_next/static/chunks/${stylesheet}`,
    '/_next/static/chunks/nothing.js',
    '/_next/image?url=%2Ficon.svg&w=64&q=75',
    '/emulator/nothing',
    '/nothing',
    '/x.php',
  ];
}

const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'QUERY'];
/** Methods Node's HTTP parser refuses (400) before any handler sees them. */
const PARSER_REFUSED = ['FOO', 'TRACK', 'M-SEARCHX'];
const SEGMENTS = ['%E0', '%', '%zz', '%00', '%C0%AF', '%ED%A0%80', '%2F', '%252F', '%E2%82%AC', '%FF%FE', '..', '.', '', '%2e%2e', 'x'.repeat(2500)];
const QUERIES = [
  '?preset=%00',
  '?preset=%FF',
  '?claim=%E2%82%AC',
  '?claim=given_name&claim=given_name&essential=%E0',
  '?%E0=%E0',
  '?a=%',
  '?code=x&state=y&iss=%E0',
  '?error=access_denied&state=%00',
  '?code=rate_limited&retry_after=-1',
  '?code=store_unavailable&retry_after=5',
  '?code=internal_error&id=%E0',
  '?code=%E0&id=x',
  '?reveal=numbers',
  '?request_uri=urn%3Ax&client_id=%00',
  '?interaction=%E0&browser=x&link=shown',
  '?url=http%3A%2F%2Fevil.example%2F&w=1&q=1',
  '?lang=zz&return_to=%2F%2Fevil.example',
  `?x=${'y'.repeat(6000)}`,
];
const ROUTER_STATES = [
  'garbage',
  '%E0',
  '[]',
  '%5B%22%22%5D',
  '1',
  encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}] }, null, null])),
  'x'.repeat(50_000),
];
const CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-99',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/json',
  'text/plain;charset=utf-8',
  'text/x-component',
  '%E0/%E0',
];
const BODIES = [
  '',
  'a=%E0&b=%&c',
  'action=sign_in&password=%00',
  'claim=given_name&essential=given_name&send_anyway=1',
  '{"a":',
  '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  '\u0000\uffff',
];

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

/** The requests of `seed`: each route in turn, with what is odd about it drawn at random. */
function fuzzRequests(seed: number, count: number, app: { port: number; cookies: Record<string, string> }): FuzzRequest[] {
  const random = prng(seed);
  const targets = routes();
  const origin = `http://localhost:${app.port}`;
  const chance = (p: number) => random() < p;
  const cookieValues = [
    app.cookies.session!,
    app.cookies.panel!,
    `idv_rp_session=${'A'.repeat(7000)}`,
    'idv_rp_session=Fe26.2**%E0**',
    '=;;;=; ;=x',
    'idv_lang=zz; idv_theme=%E0; idv_presenter=on',
    'idv_emulator_lang=%; idv_emulator_theme=dark; idv_emulator_panel=x',
    Array.from({ length: 150 }, (_, i) => `c${i}=${i}`).join('; '),
  ];
  const requests: FuzzRequest[] = [];
  for (let index = 0; index < count; index += 1) {
    const route = targets[index % targets.length]!;
    let [path, query = ''] = route.split(/(?=\?)/);
    if (chance(0.35)) {
      const segment = pick(random, SEGMENTS);
      path = chance(0.5) ? `${path!.replace(/\/[^/]*$/, '')}/${segment}` : `${path}${chance(0.5) ? '/' : ''}${segment}`;
    }
    if (chance(0.4)) query = pick(random, QUERIES);
    const parserRefused = chance(0.01);
    const method = parserRefused ? pick(random, PARSER_REFUSED) : chance(0.01) ? 'CONNECT' : pick(random, METHODS);
    const headers: Record<string, string> = {
      host: `localhost:${app.port}`,
      accept: chance(0.5) ? 'text/html' : pick(random, ['*/*', 'application/json', 'text/x-component', '%E0']),
    };
    if (chance(0.15))
      headers.host = pick(random, [
        `127.0.0.1:${app.port}`,
        'evil.example',
        `[::1]:${app.port}`,
        'localhost:99999',
        `localhost:${app.port}.`,
        'a'.repeat(300),
        '%E0',
        `localhost:${app.port}, evil.example`,
      ]);
    if (chance(0.15))
      headers.range = pick(random, ['bytes=5-1', 'bytes=0-0', 'bytes=999999999-', 'bytes=x', 'bytes=-0', 'items=0-1', 'bytes=0-1,2-3', 'bytes=-5']);
    if (chance(0.05)) headers['if-range'] = pick(random, ['"x"', 'Thu, 01 Jan 1970 00:00:00 GMT']);
    if (chance(0.08)) headers['if-match'] = pick(random, ['"x"', '*', 'W/"1"', '%E0']);
    if (chance(0.08)) headers['if-unmodified-since'] = pick(random, ['Thu, 01 Jan 1970 00:00:00 GMT', 'garbage']);
    if (chance(0.05)) headers['if-none-match'] = pick(random, ['*', '"x"']);
    if (chance(0.05)) headers['if-modified-since'] = pick(random, ['Thu, 01 Jan 2099 00:00:00 GMT', 'garbage']);
    if (chance(0.2)) {
      headers.rsc = pick(random, ['1', '1', '0', '1, 1']);
      if (chance(0.8)) headers['next-router-state-tree'] = pick(random, ROUTER_STATES);
      if (chance(0.3)) headers['next-router-prefetch'] = pick(random, ['1', '2', '3', 'x']);
      if (chance(0.2)) headers['next-router-segment-prefetch'] = pick(random, ['/_tree', '%E0', '/__PAGE__']);
      if (chance(0.2)) headers['next-url'] = pick(random, ['/x', '%E0', '//evil.example']);
    }
    if (chance(0.1)) headers['next-action'] = pick(random, ['x', '0'.repeat(42), '7f'.repeat(21), '%E0']);
    if (chance(0.5)) headers.cookie = pick(random, cookieValues);
    if (chance(0.1)) headers['accept-language'] = pick(random, ['nb', '*;q=x', 'x'.repeat(500), 'nb-NO;q=0.9, en;q=0']);
    if (chance(0.05)) headers['accept-encoding'] = pick(random, ['gzip', 'br;q=x', 'identity;q=0', '*;q=0']);
    if (chance(0.15)) headers.origin = pick(random, [origin, 'null', 'http://evil.example', '%E0']);
    if (chance(0.1)) headers['sec-fetch-site'] = pick(random, ['cross-site', 'same-origin', 'x']);
    if (chance(0.05)) headers.referer = pick(random, [`${origin}/%E0`, 'javascript:alert(1)', '%']);
    if (chance(0.08)) headers['x-forwarded-for'] = pick(random, ['%E0', '1.1.1.1, 2.2.2.2', 'x'.repeat(200)]);
    if (chance(0.05)) headers['x-forwarded-host'] = pick(random, ['evil.example', '%E0', '']);
    if (chance(0.05)) headers['x-forwarded-proto'] = pick(random, ['https', 'gopher', '%E0']);
    if (chance(0.03)) headers['x-middleware-subrequest'] = 'middleware:middleware:middleware:middleware:middleware';
    if (chance(0.03)) headers['x-idv-client-address'] = '%E0';
    if (chance(0.05)) headers.authorization = pick(random, ['Bearer x', 'Basic %E0', 'x'.repeat(300)]);
    if (chance(0.03)) headers.expect = pick(random, ['100-continue', 'x']);
    let body: Buffer | undefined;
    if (!['GET', 'HEAD', 'CONNECT'].includes(method) || chance(0.03)) {
      if (chance(0.7)) headers['content-type'] = pick(random, CONTENT_TYPES);
      body = chance(0.08) ? Buffer.alloc(200_000, 'x') : chance(0.1) ? randomBytesFrom(random, 1024) : Buffer.from(pick(random, BODIES));
    }
    const expected = method === 'CONNECT' ? 'closed' : parserRefused || headers.expect === 'x' ? 'parser' : 'answer';
    requests.push({ index, method, target: `${path}${query}`, headers, body, expect: expected });
  }
  return requests;
}

/** `length` bytes from the seeded sequence (not crypto: they must be the same each run). */
function randomBytesFrom(random: () => number, length: number): Buffer {
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
}

/** Sends `request`; resolves with its answer, or `closed` when the server closes the connection without one. */
function send(port: number, request: Pick<FuzzRequest, 'method' | 'target' | 'headers' | 'body'>): Promise<Answer | 'closed' | 'timeout'> {
  return new Promise((resolve) => {
    const outgoing = httpRequest({
      host: '127.0.0.1',
      port,
      // A connection of its own: an answer that closes its connection spoils no other request.
      agent: false,
      method: request.method,
      path: request.target,
      headers: request.headers as OutgoingHttpHeaders,
      setHost: false,
      insecureHTTPParser: true,
    });
    const timer = setTimeout(() => {
      outgoing.destroy();
      resolve('timeout');
    }, REQUEST_TIMEOUT_MS);
    const done = (answer: Answer | 'closed') => {
      clearTimeout(timer);
      resolve(answer);
    };
    outgoing.on('response', (incoming) => {
      incoming.resume();
      incoming.on('end', () => done({ status: incoming.statusCode!, headers: incoming.headers }));
      incoming.on('error', () => done({ status: incoming.statusCode!, headers: incoming.headers }));
    });
    outgoing.on('connect', (incoming, socket) => {
      socket.destroy();
      done({ status: incoming.statusCode!, headers: incoming.headers });
    });
    outgoing.on('error', () => done('closed'));
    outgoing.end(request.body);
  });
}

/** The request as a curl command line, to reproduce it by hand. */
function curl(port: number, request: FuzzRequest): string {
  const quote = (value: string) => `'${value.replaceAll("'", "'\\''").slice(0, 300)}'`;
  const headers = Object.entries(request.headers).map(([name, value]) => `-H ${quote(`${name}: ${value}`)}`);
  const body = request.body ? ` --data-binary ${request.body.length > 300 ? `@<(${request.body.length} bytes)` : quote(request.body.toString('latin1'))}` : '';
  return `curl -sS -i --path-as-is -X ${request.method} ${headers.join(' ')}${body} ${quote(`http://127.0.0.1:${port}${request.target}`)}`;
}

/**
 * The failure page of a store's refusal, which answers with the refusal's status, 503, by design
 * (ARCHITECTURE.md, `GET /failure`): a balancer and a client read it there. The one 5xx a request
 * may get.
 */
function refusalPage(target: string): boolean {
  const url = new URL(target, 'http://x');
  return url.pathname === '/failure' && ['store_full', 'store_unavailable'].includes(url.searchParams.get('code') ?? '');
}

/** What is wrong with the answer to `request`, if anything. */
function problem(request: FuzzRequest, answer: Answer | 'closed' | 'timeout'): string | undefined {
  if (answer === 'timeout') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
  if (request.expect === 'closed') return answer === 'closed' || answer.status < 500 ? undefined : `answered ${answer.status}`;
  if (answer === 'closed') return 'the connection closed without an answer';
  if (answer.status >= 500 && !(answer.status === 503 && refusalPage(request.target))) return `answered ${answer.status}`;
  // Node's HTTP parser refuses these before any handler runs (400; 431 when the headers are too large first; 417 for Expect).
  if (request.expect === 'parser' && ![400, 417, 431].includes(answer.status)) return `answered ${answer.status}, not Node's refusal`;
  if (answer.headers['x-content-type-options'] !== 'nosniff') return `answered ${answer.status} without X-Content-Type-Options: nosniff`;
  const type = answer.headers['content-type'] ?? '';
  const policy = String(answer.headers['content-security-policy'] ?? '');
  if (type.startsWith('application/json') && !policy.startsWith("default-src 'none'")) return `answered JSON (${answer.status}) with the policy '${policy}'`;
  if (type.startsWith('text/html') && policy === '') return `answered HTML (${answer.status}) without a Content-Security-Policy`;
  return undefined;
}

/** The cookies of a signed-in browser: its session binding (the home page hands it out) and the QA panel's sign-in. */
async function realCookies(port: number, password: string): Promise<Record<string, string>> {
  const origin = `http://localhost:${port}`;
  const home = await fetch(`${origin}/`, { headers: { accept: 'text/html' } });
  const panel = await fetch(`${origin}/emulator/panel`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'sign_in', password }),
  });
  const first = (response: Response) => response.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  expect(first(home)).toMatch(/^idv_rp_session=/);
  expect(first(panel)).toMatch(/^idv_emulator_panel=/);
  return { session: first(home), panel: first(panel) };
}

/**
 * What Next.js logs about bad input it answered with a 4xx: an unknown server action (404), an
 * image the optimizer will not take (400). Anything else it marks with ⨯ is an error it did not expect.
 */
const EXPECTED_NOTICES = [/Failed to find Server Action/, /dangerouslyAllowSVG is disabled/];

/** The errors the server logged that bad input does not explain: each block Next.js marks with ⨯, and the emulator's "unexpected error". */
function unexpectedLogs(output: string): string[] {
  const blocks = output.split(/(?=⨯)/).filter((block) => block.startsWith('⨯'));
  return [
    ...blocks.filter((block) => !EXPECTED_NOTICES.some((notice) => notice.test(block.split('\n').slice(0, 3).join('\n')))),
    ...output.split('\n').filter((line) => /unexpected error|Internal Server Error/.test(line)),
  ].map((block) => block.slice(0, 500));
}

const PASSWORD = randomBytes(18).toString('base64url');
let port: number;
let server: AppServer;

test.beforeAll(async () => {
  port = await freePort();
  server = startAppServer(port, {
    APP_URL: `http://localhost:${port}`,
    IDV_DATA_DIR: '.data/e2e-fuzz',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    EMULATOR_PANEL_PASSWORD: PASSWORD,
    // Limits out of the way: past them every answer would be the same 429, and the code behind them unasked.
    IDV_START_LIMIT_PER_ADDRESS: '100000',
    IDV_START_LIMIT_OVERALL: '100000',
    EMULATOR_RATE_LIMITS: JSON.stringify({ par: 100000, token: 100000, interaction: 100000, panel: 100000, qa: 100000 }),
  });
  await expect
    .poll(
      () =>
        fetch(`http://localhost:${port}/readyz`).then(
          (response) => response.status,
          () => 0,
        ),
      { timeout: 30_000 },
    )
    .toBe(200);
});
test.afterAll(() => server?.kill('SIGTERM'));

test('every route of the app and of the emulator, with each method: nosniff on every answer, JSON loads nothing, each page keeps its own policy', async () => {
  const cookie = Object.values(await realCookies(port, PASSWORD)).join('; ');
  const appRoutes = Object.values(JSON.parse(readFileSync('.next/app-path-routes-manifest.json', 'utf8')) as Record<string, string>).filter(
    (route) => !route.startsWith('/emulator'),
  );
  const asked = [
    ...appRoutes.flatMap((path) => ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'].map((method) => ({ method, path }))),
    ...EMULATOR_ROUTES.flatMap((row) => [...row.methods, 'PATCH'].map((method) => ({ method, path: emulatorPath(row.path) }))),
    { method: 'GET', path: '/emulator/nothing' },
  ];
  const seen = { json: 0, appPages: 0, emulatorPages: 0 };
  for (const { method, path } of asked) {
    const request = { method, target: path, headers: { host: `localhost:${port}`, accept: 'text/html', cookie, origin: `http://localhost:${port}` } };
    const answer = await send(port, request);
    const name = `${method} ${path}`;
    if (typeof answer !== 'object') throw new Error(`${name}: ${answer}`);
    expect(answer.status, name).toBeLessThan(500);
    expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
    const type = answer.headers['content-type'] ?? '';
    const policy = String(answer.headers['content-security-policy'] ?? '');
    if (type.startsWith('application/json')) {
      expect(policy, name).toBe("default-src 'none'; frame-ancestors 'none'");
      seen.json += 1;
    } else if (type.startsWith('text/html') && path.startsWith('/emulator')) {
      expect(policy, name).toMatch(/^default-src 'none'; style-src 'sha256-/);
      seen.emulatorPages += 1;
    } else if (type.startsWith('text/html')) {
      expect(policy, name).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
      seen.appPages += 1;
    }
  }
  // Each kind was among the answers: JSON (discovery, JWKS, the QA API, the emulator's 404 and 405, /healthz), the emulator's pages and the app's.
  expect(seen.json).toBeGreaterThan(10);
  expect(seen.emulatorPages).toBeGreaterThan(3);
  expect(seen.appPages).toBeGreaterThan(3);
});

test(`malformed requests to every route, every method, odd headers and cookies (seed ${SEED}, ${COUNT} requests): no 5xx, no hang, nosniff on every answer`, async () => {
  const requests = fuzzRequests(SEED, COUNT, { port, cookies: await realCookies(port, PASSWORD) });
  const failures: string[] = [];
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        let answer = await send(port, request);
        // An RSC request without Next.js's cache-busting `_rsc` is sent to the same path with it: ask that too.
        const location = typeof answer === 'object' ? answer.headers.location : undefined;
        if (typeof answer === 'object' && answer.status === 307 && location?.includes('_rsc=') && request.headers.rsc) {
          const withRsc = new URL(location, 'http://x');
          answer = await send(port, { ...request, target: `${withRsc.pathname}${withRsc.search}` });
        }
        const wrong = problem(request, answer);
        if (wrong) failures.push(`#${request.index} ${wrong}: ${curl(port, request)}`);
      }
    }),
  );
  console.log(`fuzz: ${requests.length} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (seed ${SEED})`);

  // Each failure whole, one a line, beside the test's other results (test-results/).
  if (failures.length > 0) writeFileSync(test.info().outputPath('failures.txt'), `${failures.join('\n')}\n`);
  expect(failures, `seed ${SEED}: ${failures.length} of ${requests.length} requests failed (FUZZ_SEED=${SEED} reproduces them)`).toEqual([]);
  expect(unexpectedLogs(server.output())).toEqual([]);
  expect(server.running()).toBe(true);
  expect((await fetch(`http://localhost:${port}/healthz`)).status).toBe(200);
});
