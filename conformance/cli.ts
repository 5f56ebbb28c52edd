/**
 * The conformance kit's command: runs every case against a relying party registered with the
 * emulator, prints a live progress line and a table, writes a JUnit XML file and an HTML report,
 * and exits 1 when a case fails or cannot be decided (2 when the run cannot start).
 *
 *   npm run conformance -- --client-id my-rp --start-url http://localhost:8000/ [options]
 *
 * README.md, "Test your own relying party".
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CASES } from './cases';
import { htmlReport, junitXml, progressLine, textTable } from './reports';
import { DEFAULT_START_SELECTOR } from './run-case';
import { passed, runConformance, type RunOptions } from './runner';

const USAGE = `Usage: npm run conformance -- --client-id ID --start-url URL [options]

Runs ${CASES.length} cases, each one whole verification in Chromium, against a relying party
registered with the emulator (EMULATOR_CLIENTS), and decides each by itself.

  --client-id ID          the relying party's client_id at the emulator (required)
  --start-url URL         the page where a verification starts (required)
  --start-selector CSS    the start control on that page (default: the first submit button)
  --emulator URL          the emulator's base URL (default: $IDV_BASE_URL, else
                          http://localhost:3000/emulator)
  --panel-password PW     the emulator's QA panel password, if it has one
                          (default: $EMULATOR_PANEL_PASSWORD)
  --persona ID            the emulator persona to verify (default: ingrid-haugen)
  --cases LIST            only these cases, comma-separated; * matches anything
                          (e.g. 'wrong_*,expired'); the normal verification always runs
  --jwks-cooldown S       how long after a JWKS fetch your relying party fetches it again for
                          an unknown kid (default: 60, openid-client's; this project's core: 30)
  --case-timeout S        the longest one case may take (default: 60)
  --out DIR               where the reports go (default: conformance-report)
  --list                  list the cases and exit
  --help                  this text

Exit status: 0 when every case passed or did not apply, 1 when one failed or could not be
decided, 2 when the run could not start.`;

function fail(message: string): never {
  process.stderr.write(`conformance: ${message}\n\nRun with --help for the options.\n`);
  process.exit(2);
}

function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0 || parsed > 3600) fail(`--${name} must be a number of seconds from 0 to 3600, not '${value}'`);
  return parsed;
}

function url(name: string, value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
    return parsed.href;
  } catch {
    return fail(`--${name} must be an http or https URL, not '${value}'`);
  }
}

function options(): RunOptions {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        'client-id': { type: 'string' },
        'start-url': { type: 'string' },
        'start-selector': { type: 'string' },
        emulator: { type: 'string' },
        'panel-password': { type: 'string' },
        persona: { type: 'string' },
        cases: { type: 'string' },
        'jwks-cooldown': { type: 'string' },
        'case-timeout': { type: 'string' },
        out: { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (values.list) {
    for (const testCase of CASES) process.stdout.write(`${testCase.id.padEnd(40)} ${testCase.expect.padEnd(18)} ${testCase.fapiTest ?? testCase.otherSuiteTest ?? ''}\n`);
    process.exit(0);
  }
  if (!values['client-id']) fail('--client-id is required');
  if (!values['start-url']) fail('--start-url is required');
  const panelPassword = values['panel-password'] ?? process.env.EMULATOR_PANEL_PASSWORD;
  return {
    clientId: values['client-id'],
    startUrl: url('start-url', values['start-url']),
    ...(values['start-selector'] ? { startSelector: values['start-selector'] } : {}),
    emulator: url('emulator', values.emulator ?? process.env.IDV_BASE_URL ?? 'http://localhost:3000/emulator').replace(/\/+$/, ''),
    ...(panelPassword ? { panelPassword } : {}),
    persona: values.persona ?? 'ingrid-haugen',
    ...(values.cases ? { cases: values.cases.split(',').map((pattern) => pattern.trim()).filter(Boolean) } : {}),
    jwksCooldownSeconds: seconds('jwks-cooldown', values['jwks-cooldown'], 60),
    caseTimeoutSeconds: seconds('case-timeout', values['case-timeout'], 60),
    outDir: resolve(values.out ?? 'conformance-report'),
  };
}

async function main(): Promise<void> {
  const settings = options();
  const live = process.stdout.isTTY === true;
  const status = (text: string) => {
    if (live) process.stdout.write(`\r\x1b[2K${text}`);
  };
  process.stdout.write(
    `Conformance kit: client '${settings.clientId}', start ${settings.startUrl} (${settings.startSelector ?? `first of ${DEFAULT_START_SELECTOR}`}), emulator ${settings.emulator}\n`,
  );
  let report;
  try {
    report = await runConformance(settings, {
      caseStarted: (index, total, testCase) => status(`[${index}/${total}] running ${testCase.id}: ${testCase.title}…`),
      caseEnded: (index, total, result) => {
        status('');
        process.stdout.write(`${progressLine(index, total, result)}\n`);
      },
      waiting: (wait, why) => status(`waiting ${wait} s ${why}…`),
    });
  } catch (error) {
    status('');
    fail(error instanceof Error ? error.message : String(error));
  }
  const junit = join(settings.outDir, 'junit.xml');
  const html = join(settings.outDir, 'index.html');
  await writeFile(junit, junitXml(report));
  await writeFile(html, htmlReport(report));
  process.stdout.write(`\n${textTable(report)}\n\nReport: ${html}\nJUnit XML: ${junit}\n`);
  process.exitCode = passed(report.results) ? 0 : 1;
}

await main();
