/**
 * After `next build`: completes the standalone server in .next/standalone with what Next.js leaves
 * to the deployment, the public/ folder and the built client assets (.next/static), so that
 * .next/standalone alone is the whole app (scripts/start.mjs runs it; the Dockerfile ships it).
 *
 * And makes Next.js's `compress` option a start-up setting, IDV_COMPRESS (`0`: off), rather than
 * a build setting. Next.js reads next.config.mjs at build time only: the standalone server.js it
 * writes holds the whole configuration as a literal (`const nextConfig = {…}`) and hands it to
 * its router server (through __NEXT_PRIVATE_STANDALONE_CONFIG), which sets up gzip unless
 * `compress` is false (Next.js docs, next.config.js "compress"). One line added after that
 * literal turns it off when IDV_COMPRESS is 0 as the server starts; scripts/start.mjs validates
 * the value first. Added here, at build time, so that the image's read-only file system is no
 * obstacle.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const standalone = `${root}.next/standalone`;
if (!existsSync(`${standalone}/server.js`)) {
  console.error('scripts/complete-standalone.mjs: .next/standalone/server.js is missing; next.config.mjs must say output: "standalone"');
  process.exit(1);
}
for (const [from, to] of [
  ['public', 'public'],
  ['.next/static', '.next/static'],
]) {
  rmSync(`${standalone}/${to}`, { recursive: true, force: true });
  cpSync(`${root}${from}`, `${standalone}/${to}`, { recursive: true });
}

const serverFile = `${standalone}/server.js`;
const server = readFileSync(serverFile, 'utf8');
const COMPRESS_LINE = "if (process.env.IDV_COMPRESS?.trim() === '0') nextConfig.compress = false // IDV_COMPRESS (scripts/complete-standalone.mjs)";
const literal = /^const nextConfig = \{.*\}$/gm;
const found = server.match(literal) ?? [];
if (found.length !== 1) {
  console.error(
    `scripts/complete-standalone.mjs: .next/standalone/server.js has ${found.length} lines \`const nextConfig = {…}\`, not one: this version of Next.js writes its standalone server otherwise, and IDV_COMPRESS needs a new way in`,
  );
  process.exit(1);
}
if (!server.includes(COMPRESS_LINE))
  writeFileSync(
    serverFile,
    server.replace(literal, (line) => `${line}\n${COMPRESS_LINE}`),
  );

console.log('standalone server ready in .next/standalone (npm start runs it)');
