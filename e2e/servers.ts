/**
 * The servers of the suite, and where they listen: each on a free port chosen when the run starts
 * (test/support/free-ports.mjs), so the suite runs beside anything else on the machine. Host
 * names differ where cookies must not be shared (cookies are scoped by host, not port). The ports
 * travel to the workers in E2E_PORTS, which they inherit from the runner (each worker evaluates
 * this module again).
 *
 * The app in emulator mode, which most specs use, runs once per worker, started by
 * playwright.config.ts, and each worker uses its own (EMULATOR_APP): a Node server answers one
 * request at a time, so workers sharing one would wait for each other; and what a spec arms on
 * its emulator's QA panel (a one-shot fault, a key rotation) reaches only the flows of the specs
 * its worker runs, one after another. Every other server is started by the first spec of a
 * worker that asks for it (`needServers`), on that worker's ports, and stops with the worker: a
 * spec starts only the servers it uses.
 */
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { test } from '@playwright/test';
import { startAppServer, startBalancer, type AppServer } from '../test/support/app-server';
import { startRedisServer } from '../test/support/redis-server';

/**
 * How many specs run at once (each in a worker of its own): one per core and two more, as the
 * conformance kit's runs spend minutes waiting out the relying party's JWKS cool-downs (a minute
 * each for openid-client's), and the graceful-stop and Redis-restart specs wait on servers. On
 * the 2-core machine CI runs on, 3 workers took the suite from 8.8 to 7.1 minutes, and 4 from
 * 6.6 to 6.0 (fresh clones, the whole of .ci/run from 627 s to 569 s).
 */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? availableParallelism() + 2) || 1);

const HOSTS = {
  /** a copy in emulator mode with EMULATOR_STRICT=on: the provider of the provider-mode apps and of the examples */
  strictEmulator: '127.0.0.4',
  /** a copy in provider mode */
  providerApp: '127.0.0.1',
  /** two instances in emulator mode on one Redis, behind a balancer */
  clusterOne: '127.0.0.1',
  clusterTwo: '127.0.0.1',
  cluster: '127.0.0.2',
  /** two instances in provider mode on the same Redis, behind a balancer */
  providerClusterOne: '127.0.0.1',
  providerClusterTwo: '127.0.0.1',
  providerCluster: '127.0.0.3',
  /** the examples of examples/ (e2e/examples.spec.ts), registered with the strict emulator */
  exampleOne: '127.0.0.1',
  exampleTwo: '127.0.0.1',
  /** examples/openid-client/, registered with the strict emulator as a client of its own */
  exampleOpenidClient: '127.0.0.1',
  /** test/support/broken-relying-party.ts, registered with the strict emulator as `broken-nonce-rp` */
  brokenRelyingParty: '127.0.0.1',
} as const;

type Server = keyof typeof HOSTS;
/** For each server, its port in each worker; and each worker's app in emulator mode. */
type Ports = Record<Server, number[]> & { emulatorApps: number[] };

function choosePorts(): Ports {
  const names = Object.keys(HOSTS) as Server[];
  const script = join(import.meta.dirname, '..', 'test', 'support', 'free-ports.mjs');
  const hosts = [...names.flatMap((name) => Array.from({ length: WORKERS }, () => HOSTS[name])), ...Array.from({ length: WORKERS }, () => '127.0.0.1')];
  const ports = JSON.parse(execFileSync(process.execPath, [script, ...hosts], { encoding: 'utf8' })) as number[];
  return {
    ...(Object.fromEntries(names.map((name, index) => [name, ports.slice(index * WORKERS, (index + 1) * WORKERS)])) as Record<Server, number[]>),
    emulatorApps: ports.slice(names.length * WORKERS),
  };
}

process.env.E2E_PORTS ??= JSON.stringify(choosePorts());
export const PORTS = JSON.parse(process.env.E2E_PORTS) as Ports;

/**
 * The apps in emulator mode, one per worker, their embedded emulators lenient (`localhost`: the
 * host name the demo is opened with).
 */
