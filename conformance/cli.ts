/**
 * The conformance kit's command: runs every case against a relying party, in Chromium, answered
 * by an emulator (its own, or a running one's with --emulator), prints a live progress line and
 * a table, writes a JUnit XML file and an HTML report, and exits 1 when a case fails or cannot
 * be decided (2 when the run cannot start).
 *
 *   npm run conformance -- --client-id my-rp --start-url http://127.0.0.1:8000/ \
 *     --client-jwks jwks.json --redirect-uri http://127.0.0.1:8000/callback
 *
 * conformance/README.md is its manual.
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CASES } from './cases';
import { readClientKeys, registeredClient, startEmulatorServer, type EmulatorServer } from './emulator-server';
import { relyingPartyEnvironment, startRelyingParty, waitForStartPage, type StartedRelyingParty } from './relying-party';
import { htmlReport, junitXml, progressLine, textTable } from './reports';
import { passed, runConformance, type RunOptions } from './runner';

/** The port of the kit's own emulator when none is given: one a relying party can be set up with ahead. */
export const DEFAULT_EMULATOR_PORT = 3999;

const USAGE = `Usage: npm run conformance -- --client-id ID --start-url URL [options]

Runs ${CASES.length} cases, each one whole verification in Chromium, against your relying party,
and decides each by itself. Without --emulator, the kit starts an emulator of its own at
http://127.0.0.1:${DEFAULT_EMULATOR_PORT} (--emulator-port): point your relying party's issuer there
(this project's apps and examples read IDV_BASE_URL).

The relying party:
  --client-id ID          its client_id (required)
  --start-url URL         the page where a verification starts (required)
  --start-selector CSS    its start control (default: data-testid="start", else a button or
                          link named like Start, Verify or Log in, else the first submit button)
  --rp-command CMD        start it with this shell command once the emulator listens (with
                          IDV_BASE_URL set to the emulator), and stop it at the end
  --start-wait S          how long to wait for the start page to answer at all (default: 120
                          with --rp-command, else 60)
The emulator (the kit's own):
  --client-jwks FILE|JSON the relying party's public JWKS (a signing key and its RSA
                          encryption key), a file or the JSON itself
  --redirect-uri URL      its redirect URI (repeatable); with --client-jwks
                          (default for both: the client named --client-id in $EMULATOR_CLIENTS)
  --emulator-port N       the port it listens on (default ${DEFAULT_EMULATOR_PORT}; 0: any free port)
  --emulator-host HOST    the address it listens on (default 127.0.0.1)
The emulator (a running one, e.g. this app's embedded one, http://localhost:3000/emulator):
  --emulator URL          its base URL (default: the kit's own)
  --panel-password PW     its QA panel's password, if it has one
                          (default: $EMULATOR_PANEL_PASSWORD)
  --lock-wait S           how long to wait while another run holds it (default: 600)
The cases:
  --cases LIST            only these, comma-separated; * matches anything
                          (e.g. 'wrong_*,expired'); the normal verification always runs
  --no-client-wide        leave out the cases that touch every verification of the client
                          while they run (PAR faults, key rotation, JWKS variants)
  --workers N             per-flow cases run side by side, each in a browser context of its
                          own (default: 4); client-wide ones always run alone, at the end
  --persona ID            the emulator persona to verify (default: ingrid-haugen)
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

function number(name: string, value: string | undefined, fallback: number, { min, max }: { min: number; max: number }): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || parsed < min || parsed > max) fail(`--${name} must be a number from ${min} to ${max}, not '${value}'`);
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

/** What the command line asks for: the run, and how to reach or start the emulator and the relying party. */
interface Command {
  run: Omit<RunOptions, 'emulator'> & { emulator?: string };
  /** how long to wait for the start page, in seconds */
  startWaitSeconds: number;
  ownEmulator?: { host: string; port: number; jwks?: string; redirectUris: string[] };
  rpCommand?: string;
}

function command(): Command {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        'client-id': { type: 'string' },
        'start-url': { type: 'string' },
        'start-selector': { type: 'string' },
        'rp-command': { type: 'string' },
        'start-wait': { type: 'string' },
        'client-jwks': { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        'emulator-port': { type: 'string' },
        'emulator-host': { type: 'string' },
        emulator: { type: 'string' },
        'panel-password': { type: 'string' },
        'lock-wait': { type: 'string' },
        cases: { type: 'string' },
        'no-client-wide': { type: 'boolean' },
        workers: { type: 'string' },
        persona: { type: 'string' },
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
    for (const testCase of CASES) {
      process.stdout.write(
        `${testCase.id.padEnd(40)} ${testCase.expect.padEnd(18)} ${testCase.clientWide ? 'client-wide ' : ''}${testCase.fapiTest ?? testCase.otherSuiteTest ?? ''}\n`,
      );
    }
    process.exit(0);
  }
  if (!values['client-id']) fail('--client-id is required');
  if (!values['start-url']) fail('--start-url is required');
  const redirectUris = (values['redirect-uri'] ?? []).map((uri) => url('redirect-uri', uri));
  if (values.emulator && (values['client-jwks'] || redirectUris.length > 0 || values['emulator-port'] || values['emulator-host'])) {
    fail(
      "--client-jwks, --redirect-uri, --emulator-port and --emulator-host are for the kit's own emulator: leave them out with --emulator (register the client with that emulator instead)",
    );
  }
  const panelPassword = values['panel-password'] ?? process.env.EMULATOR_PANEL_PASSWORD;
  return {
    run: {
      clientId: values['client-id'],
      startUrl: url('start-url', values['start-url']),
      ...(values['start-selector'] ? { startSelector: values['start-selector'] } : {}),
      ...(values.emulator ? { emulator: url('emulator', values.emulator).replace(/\/+$/, '') } : {}),
      ...(values.emulator && panelPassword ? { panelPassword } : {}),
      persona: values.persona ?? 'ingrid-haugen',
      ...(values.cases
        ? {
            cases: values.cases
              .split(',')
              .map((pattern) => pattern.trim())
              .filter(Boolean),
          }
        : {}),
      clientWide: !values['no-client-wide'],
      workers: number('workers', values.workers, 4, { min: 1, max: 16 }),
      jwksCooldownSeconds: number('jwks-cooldown', values['jwks-cooldown'], 60, { min: 0, max: 3600 }),
      caseTimeoutSeconds: number('case-timeout', values['case-timeout'], 60, { min: 1, max: 3600 }),
      lockWaitSeconds: number('lock-wait', values['lock-wait'], 600, { min: 0, max: 86400 }),
      outDir: resolve(values.out ?? 'conformance-report'),
    },
    ...(values.emulator
      ? {}
      : {
          ownEmulator: {
            host: values['emulator-host'] ?? '127.0.0.1',
            port: number('emulator-port', values['emulator-port'], DEFAULT_EMULATOR_PORT, { min: 0, max: 65535 }),
            ...(values['client-jwks'] ? { jwks: values['client-jwks'] } : {}),
            redirectUris,
          },
        }),
    ...(values['rp-command'] ? { rpCommand: values['rp-command'] } : {}),
    startWaitSeconds: number('start-wait', values['start-wait'], values['rp-command'] ? 120 : 60, { min: 0, max: 3600 }),
  };
}

async function main(): Promise<void> {
  const { run, ownEmulator, rpCommand, startWaitSeconds } = command();
  const live = process.stdout.isTTY === true;
  const status = (text: string) => {
    if (live) process.stdout.write(`\r\x1b[2K${text}`);
  };
  let emulator: EmulatorServer | undefined;
  let relyingParty: StartedRelyingParty | undefined;
  // Ctrl-C or SIGTERM (a CI job cancelled): no case starts after it, the run's faults and lock
  // are given back, and what the kit started stops.
  const stop = new AbortController();
  const onSignal = () => {
    status('');
    process.stderr.write('conformance: stopping (the case under way ends first)…\n');
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let problem: string | undefined;
  try {
    const keys = ownEmulator?.jwks === undefined ? undefined : readClientKeys(ownEmulator.jwks);
    if (ownEmulator) {
      const client = registeredClient({
        clientId: run.clientId,
        ...(keys ? { keys } : {}),
        redirectUris: ownEmulator.redirectUris,
        ...(process.env.EMULATOR_CLIENTS ? { emulatorClients: process.env.EMULATOR_CLIENTS } : {}),
      });
      emulator = await startEmulatorServer({ client, host: ownEmulator.host, port: ownEmulator.port });
      process.stdout.write(`Emulator: ${emulator.baseUrl}, the kit's own, with client '${client.clientId}' (redirect URI ${client.redirectUris.join(', ')})\n`);
    }
    const settings: RunOptions = { ...run, emulator: run.emulator ?? emulator!.baseUrl };
    if (rpCommand) {
      relyingParty = startRelyingParty(rpCommand, relyingPartyEnvironment(process.env, settings.emulator, settings.clientId, keys));
      process.stdout.write(
        `Relying party: started with \`${rpCommand}\` (IDV_BASE_URL=${settings.emulator}, IDV_CLIENT_ID=${settings.clientId}${keys?.privateKeys ? ', its keys from --client-jwks' : ''})\n`,
      );
    }
    await waitForStartPage(settings.startUrl, relyingParty, startWaitSeconds * 1000);
    process.stdout.write(
      `Conformance kit: client '${settings.clientId}', start ${settings.startUrl}${settings.startSelector ? ` (${settings.startSelector})` : ''}, emulator ${settings.emulator}, ${settings.workers} at a time${settings.clientWide ? '' : ', no client-wide cases'}\n`,
    );
    const report = await runConformance(
      settings,
      {
        caseStarted: (index, total, testCase) => status(`[${index}/${total}] running ${testCase.id}: ${testCase.title}…`),
        caseEnded: (index, total, result) => {
          status('');
          process.stdout.write(`${progressLine(index, total, result)}\n`);
        },
        // A terminal sees the wait on the status line; a CI log gets a line of its own.
        waiting: (wait, why) => (live ? status(`waiting ${wait} s ${why}…`) : process.stdout.write(`waiting ${wait} s ${why}…\n`)),
      },
      stop.signal,
    );
    const junit = join(settings.outDir, 'junit.xml');
    const html = join(settings.outDir, 'index.html');
    await writeFile(junit, junitXml(report));
    await writeFile(html, htmlReport(report));
    process.stdout.write(`\n${textTable(report)}\n\nReport: ${html}\nJUnit XML: ${junit}\n`);
    process.exitCode = passed(report.results) ? 0 : 1;
  } catch (error) {
    status('');
    problem = stop.signal.aborted ? 'stopped before the run ended; no report was written' : error instanceof Error ? error.message : String(error);
  } finally {
    await relyingParty?.stop();
    await emulator?.close();
  }
  if (problem !== undefined) fail(problem);
}

await main();
