/**
 * The conformance kit as a host of the emulator's conformance page (the emulator's
 * qa/conformance-host.ts): one run at a time in this process, in the background; its progress as
 * the command prints it; its reports (index.html, junit.xml, a screenshot per case) in a folder
 * of its own under the system's temporary folder, the last five runs kept.
 *
 * The runner (and with it playwright-core, a development dependency, and Chromium) is loaded only
 * when a run starts: a server without them runs the page, and a run there ends `failed` saying
 * what to install.
 */
import { randomBytes } from 'node:crypto';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import {
  CONFORMANCE_FILE_NAME,
  type ConformanceDefaults,
  type ConformanceHost,
  type ConformanceRunInput,
  type ConformanceRunStatus,
} from '../emulator/qa/conformance-host';
import type { RunListener, RunOptions, RunReport } from './runner';
import type { CaseResult } from './run-case';

/** What a run needs of the kit: loaded when a run starts. */
export interface ConformanceKit {
  runConformance(options: RunOptions, listener: RunListener): Promise<RunReport>;
  progressLine(index: number, total: number, result: CaseResult): string;
  htmlReport(report: RunReport): string;
  junitXml(report: RunReport): string;
}

export interface ConformanceHostOptions {
  /** the emulator's base URL (its issuer) */
  emulatorBase: string;
  /** the QA panel's password, when it has one: the kit signs in to the panel's QA API with it */
  panelPassword?: string;
  /** what the page's form starts with */
  defaults: ConformanceDefaults;
  /** the persona whose document is verified; default ingrid-haugen, as the command's */
  persona?: string;
  /** the longest one case may take, in seconds; default 60, as the command's */
  caseTimeoutSeconds?: number;
  /** where the runs' folders go; default a folder under os.tmpdir() */
  reportsFolder?: string;
  /** how many runs are kept (their status and folder); default 5 */
  keepRuns?: number;
  /** the kit; default: the runner and reports of this folder, loaded when a run starts (tests pass their own) */
  loadKit?: () => Promise<ConformanceKit>;
}

/** The runs kept, their folders included. */
const KEPT_RUNS = 5;
/** A run folder of an earlier process, untouched this long, is deleted at this process's first run. */
const ABANDONED_AFTER_MS = 24 * 3600_000;

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  png: 'image/png',
};

/** What to install when the kit cannot be loaded (a production image without the development dependencies). */
export const KIT_MISSING =
  'The conformance kit could not be loaded: it needs playwright-core, a development dependency (install the dependencies with `npm ci`, not `npm ci --omit=dev`), ' +
  'and Chromium (on Debian or Ubuntu `apt-get install chromium`, or chromium-headless-shell; elsewhere `npx playwright install chromium`; or set CHROMIUM_PATH to a Chromium binary).';

async function loadRunnerKit(): Promise<ConformanceKit> {
  try {
    // One after the other: the reports import the runner, so a runner that cannot load fails once.
    const runner = await import('./runner');
    const reports = await import('./reports');
    return { runConformance: runner.runConformance, progressLine: reports.progressLine, htmlReport: reports.htmlReport, junitXml: reports.junitXml };
  } catch (error) {
    throw new Error(`${KIT_MISSING} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`, { cause: error });
  }
}

interface Run {
  id: string;
  folder: string;
  status: ConformanceRunStatus;
}

/** The counts of a run's verdicts, in a sentence (as the command's table ends). */
function summaryOf(results: readonly CaseResult[]): { passed: boolean; summary: string } {
  const counts = { pass: 0, fail: 0, error: 0, not_applicable: 0 };
  for (const result of results) counts[result.verdict.status] += 1;
  return {
    passed: counts.fail === 0 && counts.error === 0,
    summary: `${counts.pass} passed, ${counts.fail} failed, ${counts.error} could not be decided, ${counts.not_applicable} did not apply, of ${results.length} cases.`,
  };
}

