/**
 * The images the test builds on: Node 20 for the Dockerfile (NODE_IMAGE), Redis and nginx for
 * compose.yaml (REDIS_IMAGE, NGINX_IMAGE). Each is the one its variable names, else the
 * registry's (node:20-bookworm-slim, redis:7-alpine, nginx:1.27-alpine) when it is here or can
 * be pulled, else one made on this machine and kept under a local tag, so that reruns are fast:
 *
 * - localhost/idv-test-debian:bookworm  `debootstrap --variant=minbase bookworm` (needs root)
 * - localhost/idv-test-node:20-bookworm that, with this machine's own Node 20 and npm, and a
 *   `node` user (uid 1000) as the official image has
 * - localhost/idv-test-redis:bookworm   that, with Debian's redis-server, run as `redis`
 * - localhost/idv-test-nginx:bookworm   that, with Debian's nginx
 *
 * Remove them with `<engine> rmi` and those names; the next run makes them again (about 1.5 min).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { exec, firstLine, fitPodman, lastLine, SetupError, type Engine } from './engine';

export interface BaseImages {
  node: string;
  redis: string;
  nginx: string;
  /** one line per image: where it came from */
  notes: string[];
}

const REGISTRY = {
  node: 'docker.io/library/node:20-bookworm-slim',
  redis: 'docker.io/library/redis:7-alpine',
  nginx: 'docker.io/library/nginx:1.27-alpine',
} as const;
const LOCAL = {
  debian: 'localhost/idv-test-debian:bookworm',
  node: 'localhost/idv-test-node:20-bookworm',
  redis: 'localhost/idv-test-redis:bookworm',
  nginx: 'localhost/idv-test-nginx:bookworm',
} as const;
const PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

type Kind = keyof typeof REGISTRY;

export async function imageExists(engine: Engine, image: string): Promise<boolean> {
  return (await exec([engine.name, 'image', 'inspect', image], { env: engine.env, log: engine.log })).code === 0;
}

async function build(engine: Engine, tag: string, context: string, containerfile: string): Promise<void> {
  writeFileSync(join(context, 'Containerfile'), containerfile);
  const built = await exec([engine.name, 'build', '-t', tag, '-f', join(context, 'Containerfile'), context], {
    env: engine.env,
    log: engine.log,
    timeoutMs: 15 * 60_000,
  });
  if (built.code !== 0) throw new SetupError(`making ${tag} failed: ${lastLine(built)} (log: ${engine.log})`);
}

/** Debian bookworm, minimal, from Debian's mirror: the base of the images made here. */
async function debian(engine: Engine, work: string): Promise<void> {
  if (await imageExists(engine, LOCAL.debian)) return;
  if (process.getuid?.() !== 0)
    throw new SetupError(
      `making ${LOCAL.debian} takes debootstrap as root: run as root, or set NODE_IMAGE, REDIS_IMAGE and NGINX_IMAGE to images this engine has`,
    );
  if ((await exec(['debootstrap', '--version'], { log: engine.log })).code !== 0)
    throw new SetupError('making a base image takes debootstrap: sudo apt-get install -y debootstrap (or set NODE_IMAGE, REDIS_IMAGE and NGINX_IMAGE)');
  const rootfs = join(work, 'rootfs');
  const mirror = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
  const made = await exec(['debootstrap', '--variant=minbase', 'bookworm', rootfs, mirror], { log: engine.log, timeoutMs: 20 * 60_000 });
  if (made.code !== 0) throw new SetupError(`debootstrap failed: ${lastLine(made)} (log: ${engine.log})`);
  const imported = await exec(
    [
      'sh',
      '-c',
      `rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/* && tar -C "$1" -c . | ${engine.name} import --change 'ENV ${PATH}' --change 'CMD ["bash"]' - ${LOCAL.debian}`,
      'sh',
      rootfs,
    ],
    { env: engine.env, log: engine.log, timeoutMs: 10 * 60_000 },
  );
  await exec(['rm', '-rf', rootfs], { log: engine.log });
  if (imported.code !== 0) throw new SetupError(`importing ${LOCAL.debian} failed: ${firstLine(imported)}`);
}

