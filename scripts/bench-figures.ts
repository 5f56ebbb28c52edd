/**
 * The benchmarks' figures, in one generated file (docs/benchmarks.md) that README.md and
 * docs/operations.md link to rather than copy: each bench, when it completes, replaces its own
 * section with what it printed, under the date, the commit and the machine it ran on.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export const FIGURES_FILE = join(import.meta.dirname, '..', 'docs', 'benchmarks.md');

const HEADER = `# Benchmark figures

Generated: each bench (\`npm run bench\`, \`npm run bench:http\`, \`npm run bench:conformance\`)
replaces its own section below when it completes. What each measures, and how to read it:
[operations.md](operations.md#speed-and-memory). Figures are ratios to references measured in the
same run where a bench has them; absolute times depend on the machine.
`;

/**
 * How busy the machine was when a bench started: its 1-minute load average against its cores.
 * A bench shares the cores with whatever else runs; the file says so rather than pass the
 * figures off as an idle machine's.
 */
export function loadNote(load: number, cores: number): string {
  const measured = `load average ${load.toFixed(2)} on ${cores} cores when it started`;
  return load >= cores / 4
    ? `${measured}: the machine was busy with other work, so absolute times are higher than on an idle machine; the ratios to references measured in the same run are the fairer figures`
    : `${measured}: the machine was otherwise quiet`;
}

/** Where and when a bench ran, and how busy the machine was (`load`, its 1-minute load average then). */
export function runFacts(now = new Date(), load = loadavg()[0] ?? 0): string {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    // The figures file itself is left out: the bench before this one may just have written it.
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', ':(top)', ':(top,exclude)docs/benchmarks.md'], {
      encoding: 'utf8',
    });
    if (changed.trim() !== '') commit += ' (with uncommitted changes)';
  } catch {
    // not a git checkout: the commit stays unknown
  }
  const cores = cpus();
  return `${now.toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}, ${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}; ${loadNote(load, cores.length)}.`;
}

/** `document` with the section of `bench` replaced by `figures` (added at the end the first time). */
export function withSection(document: string, bench: string, facts: string, figures: string): string {
  const start = `<!-- ${bench} -->`;
  const end = `<!-- /${bench} -->`;
  const plain = figures.replace(/\x1b\[[0-9;]*m/g, '').trimEnd();
  const section = `${start}\n## \`npm run ${bench}\`\n\n${facts}\n\n\`\`\`text\n${plain}\n\`\`\`\n${end}`;
  const from = document.indexOf(start);
  const to = document.indexOf(end);
  if (from >= 0 && to > from) return `${document.slice(0, from)}${section}${document.slice(to + end.length)}`;
  return `${(document || HEADER).trimEnd()}\n\n${section}\n`;
}

/**
 * What this process writes to stdout from now on, kept as well as printed; `save(bench)` then
 * writes it as that bench's section of docs/benchmarks.md (`bench` is the script and any option
 * that measures something else, e.g. `bench:http -- --throughput`: a section each), under the
 * facts of the run as it started and the options it was given.
 */
export function recordFigures(): { save(bench: string): void } {
  const facts = runFacts();
  const options = process.argv.slice(2);
  let printed = '';
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    printed += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write;
  return {
    save(bench) {
      const current = existsSync(FIGURES_FILE) ? readFileSync(FIGURES_FILE, 'utf8') : '';
      const given = options.length > 0 ? `\n\nOptions given: \`${options.join(' ')}\`.` : '';
      writeFileSync(FIGURES_FILE, withSection(current, bench, `${facts}${given}`, printed));
      write(`\nfigures written to docs/benchmarks.md (section ${bench})\n`);
    },
  };
}
