/**
 * `npm test` runs this first: the tests need a real redis-server (the store tests start their
 * own). If it is missing, stop at once with the command that installs it, rather than fail
 * half-way through the suite. (Chromium is found or provisioned by playwright.config.ts.)
 */
import { spawnSync } from 'node:child_process';

const binary = process.env.REDIS_SERVER_PATH ?? 'redis-server';
const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.error(`The tests need redis-server, and ${binary} was not found.`);
  console.error('Install it (Debian/Ubuntu):  sudo apt-get update && sudo apt-get install -y redis-server');
  console.error('or point REDIS_SERVER_PATH at a redis-server binary.');
  process.exit(1);
}
console.log(`test tools: ${probe.stdout.trim().split(' ').slice(0, 3).join(' ')}`);