/** This machine's npm: the one running this script, else the global one. */
function npmFolder(): string {
  const candidates = [
    process.env.npm_execpath && resolve(dirname(process.env.npm_execpath), '..'),
    resolve(dirname(process.execPath), '../lib/node_modules/npm'),
  ];
  for (const folder of candidates) {
    if (
      folder &&
      existsSync(join(folder, 'package.json')) &&
      (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string }).name === 'npm'
    )
      return folder;
  }
  throw new SetupError("cannot find this machine's npm to put in the Node image: set NODE_IMAGE to a Node 20 image");
}

async function make(engine: Engine, kind: Kind, work: string): Promise<void> {
  const context = join(work, kind);
  mkdirSync(context, { recursive: true });
  if (kind === 'node') {
    const major = Number(process.versions.node.split('.')[0]);
    if (major !== 20)
      throw new SetupError(`the Node image is made from this machine's Node, which is ${process.versions.node}, not 20: set NODE_IMAGE to a Node 20 image`);
    cpSync(process.execPath, join(context, 'node'));
    cpSync(npmFolder(), join(context, 'npm'), { recursive: true });
    await build(
      engine,
      LOCAL.node,
      context,
      [
        `FROM ${LOCAL.debian}`,
        'COPY node /usr/local/bin/node',
        'COPY npm /usr/local/lib/node_modules/npm',
        'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\',
        ' && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \\',
        ' && node --version && npm --version',
        'CMD ["node"]',
        '',
      ].join('\n'),
    );
    return;
  }
  const install = (packages: string, after = '') =>
    `RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${packages} && rm -rf /var/lib/apt/lists/*${after}`;
  const containerfile =
    kind === 'redis'
      ? [`FROM ${LOCAL.debian}`, install('redis-server'), 'USER redis', 'CMD ["redis-server", "--protected-mode", "no"]']
      : [`FROM ${LOCAL.debian}`, install('nginx', ' /etc/nginx/sites-enabled/*'), 'CMD ["nginx", "-g", "daemon off;"]'];
  await build(engine, LOCAL[kind], context, [...containerfile, ''].join('\n'));
}

/** Finds or makes the three images; `work` is a scratch folder. */
export async function baseImages(engine: Engine, work: string): Promise<BaseImages> {
  const chosen: Partial<Record<Kind, string>> = {};
  const notes: string[] = [];
  let registryReachable: boolean | undefined;
  for (const kind of ['node', 'redis', 'nginx'] as const) {
    const named = process.env[`${kind.toUpperCase()}_IMAGE`];
    if (named) {
      if (
        !(await imageExists(engine, named)) &&
        (await exec([engine.name, 'pull', named], { env: engine.env, log: engine.log, timeoutMs: 10 * 60_000 })).code !== 0
      ) {
        throw new SetupError(`${kind.toUpperCase()}_IMAGE=${named}: this engine has no such image and cannot pull it`);
      }
      chosen[kind] = named;
      notes.push(`${named} (${kind.toUpperCase()}_IMAGE)`);
      continue;
    }
    if (await imageExists(engine, REGISTRY[kind])) {
      chosen[kind] = REGISTRY[kind];
      notes.push(`${REGISTRY[kind]} (here)`);
      continue;
    }
    if (registryReachable !== false && !(await imageExists(engine, LOCAL[kind]))) {
      registryReachable = (await exec([engine.name, 'pull', REGISTRY[kind]], { env: engine.env, log: engine.log, timeoutMs: 10 * 60_000 })).code === 0;
      if (registryReachable) {
        chosen[kind] = REGISTRY[kind];
        notes.push(`${REGISTRY[kind]} (pulled)`);
        continue;
      }
    }
    if (await imageExists(engine, LOCAL[kind])) {
      notes.push(`${LOCAL[kind]} (made here earlier)`);
    } else {
      const started = Date.now();
      await debian(engine, work);
      await fitPodman(engine, LOCAL.debian, work);
      await make(engine, kind, work);
      notes.push(`${LOCAL[kind]} (made now, ${Math.round((Date.now() - started) / 1000)} s: no registry image to pull)`);
    }
    chosen[kind] = LOCAL[kind];
  }
  return { node: chosen.node!, redis: chosen.redis!, nginx: chosen.nginx!, notes };
}
