/**
 * `npm run test:container`: builds the Dockerfile's image with Docker or Podman, whichever this
 * machine has, and tries it as an operator would; then runs compose.yaml (two instances, Redis,
 * nginx) with `docker compose` or `podman-compose`. One line a check, ✓ or ✗; exit code 1 on the
 * first failure, with the containers' last log lines and the full log's path.
 *
 * The image: /healthz and /readyz answer; a whole verification completes over HTTP; it runs as
 * a user other than root that can write /data and none of the app's or the system's files; the
 * image's HEALTHCHECK command passes, also with HOST set to a non-loopback address (where the
 * server then listens alone); SIGTERM stops it by itself (Next.js's graceful exit, 143); without
 * SESSION_SECRET it stops at once and says why.
 * The conformance kit's image (`--target conformance`): it runs as `node`, its entrypoint the kit;
 * every case against a relying party on the host (examples/express-server.ts), all passing, the
 * reports in a mounted folder, the invoking user's; a relying party that skips the nonce check
 * fails `wrong_nonce` (exit code 1); an unreachable start URL stops it at once, saying so (2).
 * compose.yaml: all four containers up, /readyz through the balancer from both instances; pages
 * compressed once, by nginx (the instances run with IDV_COMPRESS=0); a verification through the balancer served by both; one instance stopped in the middle of the
 * next verification, which completes on the other, and so does a new one.
 *
 * Everything listens on 127.0.0.1, on free ports. Containers, networks, the relying parties
 * started on the host and the two images are removed at the end (and on Ctrl-C or SIGTERM); the
 * base images stay under their tags (base-images.ts).
 *
 * Environment: CONTAINER_ENGINE (docker|podman), NODE_IMAGE, REDIS_IMAGE, NGINX_IMAGE,
 * DEBIAN_MIRROR; NODE_EXTRA_CA_CERTS, the CA bundle npm trusts in the build (default: the
 * machine's /etc/ssl/certs/ca-certificates.crt), passed as a build secret.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  appendFileSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CASES } from '../../conformance/cases';
import { clientKeys } from '../../test/support/client-keys';
import { baseImages } from './base-images';
import { exec, findEngine, firstLine, fitPodman, lastLine, SetupError, stopRunning, type Engine, type Result } from './engine';
import { verify, waitFor } from './verification';

const ROOT = resolve(import.meta.dirname, '../..');
const ID = `idvtest${process.pid}`;
const IMAGE = `localhost/idv-relying-party:${ID}`;
const KIT_IMAGE = `localhost/idv-conformance:${ID}`;
const work = mkdtempSync(join(tmpdir(), 'idv-container-'));
const log = join(tmpdir(), `idv-test-container-${process.pid}.log`);
writeFileSync(log, '');
const began = Date.now();

class CheckFailed extends Error {}

/** Set on Ctrl-C or SIGTERM: the checks that then fail say nothing. */
let interrupted = false;

