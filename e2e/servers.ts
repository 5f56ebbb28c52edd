/**
 * The servers playwright.config.ts starts for the suite, and where they listen: each on a free
 * port chosen when the run starts (test/support/free-ports.mjs), so the suite runs beside
 * anything else on the machine. Host names differ where cookies must not be shared (cookies are
 * scoped by host, not port). The ports travel to the workers in E2E_PORTS, which they inherit
 * from the runner (each worker evaluates this module again).
 *
 * The app in emulator mode, which most specs use, runs once per worker, and each worker uses its
 * own (EMULATOR_APP): a Node server answers one request at a time, so workers sharing one would
 * wait for each other; and what a spec arms on its emulator's QA panel (a one-shot fault, a key
 * rotation) reaches only the flows of the specs its worker runs, one after another.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** How many specs run at once (each in a worker of its own): this machine has two cores. */
export const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);

const HOSTS = {
  /** a copy in emulator mode with EMULATOR_STRICT=on: the provider of the provider-mode apps and of the examples */
  strictEmulator: '127.0.0.4',
  /** a copy in provider mode */
  providerApp: '127.0.0.1',
  /** two instances in emulator mode on one Redis, behind a balancer */
  clusterRedis: '127.0.0.1',
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
type Ports = Record<Server, number> & { emulatorApps: number[] };

function choosePorts(): Ports {
  const names = Object.keys(HOSTS) as Server[];
  const script = join(import.meta.dirname, '..', 'test', 'support', 'free-ports.mjs');
  const hosts = [...names.map((name) => HOSTS[name]), ...Array.from({ length: WORKERS }, () => '127.0.0.1')];
  const ports = JSON.parse(execFileSync(process.execPath, [script, ...hosts], { encoding: 'utf8' })) as number[];
  return { ...(Object.fromEntries(names.map((name, index) => [name, ports[index]!])) as Record<Server, number>), emulatorApps: ports.slice(names.length) };
}

process.env.E2E_PORTS ??= JSON.stringify(choosePorts());
export const PORTS = JSON.parse(process.env.E2E_PORTS) as Ports;

const url = (server: Server, host: string = HOSTS[server]) => `http://${host}:${PORTS[server]}`;

/**
 * The apps in emulator mode, one per worker, their embedded emulators lenient (`localhost`: the
 * host name the demo is opened with).
 */
export const EMULATOR_APPS = PORTS.emulatorApps.map((port) => `http://localhost:${port}`);
/** Where each of them keeps its generated keys and secret (IDV_DATA_DIR). */
export const EMULATOR_DATA_DIRS = EMULATOR_APPS.map((_app, index) => `.data/e2e-emulator-${index}`);
/** This worker's (Playwright numbers the workers running at once from 0). */
const worker = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % EMULATOR_APPS.length;
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
