import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'idv-doctor-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm run doctor` as a new user runs it, with `env` instead of the machine's IDV_ variables. */
function doctor(env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(IDV_|EMULATOR_|APP_URL|REDIS_URL|SESSION_SECRET|NODE_ENV)/.test(name)));
  return spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/doctor.ts'], {
    cwd: ROOT,
    env: { ...clean, NODE_ENV: 'development', IDV_DATA_DIR: dataDir, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('npm run doctor', () => {
  it('passes every line against the embedded emulator, prints our public JWKS and exits 0', () => {
    const run = doctor({});
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^PASS {2}Discovery document: /m);
    expect(run.stdout).not.toMatch(/^(FAIL|WARN) /m);
    expect(run.stdout).toContain('Our public JWKS, to register with the service');
    expect(run.stdout).not.toMatch(/"d":/);
  });

  it('fails with the variable to fix when the configuration does not load, and exits 1', () => {
    const run = doctor({ IDV_BASE_URL: 'https://idv.invalid' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}Configuration valid: IDV_CLIENT_ID: /m);
    expect(run.stdout).toContain('→ Fix IDV_CLIENT_ID');
  });

  it('fails the discovery line when the service cannot be reached, and exits 1', () => {
    const run = doctor({ IDV_BASE_URL: 'https://127.0.0.1:9', IDV_CLIENT_ID: 'rp' });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}Discovery document: /m);
    expect(run.stdout).toContain('→ Check IDV_BASE_URL and the network.');
  });
});