const seconds = (since: number) => {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 90 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

/** Containers whose last log lines a failure shows. */
let watched: string[] = [];

async function check(title: string, run: () => Promise<string | void>): Promise<void> {
  const started = Date.now();
  try {
    const detail = await run();
    console.log(`✓ ${title}${detail ? `: ${detail}` : ''} (${seconds(started)})`);
  } catch (error) {
    if (!interrupted) console.log(`✗ ${title}: ${(error as Error).message}`);
    throw new CheckFailed();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

function engineCommand(engine: Engine) {
  const run = (args: string[], timeoutMs = 120_000, cwd?: string): Promise<Result> => exec([engine.name, ...args], { env: engine.env, log, timeoutMs, cwd });
  const must = async (args: string[], timeoutMs?: number): Promise<string> => {
    const result = await run(args, timeoutMs);
    if (result.code !== 0) throw new Error(`${engine.name} ${args[0]} failed: ${firstLine(result)}`);
    return result.stdout.trim();
  };
  return { run, must };
}

async function main(): Promise<void> {
  let engine: Engine;
  try {
    engine = findEngine(log);
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    console.log(`✗ ${error.message}`);
    rmSync(work, { recursive: true, force: true });
    rmSync(log, { force: true });
    process.exit(1);
  }
  const { run } = engineCommand(engine);
  console.log(`container test: ${engine.version}, ${engine.composeVersion} (log: ${log})`);
  const created: Created = { containers: [], compose: undefined, composeDir: '', danglingBefore: undefined, buildersBefore: undefined, relyingParties: [] };

  const cleanUp = async () => {
    if (created.compose) {
      await exec([...created.compose, 'down', '-t', '10'], { env: engine.env, log, cwd: created.composeDir, timeoutMs: 120_000 });
      // podman-compose 1.0 leaves the project's network behind.
      if (engine.name === 'podman') await run(['network', 'rm', '-f', `${ID}_default`]);
    }
    for (const container of created.containers) await run(['rm', '-f', container]);
    for (const relyingParty of created.relyingParties) await relyingParty.stop();
    // An interrupted Podman build leaves its working containers ("<image>-working-container").
    if (created.buildersBefore) {
      const builders = (await run(['ps', '-a', '--external', '--format', '{{.ID}} {{.Names}}'])).stdout.split('\n');
      for (const line of builders) {
        const [id, names] = line.split(' ');
        if (id && !created.buildersBefore.has(id) && /-working-container(-\d+)?$/.test(names ?? '')) await run(['rm', '-f', id]);
      }
    }
    await run(['rmi', '-f', IMAGE, KIT_IMAGE]);
    // The build's intermediate images (Podman keeps each stage's), none of them there before.
    if (created.danglingBefore) {
      const before = created.danglingBefore;
      const dangling = (await run(['images', '-q', '--filter', 'dangling=true'])).stdout.split('\n').filter((image) => image && !before.has(image));
      if (dangling.length > 0) await run(['rmi', '-f', ...new Set(dangling)]);
    }
    rmSync(work, { recursive: true, force: true });
  };
  let cleaning: Promise<void> | undefined;
  const cleanUpOnce = () => (cleaning ??= cleanUp());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      interrupted = true;
      console.log(`\n${signal}: stopping and cleaning up (the log: ${log})`);
      stopRunning();
      void cleanUpOnce().then(() => process.exit(130));
    });
  }

  let passed = false;
  try {
    const base = await baseImages(engine, work);
    await fitPodman(engine, base.node, work);
    console.log(`✓ base images: ${base.notes.join('; ')}`);
    if (engine.fitted) console.log(`  podman here: ${engine.fitted}`);

    await single(engine, base.node, created);
    await conformanceKit(engine, base.node, created);
    await compose(engine, base, created);
    passed = true;
  } catch (error) {
    if (interrupted) return;
    if (error instanceof SetupError) console.log(`✗ ${error.message}`);
    else if (!(error instanceof CheckFailed)) console.log(`✗ ${(error as Error).stack ?? error}`);
    for (const container of watched) {
      const logs = await run(['logs', '--tail', '15', container]);
      if (logs.code === 0) console.log(`--- last lines of ${container} ---\n${`${logs.stdout}${logs.stderr}`.trim()}`);
    }
  } finally {
    await cleanUpOnce();
  }
  if (!passed) {
    console.log(`FAILED after ${seconds(began)}; the whole log: ${log}`);
    process.exit(1);
  }
  rmSync(log, { force: true });
  console.log(`container test passed in ${seconds(began)}`);
}

/** What this run made, for cleaning up. */
interface Created {
  containers: string[];
  compose: string[] | undefined;
  composeDir: string;
  /** the untagged images there before the build */
  danglingBefore: Set<string> | undefined;
  /** Podman: the build containers there before the build */
  buildersBefore: Set<string> | undefined;
  /** what runs on the host: the relying parties the kit's image is tried against */
  relyingParties: HostProcess[];
}

/** The CA bundle npm trusts in a build, passed as a build secret (never written into a layer). */
const bundle = process.env.NODE_EXTRA_CA_CERTS ?? (existsSync('/etc/ssl/certs/ca-certificates.crt') ? '/etc/ssl/certs/ca-certificates.crt' : undefined);