export const EMULATOR_APPS = PORTS.emulatorApps.map((port) => `http://localhost:${port}`);
/** Where each of them keeps its generated keys and secret (IDV_DATA_DIR). */
export const EMULATOR_DATA_DIRS = EMULATOR_APPS.map((_app, index) => `.data/e2e-emulator-${index}`);
/** This worker's (Playwright numbers the workers running at once from 0). */
const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % EMULATOR_APPS.length;
const port = (server: Server) => PORTS[server][worker]!;
const url = (server: Server) => `http://${HOSTS[server]}:${port(server)}`;
/** This worker's app in emulator mode. */
export const EMULATOR_APP = EMULATOR_APPS[worker]!;
export const EMULATOR_DATA_DIR = EMULATOR_DATA_DIRS[worker]!;
export const STRICT_EMULATOR_APP = url('strictEmulator');
export const PROVIDER_APP = url('providerApp');
export const CLUSTER_APP = url('cluster');
export const CLUSTER_INSTANCES = [url('clusterOne'), url('clusterTwo')] as const;
export const PROVIDER_CLUSTER_APP = url('providerCluster');
export const PROVIDER_CLUSTER_INSTANCES = [url('providerClusterOne'), url('providerClusterTwo')] as const;
export const EXAMPLE_APPS = [url('exampleOne'), url('exampleTwo')] as const;
export const OPENID_CLIENT_EXAMPLE_APP = url('exampleOpenidClient');
export const BROKEN_RELYING_PARTY_APP = url('brokenRelyingParty');

/**
 * A client's key pair made for this run only: its private keys and their public JWKS. The signing
 * key is ES256 (P-256), or EdDSA (Ed25519), the third algorithm of spec 5.2.
 */
export function clientKeys(signingAlgorithm: 'ES256' | 'EdDSA' = 'ES256', kidPrefix = 'second-rp') {
  const signing = signingAlgorithm === 'EdDSA' ? generateKeyPairSync('ed25519') : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const encryption = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingJwk = { ...signing.privateKey.export({ format: 'jwk' }), kid: `${kidPrefix}-sig`, alg: signingAlgorithm, use: 'sig' };
  const encryptionJwk = { ...encryption.privateKey.export({ format: 'jwk' }), kid: `${kidPrefix}-enc`, alg: 'RSA-OAEP-256', use: 'enc' };
  const publicOf = (jwk: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(jwk).filter(([member]) => !['d', 'p', 'q', 'dp', 'dq', 'qi'].includes(member)));
  return { signingJwk, encryptionJwk, publicJwks: { keys: [publicOf(signingJwk), publicOf(encryptionJwk)] } };
}
type ClientKeys = ReturnType<typeof clientKeys>;

/** Keys playwright.config.ts hands to the workers in the environment (E2E_…_CLIENT_KEYS). */
const handedOver = (variable: string): ClientKeys => JSON.parse(process.env[variable]!) as ClientKeys;

