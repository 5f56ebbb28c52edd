/**
 * What the emulator's conformance page (endpoints/conformance.ts) asks of its host: the host runs
 * the conformance kit (a browser, the kit's cases) and keeps its reports; the emulator only shows
 * the form, the progress and the files. Types only: the emulator stays free of the kit and of
 * any browser, and a host without one passes none (the page then says how to run the kit instead).
 */

/** What the form starts with: the host app's own client, its home page and its start control. */
export interface ConformanceDefaults {
  clientId?: string;
  startUrl?: string;
  startSelector?: string;
}

/** One run as the form asks for it, checked by the page (a registered client, an http(s) URL). */
export interface ConformanceRunInput {
  /** the relying party's client_id at the emulator */
  clientId: string;
  /** where a person starts a verification at the relying party */
  startUrl: string;
  /** the start control (a CSS selector); default: the page's first submit button */
  startSelector?: string;
  /** case ids or patterns (`*`); every case when absent */
  cases?: string[];
  /** how long after a JWKS fetch the relying party fetches again for an unknown `kid`, in seconds */
  jwksCooldownSeconds: number;
}

/** A run's start: its id, or why it did not start (one run at a time: `runId` is the one going). */
export type ConformanceStart = { runId: string } | { refused: string; runId?: string };

/** Where a run is. */
export interface ConformanceRunStatus {
  state: 'running' | 'done' | 'failed';
  /** one line per case ended (and per wait), as the command prints them */
  lines: string[];
  /** cases ended */
  done: number;
  /** cases in the run (0 until known) */
  total: number;
  /** done: whether every case passed or did not apply */
  passed?: boolean;
  /** done: the counts of the verdicts, in a sentence */
  summary?: string;
  /** failed: why the run could not start or go on */
  error?: string;
  /** done: the names of the files `file` serves (index.html, junit.xml, <case>.png) */
  files?: string[];
}

/** A file of a run's report. */
export interface ConformanceFile {
  body: Uint8Array;
  contentType: string;
}

/** The host of the conformance kit (EmulatorOptions.conformance). */
export interface ConformanceHost {
  defaults(): ConformanceDefaults;
  start(input: ConformanceRunInput): Promise<ConformanceStart>;
  /** undefined for a run the host does not know (never started, or forgotten) */
  status(runId: string): ConformanceRunStatus | undefined;
  /** `name`: index.html, junit.xml or <case>.png; undefined when the run or the file is unknown */
  file(runId: string, name: string): Promise<ConformanceFile | undefined>;
}

/** The names of a run's files: the HTML report, the JUnit XML and the screenshots; nothing else (no path). */
export const CONFORMANCE_FILE_NAME = /^(?:index\.html|junit\.xml|[a-z0-9_]+\.png)$/;