/** The host of the emulator's conformance page for this process. @see the emulator's qa/conformance-host.ts */
export function createConformanceHost(options: ConformanceHostOptions): ConformanceHost {
  const runs = new Map<string, Run>();
  const loadKit = options.loadKit ?? loadRunnerKit;
  const reportsFolder = options.reportsFolder ?? join(tmpdir(), 'idv-conformance');
  const keep = options.keepRuns ?? KEPT_RUNS;
  let going: string | undefined;

  let sweptOthers = false;
  /**
   * Deletes, once per process, the run folders that earlier processes left and nobody reads any
   * more: those untouched for a day. Not younger ones: another instance on this machine may be
   * writing its own run in the same folder.
   */
  async function sweepOthers(): Promise<void> {
    if (sweptOthers) return;
    sweptOthers = true;
    const entries = await readdir(reportsFolder).catch(() => [] as string[]);
    for (const entry of entries) {
      if (runs.has(entry)) continue;
      const folder = join(reportsFolder, entry);
      const modified = await stat(folder).then((info) => info.mtimeMs, () => Date.now());
      if (Date.now() - modified > ABANDONED_AFTER_MS) await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** Forgets the oldest runs beyond `keep` (never the one going) and deletes their folders. */
  async function prune(): Promise<void> {
    const ended = [...runs.values()].filter((run) => run.id !== going);
    const excess = runs.size - keep;
    for (const run of ended.slice(0, Math.max(0, excess))) {
      runs.delete(run.id);
      await rm(run.folder, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  async function execute(run: Run, input: ConformanceRunInput): Promise<void> {
    const { status } = run;
    try {
      const kit = await loadKit();
      const report = await kit.runConformance(
        {
          clientId: input.clientId,
          startUrl: input.startUrl,
          ...(input.startSelector ? { startSelector: input.startSelector } : {}),
          emulator: options.emulatorBase.replace(/\/+$/, ''),
          ...(options.panelPassword ? { panelPassword: options.panelPassword } : {}),
          persona: options.persona ?? 'ingrid-haugen',
          ...(input.cases?.length ? { cases: input.cases } : {}),
          jwksCooldownSeconds: input.jwksCooldownSeconds,
          caseTimeoutSeconds: options.caseTimeoutSeconds ?? 60,
          outDir: run.folder,
        },
        {
          caseStarted: (_index, total) => {
            status.total = total;
          },
          caseEnded: (index, total, result) => {
            status.total = total;
            status.done = index;
            status.lines.push(kit.progressLine(index, total, result));
          },
          waiting: (seconds, why) => {
            status.lines.push(`waiting ${seconds} s ${why}`);
          },
        },
      );
      await writeFile(join(run.folder, 'junit.xml'), kit.junitXml(report));
      await writeFile(join(run.folder, 'index.html'), kit.htmlReport(report));
      const files = (await readdir(run.folder)).filter((name) => CONFORMANCE_FILE_NAME.test(name));
      const first = ['index.html', 'junit.xml'];
      Object.assign(status, {
        ...summaryOf(report.results),
        files: [...first.filter((name) => files.includes(name)), ...files.filter((name) => !first.includes(name)).sort()],
        state: 'done',
      } satisfies Partial<ConformanceRunStatus>);
    } catch (error) {
      status.error = error instanceof Error ? error.message : String(error);
      status.state = 'failed';
    } finally {
      going = undefined;
    }
  }

  return {
    defaults: () => ({ ...options.defaults }),

    async start(input) {
      if (going !== undefined) return { refused: 'a conformance run is going in this process; one runs at a time', runId: going };
      const id = `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
      const run: Run = { id, folder: join(reportsFolder, id), status: { state: 'running', lines: [], done: 0, total: 0 } };
      going = id;
      runs.set(id, run);
      await prune();
      await sweepOthers();
      // In the background: the page shows its progress.
      void execute(run, input);
      return { runId: id };
    },

    status(runId) {
      const status = runs.get(runId)?.status;
      return status && { ...status, lines: [...status.lines], ...(status.files ? { files: [...status.files] } : {}) };
    },

    async file(runId, name) {
      const run = runs.get(runId);
      // Only a file of the report's own names, in the run's own folder: no path ever comes through.
      if (!run || run.status.state !== 'done' || !CONFORMANCE_FILE_NAME.test(name)) return undefined;
      try {
        const body = await readFile(join(run.folder, name));
        return { body: new Uint8Array(body), contentType: CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream' };
      } catch {
        return undefined;
      }
    },
  };
}