/** Builds the Dockerfile's `target` (its last stage, the app, when none) as `image`. */
async function buildImage(engine: Engine, image: string, nodeImage: string, target?: string): Promise<string> {
  const { run, must } = engineCommand(engine);
  const build = await run(
    [
      'build',
      ...(target ? ['--target', target] : []),
      '-t',
      image,
      '--build-arg',
      `NODE_IMAGE=${nodeImage}`,
      // OCI images have no HEALTHCHECK: Podman keeps it only in Docker's format.
      ...(engine.name === 'podman' ? ['--format', 'docker'] : []),
      ...(bundle ? ['--secret', `id=ca-certificates,src=${bundle}`] : []),
      ROOT,
    ],
    30 * 60_000,
  );
  if (build.code !== 0) throw new Error(`${lastLine(build)} (the build's output is in the log)`);
  const size = Number(await must(['image', 'inspect', image, '--format', '{{.Size}}']));
  return `${image} from ${nodeImage}, ${Math.round(size / 1e6)} MB${bundle ? `; npm trusted ${bundle} too, as a build secret` : ''}`;
}

/** The image alone, as `docker run` runs it. */
async function single(engine: Engine, nodeImage: string, created: Created): Promise<void> {
  const { run, must } = engineCommand(engine);
  created.danglingBefore = new Set((await run(['images', '-q', '--filter', 'dangling=true'])).stdout.split('\n').filter(Boolean));
  if (engine.name === 'podman') {
    created.buildersBefore = new Set((await run(['ps', '-a', '--external', '--format', '{{.ID}}'])).stdout.split('\n').filter(Boolean));
  }
  // No --target: the app is the Dockerfile's last stage, what a plain `docker build .` makes.
  await check('image built', () => buildImage(engine, IMAGE, nodeImage));

  const secret = randomBytes(32).toString('base64url');
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const name = `${ID}-app`;
  created.containers.push(name);
  watched = [name];
  // One port, inside and out: in emulator mode the app calls its own emulator at APP_URL
  // (http://localhost:PORT by default), and the browser uses the same URL.
  await must(['run', '-d', '--name', name, '-p', `127.0.0.1:${port}:${port}`, '-e', `PORT=${port}`, '-e', `SESSION_SECRET=${secret}`, IMAGE]);

  await check('GET /healthz and /readyz answer', async () => {
    const ready = (await (await waitFor(`${app}/readyz`, 90_000)).json()) as { status: string; store: string; mode: string };
    const alive = (await (await waitFor(`${app}/healthz`, 5_000)).json()) as { status: string };
    return `${alive.status}; ${ready.status} (${ready.mode} mode, store in ${ready.store})`;
  });

  await check('a whole verification over HTTP', async () => {
    const verification = await verify(app);
    return `home, start, the emulator's authorization page, the decision, the callback, the result: ${verification.person}`;
  });

  await check('runs as an unprivileged user that can write /data and nothing of the app or the system', async () => {
    const user = await must(['exec', name, 'sh', '-c', 'echo "$(id -un) $(id -u)"']);
    if (user.endsWith(' 0')) throw new Error(`it runs as root (${user})`);
    const writes = await must([
      'exec',
      name,
      'node',
      '-e',
      `const fs = require('node:fs');
       for (const file of ['/data/.write-probe', '/app/.next/standalone/server.js', '/app/scripts/start.mjs', '/usr/local/bin/node', '/etc/passwd', '/write-probe']) {
         try { fs.appendFileSync(file, ''); console.log(file + ' writable'); } catch (error) { console.log(file + ' ' + error.code); }
       }`,
    ]);
    if (!/^\/data\/\.write-probe writable$/m.test(writes)) throw new Error(`cannot write /data: ${writes}`);
    const wrongly = writes.split('\n').filter((line) => line.endsWith(' writable') && !line.startsWith('/data/'));
    if (wrongly.length > 0) throw new Error(`it can write ${wrongly.join(', ')}`);
    // Every folder of the image it may write: the data folder and the scratch folders any Debian
    // image has (world-writable temp folders, its home).
    const folders = (await must(['exec', name, 'sh', '-c', 'find / -xdev -type d -writable 2>/dev/null | sort'])).split('\n').filter(Boolean);
    const scratch = ['/tmp', '/var/tmp', '/run/lock', '/dev/shm', `/home/${user.split(' ')[0]}`];
    const unexpected = folders.filter(
      (folder) => folder !== '/data' && !folder.startsWith('/data/') && !scratch.some((allowed) => folder === allowed || folder.startsWith(`${allowed}/`)),
    );
    if (unexpected.length > 0) throw new Error(`it can write ${unexpected.slice(0, 5).join(', ')}`);
    return `${user.replace(' ', ', uid ')}; the app's files, node and /etc are read-only; writable folders: ${folders.filter((folder) => !folder.startsWith('/data/')).join(', ')}`;
  });

  await check("the image's health check passes", async () => {
    const command = await healthcheck(engine, name);
    if (engine.name === 'podman') {
      const podman = await run(['healthcheck', 'run', name]);
      if (podman.code !== 0) throw new Error(`podman healthcheck run: ${firstLine(podman)}`);
    }
    return `${command}${engine.name === 'podman' ? ' (and podman healthcheck run)' : ''}`;
  });

  await check('HOST is where it listens and where the health check asks', async () => {
    const hostName = `${ID}-host`;
    const hostPort = await freePort();
    created.containers.push(hostName);
    watched = [name, hostName];
    // The container's own name resolves to its network address (not loopback).
    await must([
      'run',
      '-d',
      '--name',
      hostName,
      '--hostname',
      'idv-test-host',
      '-e',
      'HOST=idv-test-host',
      '-p',
      `127.0.0.1:${hostPort}:${hostPort}`,
      '-e',
      `PORT=${hostPort}`,
      '-e',
      `SESSION_SECRET=${secret}`,
      IMAGE,
    ]);
    await waitFor(`http://127.0.0.1:${hostPort}/healthz`, 90_000);
    await healthcheck(engine, hostName);
    const loopback = await run([
      'exec',
      hostName,
      'node',
      '-e',
      `fetch('http://127.0.0.1:${hostPort}/healthz').then(() => console.log('answered'), (error) => console.log(error.cause?.code ?? error.message))`,
    ]);
    if (loopback.stdout.trim() !== 'ECONNREFUSED')
      throw new Error(`with HOST=idv-test-host, 127.0.0.1 inside the container says ${loopback.stdout.trim() || firstLine(loopback)}, not ECONNREFUSED`);
    await run(['rm', '-f', hostName]);
    watched = [name];
    return "HOST=idv-test-host (the container's address): /healthz answers through the published port, the health check passes, 127.0.0.1 is refused";
  });

  await check('SIGTERM stops it gracefully', async () => {
    const started = Date.now();
    await must(['stop', '-t', '30', name], 60_000);
    const took = (Date.now() - started) / 1000;
    const code = await must(['inspect', name, '--format', '{{.State.ExitCode}}']);
    const logs = await run(['logs', name]);
    if (code !== '143') throw new Error(`exit code ${code}, not 143 (Next.js's own exit after closing its server; 137 would mean killed after the timeout)`);
    if (!`${logs.stdout}${logs.stderr}`.includes('[idv] SIGTERM: finishing the requests in flight'))
      throw new Error('the log does not say it finished the requests in flight');
    return `"[idv] SIGTERM: finishing the requests in flight…", exit code 143 after ${took.toFixed(1)} s (of a 30 s timeout)`;
  });

  await check('without SESSION_SECRET it stops at once, saying why', async () => {
    const noSecret = `${ID}-nosecret`;
    created.containers.push(noSecret);
    const result = await run(['run', '--name', noSecret, IMAGE], 90_000);
    const said = `${result.stdout}${result.stderr}`.split('\n').find((line) => line.includes('configuration error'));
    if (result.code !== 1 || !/SESSION_SECRET:? is required/.test(said ?? ''))
      throw new Error(`exit code ${result.code}; it said: ${said ?? firstLine(result)}`);
    return `exit code 1, "${said!.trim().slice(0, 80)}…"`;
  });
}

