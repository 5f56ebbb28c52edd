/**
 * `npm run bench`: speed and memory figures for the hot paths, printed, never asserted.
 *
 *   1. processing one ID token (decrypt RSA-OAEP-256/A256GCM, verify ES256, validate claims)
 *   2. whole flows of the core against the emulator's handlers (PAR → app → token → ID token)
 *   3. memory held by the in-memory result store per verified identity (portrait included)
 *   4. the store's work for one verification (a pending flow set and taken, a result and its
 *      pointer stored, the result read back), in memory and on Redis (a redis-server the bench
 *      starts on a free port), with the ratio between them
 *   5. whole flows as in 2., with the emulator's state on that Redis
 *
 * `npm run bench` runs it with `--expose-gc` (steadier memory figures) and the `react-server`
 * condition (lib/server modules are marked server-only).
 */
import { performance } from 'node:perf_hooks';
import { createEmulator } from '../lib/emulator';
import { recordFigures } from './bench-figures';
import {
  clientPublicJwks,
  completeAuthorization,
  DEFAULT_SELECTION,
  DiscoveryCache,
  generateClientKeys,
  JwksCache,
  processIdToken,
  startAuthorization,
  type FetchLike,
  type RelyingParty,
} from '../lib/oidc';

const ISSUER = 'https://idv.bench/emulator';
const REDIRECT_URI = 'https://rp.bench/auth/callback';

function figure(label: string, value: string): void {
  console.log(`${label.padEnd(48)} ${value}`);
}

async function setUp(store?: import('../lib/store/store').Store) {
  const keys = await generateClientKeys('ES256');
  const emulator = createEmulator({
    baseUrl: ISSUER,
    clients: [{ clientId: 'bench', jwks: clientPublicJwks(keys), redirectUris: [REDIRECT_URI], populationRegister: true }],
    store,
    // Flows back to back from one "address": the figures are the flows', not the limits'.
    rateLimits: false,
  });
  const fetch: FetchLike = (input, init) => emulator.handle(new Request(input, init));
  const rp: RelyingParty = {
    issuer: ISSUER,
    client: { clientId: 'bench', redirectUri: REDIRECT_URI, ...keys },
    discovery: new DiscoveryCache({ fetch }),
    jwks: new JwksCache({ fetch }),
    http: { fetch },
  };
  return { emulator, rp, fetch };
}

