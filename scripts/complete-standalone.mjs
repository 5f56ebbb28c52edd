/**
 * After `next build`: completes the standalone server in .next/standalone with what Next.js leaves
 * to the deployment, the public/ folder and the built client assets (.next/static), so that
 * .next/standalone alone is the whole app (scripts/start.mjs runs it; the Dockerfile ships it).
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
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
console.log('standalone server ready in .next/standalone (npm start runs it)');
