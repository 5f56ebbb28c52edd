/**
 * The container engine `npm run test:container` drives: Docker when its daemon answers, else
 * Podman (CONTAINER_ENGINE=docker|podman picks one), and the compose tool that goes with it
 * (`docker compose`, or `podman-compose`). Every command's output goes to one log file, which a
 * failure names.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Engine {
  name: 'docker' | 'podman';
  version: string;
  /** environment of every command (Podman: CONTAINERS_CONF, where this machine needs one) */
  env: NodeJS.ProcessEnv;
  /** what runs compose files, e.g. ['docker', 'compose'] or ['podman-compose'] */
  compose: string[];
  composeVersion: string;
  log: string;
  /** what fitPodman changed for this machine, if anything */
  fitted?: string;
}

/** The commands running now, to stop on Ctrl-C. */
const running = new Set<ReturnType<typeof spawn>>();

/** Stops every command still running (Ctrl-C: before cleaning up). */
export function stopRunning(): void {
  for (const child of running) child.kill('SIGTERM');
}

/** Runs a command to its end; its output is returned and appended to `log`. */
export function exec(command: string[], options: { env?: NodeJS.ProcessEnv; log: string; cwd?: string; timeoutMs?: number; input?: string }): Promise<Result> {
  const [program, ...args] = command;
  appendFileSync(options.log, `\n$ ${command.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn(program!, args, { env: options.env ?? process.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      appendFileSync(options.log, chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      appendFileSync(options.log, chunk);
    });
    const timer = options.timeoutMs ? setTimeout(() => child.kill('SIGKILL'), options.timeoutMs) : undefined;
    child.on('error', (error) => {
      running.delete(child);
      clearTimeout(timer);
      resolve({ code: 127, stdout, stderr: `${stderr}${error.message}` });
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      clearTimeout(timer);
      resolve({ code: code ?? (signal === 'SIGKILL' && timer ? 124 : 128), stdout, stderr });
    });
    // A command that exits without reading its input closes the pipe first: the write then fails
    // with EPIPE, which is no failure of the command (its exit code says how it went).
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

function answers(command: string[]): string | undefined {
  const probe = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8', timeout: 30_000 });
  return !probe.error && probe.status === 0 ? probe.stdout.trim() : undefined;
}

/** The first line of what a failed command said, for a message. */
export function firstLine(result: Result): string {
  return (
    (result.stderr.trim() || result.stdout.trim())
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? `exit code ${result.code}`
  );
}

/** The last line of what a failed command said: a build's error comes last. */
export function lastLine(result: Result): string {
  return (
    (result.stderr.trim() || result.stdout.trim())
      .split('\n')
      .filter((line) => line.trim() !== '')
      .at(-1)
      ?.trim() ?? `exit code ${result.code}`
  );
}

export class SetupError extends Error {}

/** Docker if its daemon answers, else Podman; stops with how to install one when neither does. */
export function findEngine(log: string): Engine {
  const wanted = process.env.CONTAINER_ENGINE;
  const docker = wanted === 'podman' ? undefined : answers(['docker', 'info', '--format', '{{.ServerVersion}}']);
  if (docker) {
    const compose = answers(['docker', 'compose', 'version', '--short']);
    if (!compose)
      throw new SetupError('Docker answers, but `docker compose` does not: install the compose plugin (https://docs.docker.com/compose/install/linux/).');
    return {
      name: 'docker',
      version: `Docker ${docker}`,
      env: { ...process.env },
      compose: ['docker', 'compose'],
      composeVersion: `docker compose ${compose}`,
      log,
    };
  }
  const podman = wanted === 'docker' ? undefined : answers(['podman', 'version', '--format', '{{.Client.Version}}']);
  if (!podman) {
    throw new SetupError(
      [
        `No container engine answers here (${wanted ? `CONTAINER_ENGINE=${wanted}` : 'neither a Docker daemon nor Podman'}). Install one:`,
        '  Debian/Ubuntu:  sudo apt-get install -y podman runc podman-compose golang-github-containernetworking-plugin-dnsname',
        '  or Docker:      https://docs.docker.com/engine/install/ (with the compose plugin)',
      ].join('\n'),
    );
  }
  const compose = answers(['podman-compose', 'version']);
  if (compose === undefined) {
    throw new SetupError('Podman answers, but podman-compose is missing: sudo apt-get install -y podman-compose (or pip install podman-compose).');
  }
  // compose.yaml's containers find each other by name: on CNI networks only with the dnsname plugin.
  const backend = answers(['podman', 'info', '--format', '{{.Host.NetworkBackend}}']);
  if (backend === 'cni' && !['/usr/lib/cni', '/usr/libexec/cni', '/usr/local/lib/cni', '/opt/cni/bin'].some((folder) => existsSync(join(folder, 'dnsname')))) {
    throw new SetupError(
      "Podman's CNI networks here resolve no container names (compose.yaml needs them): sudo apt-get install -y golang-github-containernetworking-plugin-dnsname",
    );
  }
  const composeVersion = /podman-composer? version\s+([\d.]+)/i.exec(compose)?.[1];
  return {
    name: 'podman',
    version: `Podman ${podman}`,
    env: { ...process.env },
    compose: ['podman-compose'],
    composeVersion: `podman-compose ${composeVersion ?? ''}`.trim(),
    log,
  };
}

/**
 * Podman's defaults fail on some machines: the default rlimits (nofile and nproc raised to
 * Podman's maximum) need CAP_SYS_RESOURCE, and crun may refuse to set up its cgroup. Tries one
 * container; if it fails for either reason, writes a containers.conf with this machine's own
 * limits (and runc, when crun was the trouble and runc is there) and uses it for every command
 * from then on (engine.fitted says so). Once is enough; later calls do nothing.
 */
export async function fitPodman(engine: Engine, image: string, folder: string): Promise<void> {
  if (engine.name !== 'podman' || engine.env.CONTAINERS_CONF || engine.fitted !== undefined) return;
  const tryOne = () => exec(['podman', 'run', '--rm', image, 'true'], { env: engine.env, log: engine.log, timeoutMs: 120_000 });
  const first = await tryOne();
  engine.fitted = '';
  if (first.code === 0) return;
  const said = `${first.stderr}${first.stdout}`;
  const limits = /rlimit/i.test(said);
  const crun = /crun/i.test(said) && answers(['runc', '--version']) !== undefined;
  if (!limits && !crun) throw new SetupError(`podman cannot run a container here: ${firstLine(first)}`);
  const hardNofile = Number(answers(['sh', '-c', 'ulimit -Hn'])) || 4096;
  const nofile = Math.min(hardNofile, 65_536);
  const conf = join(folder, 'containers.conf');
  writeFileSync(
    conf,
    [
      '# Written by scripts/container (npm run test:container) for this machine',
      '[containers]',
      `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=4096:4096"]`,
      ...(crun ? ['[engine]', 'runtime = "runc"'] : []),
      '',
    ].join('\n'),
  );
  engine.env = { ...engine.env, CONTAINERS_CONF: conf };
  const second = await tryOne();
  if (second.code !== 0) throw new SetupError(`podman cannot run a container here, even with ${conf}: ${firstLine(second)}`);
  const cause = /error setting rlimit[^\n]*|crun:[^\n]*/.exec(said)?.[0] ?? firstLine(first);
  engine.fitted = `CONTAINERS_CONF=${conf} (nofile ${nofile}, nproc 4096${crun ? ', runc' : ''}): the defaults failed with "${cause}"`;
}