/** The browser's part: open the page, post the quick-test form as a persona. */
async function browse(emulator: ReturnType<typeof createEmulator>, authorizationUrl: string): Promise<URLSearchParams> {
  const html = await (await emulator.handle(new Request(authorizationUrl))).text();
  const form = html.split('<form').find((part) => part.includes('name="persona"')) ?? '';
  const field = (name: string) => new RegExp(`name="${name}"[^>]*value="([^"]+)"`).exec(form)?.[1] ?? '';
  const decision = await emulator.handle(
    new Request(`${ISSUER}/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ interaction: field('interaction'), browser: field('browser'), persona: 'ingrid-haugen', outcome: 'approve' }),
    }),
  );
  return new URL(decision.headers.get('location')!).searchParams;
}

/** Mean ms of `count` whole flows (start, browse, complete), after five untimed ones. */
async function timeFlows(emulator: ReturnType<typeof createEmulator>, rp: RelyingParty, count: number): Promise<number> {
  const flow = async () => {
    const started = await startAuthorization(rp, DEFAULT_SELECTION);
    await completeAuthorization(rp, await browse(emulator, started.authorizationUrl), started.pending);
  };
  for (let i = 0; i < 5; i++) await flow();
  const started = performance.now();
  for (let i = 0; i < count; i++) await flow();
  return (performance.now() - started) / count;
}

async function main(): Promise<void> {
  const figures = recordFigures();
  const { emulator, rp, fetch } = await setUp();
  console.log(`node ${process.version}, ${process.arch}`);

  // 2. whole flows (also warms up and yields a token for 1.)
  const flows = 100;
  let idToken = '';
  let nonce = '';
  const flowStart = performance.now();
  for (let i = 0; i < flows; i++) {
    const started = await startAuthorization(rp, DEFAULT_SELECTION);
    const params = await browse(emulator, started.authorizationUrl);
    if (i === flows - 1) {
      // keep the last token to time its processing alone
      const { requestToken, processTokenResponse } = await import('../lib/oidc');
      const metadata = await rp.discovery.get(ISSUER);
      const token = await processTokenResponse(
        await requestToken(metadata, rp.client, { code: params.get('code')!, codeVerifier: started.pending.codeVerifier }, { fetch }),
      );
      idToken = token.idToken;
      nonce = started.pending.nonce;
    } else {
      await completeAuthorization(rp, params, started.pending);
    }
  }
  const flowMs = (performance.now() - flowStart) / flows;
  figure('whole flow, core + emulator in one process', `${flowMs.toFixed(2)} ms/flow (${(1000 / flowMs).toFixed(0)} flows/s)`);

  // 1. ID token processing
  const rounds = 500;
  const expectations = {
    issuer: ISSUER,
    clientId: 'bench',
    nonce,
    now: Date.now(),
    encryptionKey: rp.client.encryptionKey,
    jwks: rp.jwks,
    jwksUri: `${ISSUER}/jwks`,
  };
  await processIdToken(idToken, expectations);
  const tokenStart = performance.now();
  for (let i = 0; i < rounds; i++) await processIdToken(idToken, expectations);
  const tokenMs = (performance.now() - tokenStart) / rounds;
  figure('processIdToken (decrypt, verify, validate)', `${tokenMs.toFixed(3)} ms/token`);
  figure('ID token size (JWE, portrait included)', `${(idToken.length / 1024).toFixed(1)} KiB`);

  // 3. memory per stored result
  const { MemoryStore } = await import('../lib/store/memory-store');
  const validated = await processIdToken(idToken, expectations);
  const store = new MemoryStore({ budgetBytes: 1024 * 1024 * 1024 });
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const results = 1000;
  for (let i = 0; i < results; i++) await store.set(`r${i}`, structuredClone(validated), 900);
  gc?.();
  const perResult = (process.memoryUsage().heapUsed - before) / results;
  figure(`result store, ${results} results held`, `${(perResult / 1024).toFixed(1)} KiB/result${gc ? '' : ' (no --expose-gc: rough)'}`);

  // 4. the store's share of a verification, memory against Redis
  const { RedisStore } = await import('../lib/store/redis-store');
  const { startRedisServer } = await import('../test/support/redis-server');
  const pendingFlow = {
    browser: 'b'.repeat(43),
    issuer: ISSUER,
    selection: DEFAULT_SELECTION,
    nonce: 'n'.repeat(43),
    codeVerifier: 'v'.repeat(43),
    createdAt: Date.now(),
    trace: [],
  };
  const verification = async (target: import('../lib/store/store').Store, i: number) => {
    await target.set(`flow:${i}`, pendingFlow, 900);
    await target.take(`flow:${i}`);
    await target.set(`result:${i}`, validated, 900);
    await target.set(`browser-result:${i}`, `result:${i}`, 900);
    await target.get(`result:${i}`);
  };
  const timeStore = async (target: import('../lib/store/store').Store) => {
    for (let i = 0; i < 50; i++) await verification(target, i); // warm-up
    const rounds = 1000;
    const started = performance.now();
    for (let i = 0; i < rounds; i++) await verification(target, i);
    return (performance.now() - started) / rounds;
  };
  const memoryMs = await timeStore(new MemoryStore({ budgetBytes: 1024 * 1024 * 1024 }));
  figure('store per verification, in memory', `${memoryMs.toFixed(3)} ms (${(1000 / memoryMs).toFixed(0)} verifications/s)`);
  const redis = await startRedisServer();
  const shared = await RedisStore.connect({ url: redis.url, prefix: 'bench:' });
  try {
    const redisMs = await timeStore(shared);
    figure(
      'store per verification, Redis on loopback',
      `${redisMs.toFixed(3)} ms (${(1000 / redisMs).toFixed(0)} verifications/s), ${(redisMs / memoryMs).toFixed(1)}× memory`,
    );
    figure('  … against a whole flow', `${((redisMs / flowMs) * 100).toFixed(1)} % of one flow's time`);

    // 5. whole flows with the emulator's state on Redis, against the in-memory ones of 2.
    // Measured back to back, both warmed up, so the ratio compares like with like.
    const inMemory = await setUp();
    const memoryFlowMs = await timeFlows(inMemory.emulator, inMemory.rp, 100);
    const onRedis = await setUp(shared);
    const redisFlowMs = await timeFlows(onRedis.emulator, onRedis.rp, 100);
    figure('whole flow, emulator state in memory', `${memoryFlowMs.toFixed(2)} ms/flow (${(1000 / memoryFlowMs).toFixed(0)} flows/s)`);
    figure(
      'whole flow, emulator state on Redis',
      `${redisFlowMs.toFixed(2)} ms/flow (${(1000 / redisFlowMs).toFixed(0)} flows/s), ${(redisFlowMs / memoryFlowMs).toFixed(2)}× memory`,
    );
  } finally {
    await shared.close();
    await redis.close();
  }
  figures.save('bench');
}

await main();