/** Runs the image's own HEALTHCHECK command in the container; returns it. */
async function healthcheck(engine: Engine, container: string): Promise<string> {
  const { run, must } = engineCommand(engine);
  const configured = JSON.parse(await must(['image', 'inspect', IMAGE, '--format', '{{json .Config.Healthcheck}}'])) as { Test?: string[] } | null;
  const [kind, ...command] = configured?.Test ?? [];
  if (kind !== 'CMD' && kind !== 'CMD-SHELL')
    throw new Error(`the image has no HEALTHCHECK${engine.name === 'podman' ? ' (podman keeps it only with --format docker)' : ''}`);
  const argv = kind === 'CMD' ? command : ['sh', '-c', command.join(' ')];
  const result = await run(['exec', container, ...argv], 30_000);
  if (result.code !== 0) throw new Error(`${argv.join(' ')}: exit code ${result.code}: ${firstLine(result)}`);
  return argv.join(' ');
}

/** A relying party running on the host, outside any container. */
interface HostProcess {
  /** its last output, for a failure's message */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts one of this repository's relying parties (`node --import tsx <script>`) on the host, at
 * http://127.0.0.1:<port>, its issuer the kit's emulator at `emulatorPort` (not listening yet:
 * these fetch the discovery document on the first verification, not at start-up), and waits
 * until its start page answers.
 */
