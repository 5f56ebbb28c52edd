import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDoctorArguments, renderReport } from './doctor';

const ROOT = join(import.meta.dirname, '..');
const dataDir = mkdtempSync(join(tmpdir(), 'idv-doctor-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `npm run doctor` as a new user runs it, with `env` instead of the machine's IDV_ variables. */
function doctor(env: Record<string, string>, ...args: string[]) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(IDV_|EMULATOR_|APP_URL|REDIS_URL|SESSION_SECRET|NODE_ENV)/.test(name)));
  return spawnSync(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/doctor.ts', ...args], {
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
    expect(run.stdout).toContain('The variables for staging (values in angle brackets are yours to fill in):');
    expect(run.stdout).toMatch(/^IDV_BASE_URL=<https:\/\/base URL of the service>$/m);
    expect(run.stdout).toMatch(/^IDV_SIGNING_KEY=<private signing JWK from npm run keys>$/m);
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

describe('npm run doctor -- --lang nb', () => {
  it('prints every line, the summary and the JWKS heading in Norwegian, codes as written', () => {
    const run = doctor({}, '--lang', 'nb');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^OK {8}Discovery-dokument: /m);
    expect(run.stdout).toMatch(/^OK {8}Utstederen er lik IDV_BASE_URL: utsteder /m);
    expect(run.stdout).not.toMatch(/^(FEIL|ADVARSEL) /m);
    expect(run.stdout).toMatch(/^\d+ OK, 0 med advarsel, 0 med feil\.$/m);
    expect(run.stdout).toContain('Vår offentlige JWKS, som skal registreres hos tjenesten (bare offentlige nøkler):');
  });

  it('says what to do in Norwegian when the configuration does not load (--lang=nb)', () => {
    const run = doctor({ IDV_BASE_URL: 'https://idv.invalid' }, '--lang=nb');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^FEIL {6}Konfigurasjonen er gyldig: IDV_CLIENT_ID: /m);
    expect(run.stdout).toMatch(/^ {10}→ Rett opp IDV_CLIENT_ID/m);
  });

  it('refuses a language it does not have, or an unknown argument, with exit code 2', () => {
    const run = doctor({}, '--lang', 'de');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('doctor: --lang must be one of en, nb');
    expect(run.stdout).toBe('');
    expect(parseDoctorArguments([])).toEqual({ locale: 'en' });
    expect(parseDoctorArguments(['--lang', 'nb'])).toEqual({ locale: 'nb' });
    expect(() => parseDoctorArguments(['--lang'])).toThrow('--lang must be one of en, nb');
    expect(() => parseDoctorArguments(['--verbose'])).toThrow('unknown argument "--verbose"');
  });

  it('lines the titles up whatever the length of the marks', () => {
    const report = { lines: [{ id: 'par', title: 'T', status: 'warn' as const, detail: 'D', fix: 'F' }], publicJwks: { keys: [] }, status: 'warn' as const };
    expect(renderReport(report, 'nb')).toBe('ADVARSEL  T: D\n          → F\n\n0 OK, 1 med advarsel, 0 med feil.');
    expect(renderReport(report, 'en')).toBe('WARN  T: D\n      → F\n\n0 passed, 1 with a warning, 0 failed.');
  });
});
