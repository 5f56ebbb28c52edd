/**
 * `npm run bench:conformance`: how long the conformance kit takes against this app, with the
 * per-flow cases side by side (`--workers N`, default 4) against one at a time, measured in the
 * same run; and whether both give the same verdicts. Each run gets an app of its own (a production
 * build, as `npm start` runs it), so no run starts with a JWKS another one fetched.
 *
 *   npm run build && npm run bench:conformance
 *   npm run bench:conformance -- --workers 6 --reference-workers 1 --no-client-wide
 *
 * Prints, for each run: the whole run, the per-flow part (from the first case after the normal
 * verification to the last per-flow case) and the client-wide part, and the ratio of the two
 * totals. The client-wide part waits for the app's JWKS cooldown (30 s) before each case that
 * needs a JWKS fetch: no number of workers shortens it.
 */
import { recordFigures } from './bench-figures';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CASES } from '../conformance/cases';
import { freePort, startAppServer } from '../test/support/app-server';

const ROOT = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '4' },
    'reference-workers': { type: 'string', default: '1' },
    'no-client-wide': { type: 'boolean', default: false },
  },
});

interface Timing {
  workers: number;
  totalS: number;
  perFlowS: number;
  clientWideS: number;
  verdicts: Record<string, string>;
  summary: string;
}

async function measure(workers: number): Promise<Timing> {
  const port = await freePort();
  const app = `http://localhost:${port}`;
  const password = randomBytes(18).toString('base64url');
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-conformance-'));
  const outDir = mkdtempSync(join(tmpdir(), 'idv-bench-conformance-report-'));
  const server = startAppServer(port, {
    APP_URL: app,
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    IDV_DATA_DIR: dataDir,
    EMULATOR_PANEL_PASSWORD: password,
    IDV_START_LIMIT_PER_ADDRESS: '600',
  });
  try {
    for (let tries = 0; (await fetch(`${app}/readyz`).catch(() => undefined))?.status !== 200; tries += 1) {
      if (tries > 300) throw new Error(`the app did not start:\n${server.output()}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    const args = ['--import', 'tsx', 'conformance/cli.ts', '--emulator', `${app}/emulator`, '--client-id', 'demo-relying-party', '--start-url', `${app}/`];
    args.push('--jwks-cooldown', '30', '--panel-password', password, '--workers', String(workers), '--out', outDir);
    if (values['no-client-wide']) args.push('--no-client-wide');
    const started = Date.now();
    const lines: { at: number; text: string }[] = [];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const complete = pending.split('\n');
      pending = complete.pop()!;
      for (const text of complete) lines.push({ at: Date.now(), text });
    });
    const status = await new Promise<number | null>((done) => child.once('exit', done));
    const totalS = (Date.now() - started) / 1000;
    const ended = (id: string) => lines.find((line) => new RegExp(`^\\[ *\\d+/\\d+\\] \\S+ +${id} \\(`).test(line.text))?.at;
    const perFlow = CASES.filter((testCase) => !testCase.clientWide && testCase.id !== 'normal' && testCase.id !== 'normal_again').map(
      (testCase) => ended(testCase.id) ?? 0,
    );
    const baselineAt = ended('normal') ?? started;
    const lastPerFlowAt = Math.max(...perFlow);
    const closingAt = ended('normal_again') ?? Date.now();
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const verdicts = Object.fromEntries([...html.matchAll(/data-case="([a-z0-9_]+)" data-verdict="([a-z_]+)"/g)].map((match) => [match[1]!, match[2]!]));
    const summary = lines.find((line) => / passed, \d+ failed/.test(line.text))?.text ?? `exit ${status}`;
    return { workers, totalS, perFlowS: (lastPerFlowAt - baselineAt) / 1000, clientWideS: (closingAt - lastPerFlowAt) / 1000, verdicts, summary };
  } finally {
    server.kill('SIGTERM');
    await server.exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (!existsSync(join(ROOT, '.next/standalone/server.js'))) {
  process.stderr.write('bench:conformance runs the production build: npm run build first\n');
  process.exit(2);
}
const figures = recordFigures();
const workers = Number(values.workers);
const referenceWorkers = Number(values['reference-workers']);
process.stdout.write(
  `The conformance kit against this app (${values['no-client-wide'] ? 'no client-wide cases' : `${CASES.length} cases`}), --workers ${workers} against --workers ${referenceWorkers}; each run takes a minute or a few.\n`,
);
const measured = await measure(workers);
const reference = await measure(referenceWorkers);
for (const timing of [measured, reference]) {
  process.stdout.write(
    `--workers ${String(timing.workers).padEnd(2)} ${timing.totalS.toFixed(1).padStart(6)} s in all; per-flow cases ${timing.perFlowS.toFixed(1)} s; client-wide cases and the last normal one ${timing.clientWideS.toFixed(1)} s. ${timing.summary}\n`,
  );
}
// Case by case, whatever order each report lists them in.
const differing = [...new Set([...Object.keys(measured.verdicts), ...Object.keys(reference.verdicts)])]
  .sort()
  .filter((name) => measured.verdicts[name] !== reference.verdicts[name]);
const same = differing.length === 0;
process.stdout.write(
  `ratio: ${(measured.totalS / reference.totalS).toFixed(2)}x the time in all, ${(measured.perFlowS / reference.perFlowS).toFixed(2)}x for the per-flow cases; verdicts ${same ? 'the same' : 'DIFFER'}\n`,
);
for (const name of differing) {
  process.stdout.write(
    `  ${name}: ${measured.verdicts[name] ?? 'not run'} with --workers ${workers}, ${reference.verdicts[name] ?? 'not run'} with --workers ${referenceWorkers}\n`,
  );
}
process.exitCode = same ? 0 : 1;
figures.save(`bench:conformance${values['no-client-wide'] ? ' -- --no-client-wide' : ''}`);