async function startHostRelyingParty(script: string, clientId: string, port: number, emulatorPort: number, created: Created): Promise<HostProcess> {
  const keys = clientKeys(clientId);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      IDV_BASE_URL: `http://127.0.0.1:${emulatorPort}`,
      IDV_CLIENT_ID: clientId,
      IDV_SIGNING_KEY: JSON.stringify(keys.signing),
      IDV_ENCRYPTION_KEY: JSON.stringify(keys.encryption),
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      PORT: String(port),
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-2000);
    appendFileSync(log, chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const started: HostProcess = {
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  created.relyingParties.push(started);
  // The public JWKS the kit registers for it (`--client-jwks`).
  writeFileSync(join(work, `${clientId}.jwks.json`), JSON.stringify(keys.jwks));
  try {
    await waitFor(`http://127.0.0.1:${port}/`, 60_000);
  } catch (error) {
    throw new Error(`${script} did not start: ${(error as Error).message}; it said: ${output.trim() || 'nothing'}`);
  }
  return started;
}

/** The first eight bytes of every PNG file (https://www.w3.org/TR/png-3/#5PNG-file-signature). */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The last lines of what a run of the kit printed, for a failure's message. */
const tail = (result: Result, lines = 8) => `${result.stdout}${result.stderr}`.trim().split('\n').slice(-lines).join('\n');

/**
 * The conformance kit's image, as conformance/CI.md runs it: on the host's network, against a
 * relying party on the host, the client's public JWKS and the reports folder mounted.
 */
async function conformanceKit(engine: Engine, nodeImage: string, created: Created): Promise<void> {
  const { run, must } = engineCommand(engine);
  watched = [];
  await check('conformance image built (--target conformance)', async () => {
    const built = await buildImage(engine, KIT_IMAGE, nodeImage, 'conformance');
    const user = await must(['image', 'inspect', KIT_IMAGE, '--format', '{{.Config.User}}']);
    if (user !== 'node') throw new Error(`it runs as '${user || 'root'}', not node`);
    const entrypoint = JSON.parse(await must(['image', 'inspect', KIT_IMAGE, '--format', '{{json .Config.Entrypoint}}'])) as string[];
    if (entrypoint.join(' ') !== 'node --import tsx conformance/cli.ts --out /report') throw new Error(`its entrypoint is ${entrypoint.join(' ')}`);
    const chromium = await must(['run', '--rm', '--entrypoint', 'chromium-headless-shell', KIT_IMAGE, '--version']);
    return `${built}; runs as node, entrypoint \`${entrypoint.join(' ')}\`; ${chromium}`;
  });

  // The invoking user's own uid inside the container, so the reports are theirs: --user where the
  // engine runs as root; rootless Podman maps a container's uids elsewhere unless told keep-id.
  const uid = process.getuid!();
  const gid = process.getgid!();
  const asInvoker = engine.name === 'podman' && uid !== 0 ? ['--userns', 'keep-id', '--user', `${uid}:${gid}`] : ['--user', `${uid}:${gid}`];
  const kit = (name: string, options: string[], args: string[]) => {
    created.containers.push(name);
    return run(['run', '--name', name, '--network', 'host', ...options, KIT_IMAGE, ...args], 15 * 60_000);
  };
  const jwksFile = (clientId: string) => join(work, `${clientId}.jwks.json`);
  /** `jwks`: the path of the JWKS in the container, or the JWKS itself (the kit takes either) */
  const clientArgs = (clientId: string, jwks: string, rpPort: number, emulatorPort: number) => [
    '--client-id',
    clientId,
    '--client-jwks',
    jwks,
    '--redirect-uri',
    `http://127.0.0.1:${rpPort}/callback`,
    '--start-url',
    `http://127.0.0.1:${rpPort}/`,
    '--emulator-port',
    String(emulatorPort),
  ];

  await check(
    `the kit in its image runs all ${CASES.length} cases against a relying party on the host; they pass, reported in the mounted folder, the invoking user's`,
    async () => {
      const [rpPort, emulatorPort] = [await freePort(), await freePort()];
      const clientId = 'container-example-rp';
      const relyingParty = await startHostRelyingParty('examples/express-server.ts', clientId, rpPort, emulatorPort, created);
      const reports = join(work, 'conformance-report');
      mkdirSync(reports);
      const started = Date.now();
      const result = await kit(
        `${ID}-kit`,
        ['--rm', ...asInvoker, '-v', `${jwksFile(clientId)}:/input/jwks.json:ro`, '-v', `${reports}:/report`],
        [...clientArgs(clientId, '/input/jwks.json', rpPort, emulatorPort), '--jwks-cooldown', '30'],
      );
      const took = seconds(started);
      await relyingParty.stop();
      if (result.code !== 0)
        throw new Error(`exit code ${result.code}, not 0:\n${tail(result)}\nthe relying party said: ${relyingParty.output().trim().slice(-400)}`);
      const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
      const counts = `tests="${CASES.length}" failures="0" errors="0"`;
      if (!new RegExp(`<testsuites [^>]*${counts}`).test(junit))
        throw new Error(`junit.xml does not say ${counts}: ${/<testsuites [^>]*>/.exec(junit)?.[0] ?? junit.slice(0, 200)}`);
      if (!readFileSync(join(reports, 'index.html'), 'utf8').startsWith('<!')) throw new Error('index.html is not an HTML page');
      const isPng = (file: string) => existsSync(file) && readFileSync(file).subarray(0, 8).equals(PNG_SIGNATURE);
      const missing = CASES.filter((testCase) => !isPng(join(reports, `${testCase.id}.png`)));
      if (missing.length > 0) throw new Error(`no PNG screenshot for ${missing.map((testCase) => testCase.id).join(', ')}`);
      const files = readdirSync(reports);
      const notTheirs = files.filter((file) => {
        const stat = statSync(join(reports, file));
        try {
          accessSync(join(reports, file), constants.R_OK);
        } catch {
          return true;
        }
        return stat.uid !== uid;
      });
      if (notTheirs.length > 0) throw new Error(`not the invoking user's (uid ${uid}), or unreadable: ${notTheirs.join(', ')}`);
      return `exit code 0 after ${took}; junit.xml ${counts}, index.html, ${CASES.length} PNGs; ${files.length} files, all uid ${uid}'s`;
    },
  );

  await check(
    'as its own user (node), nothing mounted, against a relying party that skips the nonce check: wrong_nonce fails, exit code 1, the report copied out says so',
    async () => {
      const [rpPort, emulatorPort] = [await freePort(), await freePort()];
      const clientId = 'broken-nonce-rp';
      const relyingParty = await startHostRelyingParty('test/support/broken-relying-party.ts', clientId, rpPort, emulatorPort, created);
      // As CI.md's GitLab job runs it, where the job's files are not the engine's: the JWKS as JSON,
      // the reports into the image's own /report (which only its user may write), then `cp` out.
      const name = `${ID}-kit-broken`;
      const result = await kit(name, [], [...clientArgs(clientId, readFileSync(jwksFile(clientId), 'utf8'), rpPort, emulatorPort), '--cases', 'wrong_nonce']);
      await relyingParty.stop();
      const failed = /^\[\s*\d+\/\d+\] FAIL\s+wrong_nonce\b.*$/m.exec(result.stdout)?.[0];
      if (result.code !== 1 || !failed) throw new Error(`exit code ${result.code}, not 1 with wrong_nonce failed:\n${tail(result)}`);
      if (!/^\[\s*\d+\/\d+\] pass\s+normal\b/m.test(result.stdout))
        throw new Error(`the normal verification did not pass, so the failure proves nothing:\n${tail(result)}`);
      const copied = join(work, 'conformance-report-broken');
      await must(['cp', `${name}:/report`, copied]);
      const suite = /<testsuites [^>]*>/.exec(readFileSync(join(copied, 'junit.xml'), 'utf8'))?.[0] ?? '';
      if (!suite.includes('failures="1"') || !existsSync(join(copied, 'wrong_nonce.png')))
        throw new Error(`the report copied out of the container says ${suite || 'nothing'}`);
      await run(['rm', '-f', name]);
      return `exit code 1; "${failed.trim()}", the normal verification before it passed; junit.xml copied out: failures="1"`;
    },
  );

  await check('an unreachable start URL: exit code 2, saying so', async () => {
    const [rpPort, emulatorPort] = [await freePort(), await freePort()];
    const clientId = 'unreachable-rp';
    const result = await kit(
      `${ID}-kit-unreachable`,
      ['--rm'],
      [...clientArgs(clientId, JSON.stringify(clientKeys(clientId).jwks), rpPort, emulatorPort), '--start-wait', '5'],
    );
    const said = result.stderr.split('\n').find((line) => line.startsWith('conformance: '));
    if (result.code !== 2 || !said?.includes(`nothing answers at http://127.0.0.1:${rpPort}/`))
      throw new Error(`exit code ${result.code}, not 2 saying nothing answers:\n${tail(result)}`);
    return `exit code 2, "${said.trim()}"`;
  });
}

/** compose.yaml as an operator runs it, in a folder of its own with its .env. */
async function compose(engine: Engine, base: { redis: string; nginx: string }, created: Created): Promise<void> {
  const { run, must } = engineCommand(engine);
  const folder = join(work, 'compose');
  mkdirSync(join(folder, 'deploy'), { recursive: true });
  copyFileSync(join(ROOT, 'compose.yaml'), join(folder, 'compose.yaml'));
  copyFileSync(join(ROOT, 'deploy/nginx.conf'), join(folder, 'deploy/nginx.conf'));
  const port = await freePort();
  writeFileSync(
    join(folder, '.env'),
    [
      `SESSION_SECRET=${randomBytes(32).toString('base64url')}`,
      `IDV_PORT=${port}`,
      `IDV_IMAGE=${IMAGE}`,
      `REDIS_IMAGE=${base.redis}`,
      `NGINX_IMAGE=${base.nginx}`,
      '',
    ].join('\n'),
  );
  const tool = [...engine.compose, '-p', ID, '-f', join(folder, 'compose.yaml')];
  const composeRun = (args: string[], timeoutMs = 180_000) => exec([...tool, ...args], { env: engine.env, log, cwd: folder, timeoutMs });
  created.compose = tool;
  created.composeDir = folder;
  const balancer = `http://localhost:${port}`;
  const name = (service: string) => (engine.name === 'docker' ? `${ID}-${service}-1` : `${ID}_${service}_1`);
  watched = ['redis', 'app-1', 'app-2', 'balancer'].map(name);

  await check(`compose.yaml up (${engine.compose.join(' ')}): redis, app-1, app-2, balancer`, async () => {
    const up = await composeRun(['up', '-d', '--no-build']);
    if (up.code !== 0) throw new Error(`compose up: ${lastLine(up)}`);
    const served = new Set<string>();
    await waitFor(`${balancer}/readyz`, 120_000, (response) => {
      served.add(response.headers.get('x-served-by') ?? '');
      return served.size >= 2;
    });
    // podman-compose 1.0 exits 0 even when a container failed to start: ask the engine.
    const states = (await must(['ps', '-a', '--filter', `label=com.docker.compose.project=${ID}`, '--format', '{{.Names}} {{.State}}'])).split('\n');
    // ("running" in Docker's words, "Up 5 seconds ago" in Podman's)
    const notRunning = watched.filter((container) => !states.some((line) => line.startsWith(`${container} `) && / (running|Up )/.test(line)));
    if (notRunning.length > 0) throw new Error(`not running: ${notRunning.join(', ')}`);
    return `http://localhost:${port} (IDV_PORT=${port}); /readyz answered through the balancer by ${[...served].join(' and ')}`;
  });

  const address = async (service: string) => must(['inspect', name(service), '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}']);
  const [first, second] = [await address('app-1'), await address('app-2')];
  const instance = (served: string) => (served.startsWith(`${first}:`) ? 'app-1' : served.startsWith(`${second}:`) ? 'app-2' : served);

  await check('compressed once: nginx gzips a page, the instances (IDV_COMPRESS=0) do not', async () => {
    const home = await fetch(`${balancer}/`, { headers: { 'accept-encoding': 'gzip' } });
    const homeText = await home.text();
    // fetch gunzips once: a page gzipped twice would read as gzip, not as HTML.
    if (home.headers.get('content-encoding') !== 'gzip' || !homeText.startsWith('<!DOCTYPE html>')) {
      throw new Error(
        `the balancer sent the home page with Content-Encoding ${home.headers.get('content-encoding') ?? 'none'}, reading "${homeText.slice(0, 40)}"`,
      );
    }
    const direct = await must([
      'exec',
      name('app-1'),
      'node',
      '-e',
      `fetch('http://127.0.0.1:' + process.env.PORT + '/', { headers: { 'accept-encoding': 'gzip' } }).then((response) => console.log(response.headers.get('content-encoding') ?? 'none'))`,
    ]);
    if (direct.trim() !== 'none') throw new Error(`app-1 itself sent the home page with Content-Encoding ${direct.trim()}: IDV_COMPRESS=0 did not take`);
    return 'the home page through nginx: gzipped once; from app-1 itself: uncompressed';
  });

  await check('a verification through the balancer', async () => {
    const verification = await verify(balancer);
    const instances = new Set(verification.servedBy.map(instance));
    if (instances.size < 2) throw new Error(`only ${[...instances].join(', ')} served it: the balancer does not share the requests`);
    return `${verification.person}; its ${verification.servedBy.length} requests served by ${[...instances].sort().join(' and ')} in turn`;
  });

  await check('app-1 stopped in the middle of a verification: app-2 completes it, and the next one', async () => {
    const during = await verify(balancer, {
      midway: async () => {
        const stopped = await composeRun(['stop', 'app-1'], 60_000);
        if (stopped.code !== 0) throw new Error(`compose stop app-1: ${firstLine(stopped)}`);
      },
    });
    const state = await must(['inspect', name('app-1'), '--format', '{{.State.Status}} {{.State.ExitCode}}']);
    if (!/^(exited|stopped) 143$/.test(state)) throw new Error(`app-1 is "${state}" after compose stop, not exited with 143`);
    const after = await verify(balancer);
    const wrong = [...during.servedAfterMidway, ...after.servedBy].map(instance).filter((served) => served !== 'app-2');
    if (wrong.length > 0) throw new Error(`requests after the stop were answered by ${wrong.join(', ')}`);
    return `app-1 exited 143 on SIGTERM; the started verification and a new one completed (${during.servedAfterMidway.length + after.servedBy.length} requests, all app-2)`;
  });

  await check('compose down', async () => {
    const down = await composeRun(['down', '-t', '10'], 120_000);
    if (down.code !== 0) throw new Error(firstLine(down));
    created.compose = undefined;
    if (engine.name === 'podman') await run(['network', 'rm', '-f', `${ID}_default`]);
    const left = await must(['ps', '-a', '-q', '--filter', `label=com.docker.compose.project=${ID}`]);
    if (left) throw new Error(`containers left: ${left.replaceAll('\n', ' ')}`);
  });
  watched = [];
}

await main();
