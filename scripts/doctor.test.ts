/**
 * `npm run doctor` where no app of ours answers: it fails, says where it asked and how to start
 * the app. Against a running app (the built one): e2e/doctor-command.spec.ts.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '@/test/support/app-server';
import { parseDoctorArguments, renderReport } from './doctor';

const ROOT = join(import.meta.dirname, '..');

/** `npm run doctor` as a new user runs it, with `env` instead of the machine's IDV_ variables and app address. */
function doctor(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(IDV_|EMULATOR_|APP_URL|PORT|REDIS_URL|SESSION_SECRET|NODE_ENV)/.test(name)),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=react-server', '--import', 'tsx', 'scripts/doctor.ts', ...args],
      { cwd: ROOT, env: { ...clean, NODE_ENV: 'development', ...env }, encoding: 'utf8', timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

describe('npm run doctor with no app of ours answering', () => {
  it('fails with exit 1 when nothing listens at APP_URL, saying where it asked and how to start the app', async () => {
    const app = `http://127.0.0.1:${await freePort()}`;
    const run = await doctor({ APP_URL: app });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`doctor: Nothing answers at ${app} (connection refused: nothing listens there).`);
    expect(run.stderr).toContain('start the app with the same variables (npm run dev, or npm start after npm run build)');
    expect(run.stderr).toContain('APP_URL=<its address> npm run doctor, or npm run doctor -- --url <its address>');
  }, 60_000);

  it('asks http://localhost:$PORT when APP_URL is unset, as the app would listen, and --url over both; in Norwegian with --lang=nb', async () => {
    const port = await freePort();
    const byPort = await doctor({ PORT: String(port) });
    expect(byPort.status).toBe(1);
    expect(byPort.stderr).toContain(`Nothing answers at http://localhost:${port} (`);
    const other = `http://127.0.0.1:${await freePort()}`;
    const byUrl = await doctor({ PORT: String(port), APP_URL: `http://127.0.0.1:${port}` }, `--url=${other}/doctor`, '--lang=nb');
    expect(byUrl.status).toBe(1);
    expect(byUrl.stderr).toContain(`doctor: Ingenting svarer på ${other} (tilkoblingen ble avvist: ingenting lytter der).`);
  }, 60_000);

  it('fails with exit 1 when another server answers there, naming the address it asked', async () => {
    const server = createServer((_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const app = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const run = await doctor({ APP_URL: app });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`doctor: ${app}/doctor/findings answered 404 without the doctor's findings: is this the app's address (APP_URL, or --url)?`);
    } finally {
      server.close();
    }
  }, 60_000);

  it('refuses an unknown argument, a language it does not have, a --url that is not http(s), or an APP_URL the app would refuse, with exit 2', async () => {
    const run = await doctor({}, '--lang', 'de');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('doctor: --lang must be one of en, nb');
    expect(run.stdout).toBe('');
    const badAppUrl = await doctor({ APP_URL: 'http://localhost:3000/app' });
    expect(badAppUrl.status).toBe(2);
    expect(badAppUrl.stderr).toContain('doctor: APP_URL: must be an origin');
    expect(parseDoctorArguments([])).toEqual({ locale: 'en' });
    expect(parseDoctorArguments(['--lang', 'nb', '--url', 'http://localhost:3001/'])).toEqual({ locale: 'nb', url: 'http://localhost:3001' });
    expect(() => parseDoctorArguments(['--lang'])).toThrow('--lang must be one of en, nb');
    expect(() => parseDoctorArguments(['--url', 'localhost:3000'])).toThrow("--url must be the app's http(s) address");
    expect(() => parseDoctorArguments(['--verbose'])).toThrow('unknown argument "--verbose"');
  }, 60_000);
});

describe('renderReport', () => {
  it('lines the titles up whatever the length of the marks', () => {
    const report = { lines: [{ id: 'par', title: 'T', status: 'warn' as const, detail: 'D', fix: 'F' }], publicJwks: { keys: [] }, status: 'warn' as const };
    expect(renderReport(report, 'nb')).toBe('ADVARSEL  T: D\n          → F\n\n0 OK, 1 med advarsel, 0 med feil.');
    expect(renderReport(report, 'en')).toBe('WARN  T: D\n      → F\n\n0 passed, 1 with a warning, 0 failed.');
  });
});