/** Waits until `url` answers 200, or the server exits. */
async function ready(server: AppServer, url: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (!server.running()) throw new Error(`the server for ${url} exited:\n${server.output()}`);
    const status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 60 s:\n${server.output()}`);
}

async function startApp(server: Server, env: Record<string, string>, readyPath: string): Promise<void> {
  const app = startAppServer(port(server), { HOST: HOSTS[server], ...env });
  await ready(app, `${url(server)}${readyPath}`);
}

/** The provider-mode app's client (second-rp) and the provider-mode pair's (cluster-provider-rp), registered with the strict emulator. */
const once = <T>(make: () => T): (() => T) => {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
};
const providerKeys = once(() => clientKeys());
const providerClusterKeys = once(() => clientKeys('ES256', 'cluster-provider-rp'));

const STARTS = {
  /** a copy in emulator mode with EMULATOR_STRICT=on, with every client of the provider-mode apps and the examples registered */
  strictEmulator: () =>
    startApp(
      'strictEmulator',
      {
        APP_URL: STRICT_EMULATOR_APP,
        SESSION_SECRET: randomBytes(32).toString('base64url'),
        IDV_DATA_DIR: `.data/e2e-strict-emulator-${worker}`,
        EMULATOR_STRICT: 'on',
        EMULATOR_DEVICE_URL: STRICT_EMULATOR_APP,
        EMULATOR_PANEL_PASSWORD: process.env.E2E_PANEL_PASSWORD!,
        EMULATOR_CLIENTS: JSON.stringify([
          {
            client_id: 'second-rp',
            name: 'Second app (provider-mode test)',
            jwks: providerKeys().publicJwks,
            redirect_uris: [`${PROVIDER_APP}/auth/callback`],
            population_register: false,
          },
          {
            client_id: 'example-rp',
            name: 'The examples in examples/',
            jwks: handedOver('E2E_EXAMPLE_CLIENT_KEYS').publicJwks,
            redirect_uris: EXAMPLE_APPS.map((app) => `${app}/callback`),
            population_register: false,
          },
          {
            client_id: 'openid-client-rp',
            name: 'The example built on openid-client',
            jwks: handedOver('E2E_OPENID_CLIENT_KEYS').publicJwks,
            redirect_uris: [`${OPENID_CLIENT_EXAMPLE_APP}/callback`],
            population_register: false,
          },
          {
            client_id: 'broken-nonce-rp',
            name: 'A relying party that skips the nonce check, on purpose',
            jwks: handedOver('E2E_BROKEN_RP_CLIENT_KEYS').publicJwks,
            redirect_uris: [`${BROKEN_RELYING_PARTY_APP}/callback`],
            population_register: false,
          },
          {
            client_id: 'cluster-provider-rp',
            name: 'Two instances in provider mode',
            jwks: providerClusterKeys().publicJwks,
            redirect_uris: [`${PROVIDER_CLUSTER_APP}/auth/callback`],
            population_register: false,
          },
        ]),
      },
      '/emulator/.well-known/openid-configuration',
    ),
  /** a copy in provider mode, configured only by IDV_* variables, with the strict emulator as its provider */
  providerApp: async () => {
    await started('strictEmulator');
    await startApp(
      'providerApp',
      {
        APP_URL: PROVIDER_APP,
        // The provider-mode tests start their verifications from one address, faster than a person would.
        IDV_START_LIMIT_PER_ADDRESS: '1000',
        IDV_DATA_DIR: `.data/e2e-provider-${worker}`,
        IDV_BASE_URL: `${STRICT_EMULATOR_APP}/emulator`,
        IDV_CLIENT_ID: 'second-rp',
        IDV_SIGNING_KEY: JSON.stringify(providerKeys().signingJwk),
        IDV_ENCRYPTION_KEY: JSON.stringify(providerKeys().encryptionJwk),
        SESSION_SECRET: randomBytes(32).toString('base64url'),
      },
      '/',
    );
  },
  /**
   * Two instances in emulator mode sharing one redis-server behind a round-robin balancer on
   * 127.0.0.2, which is their APP_URL; and two in provider mode on the same Redis (their own
   * prefix) behind a balancer on 127.0.0.3, with the strict emulator as their provider.
   */
  clusters: async () => {
    const [redis] = await Promise.all([startRedisServer(), started('strictEmulator')]);
    const instance = (server: Server, env: Record<string, string>) =>
      startApp(server, { IDV_DATA_DIR: `.data/e2e-cluster-${port(server)}`, REDIS_URL: redis.url, IDV_START_LIMIT_PER_ADDRESS: '1000', ...env }, '/healthz');
    const cluster = clientKeys('ES256', 'cluster');
    const emulatorMode = {
      APP_URL: CLUSTER_APP,
      EMULATOR_DEVICE_URL: CLUSTER_APP,
      EMULATOR_PANEL_PASSWORD: process.env.E2E_PANEL_PASSWORD!,
      IDV_REDIS_PREFIX: 'e2e-cluster:',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      IDV_SIGNING_KEY: JSON.stringify(cluster.signingJwk),
      IDV_ENCRYPTION_KEY: JSON.stringify(cluster.encryptionJwk),
    };
    const providerMode = {
      APP_URL: PROVIDER_CLUSTER_APP,
      IDV_REDIS_PREFIX: 'e2e-provider-cluster:',
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      IDV_BASE_URL: `${STRICT_EMULATOR_APP}/emulator`,
      IDV_CLIENT_ID: 'cluster-provider-rp',
      IDV_SIGNING_KEY: JSON.stringify(providerClusterKeys().signingJwk),
      IDV_ENCRYPTION_KEY: JSON.stringify(providerClusterKeys().encryptionJwk),
    };
    await Promise.all([
      instance('clusterOne', emulatorMode),
      instance('clusterTwo', emulatorMode),
      instance('providerClusterOne', providerMode),
      instance('providerClusterTwo', providerMode),
    ]);
    await startBalancer(HOSTS.cluster, port('cluster'), [port('clusterOne'), port('clusterTwo')]);
    await startBalancer(HOSTS.providerCluster, port('providerCluster'), [port('providerClusterOne'), port('providerClusterTwo')]);
  },
};
type OnDemand = keyof typeof STARTS;

/** What this worker has started (or is starting), by name. */
const starting = new Map<OnDemand, Promise<void>>();
function started(name: OnDemand): Promise<void> {
  if (!starting.has(name)) starting.set(name, STARTS[name]());
  return starting.get(name)!;
}

/**
 * The servers this spec uses beyond its worker's app in emulator mode, started before its first
 * test unless this worker has them already: `strictEmulator`, `providerApp` (with its provider,
 * the strict emulator), `clusters` (both pairs, with the strict emulator).
 */
export function needServers(...names: OnDemand[]): void {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    await Promise.all(names.map(started));
  });
}
