/**
 * `npm run doctor`: asks the running app for its own doctor's findings (GET /doctor/findings,
 * what GET /doctor shows: its configuration, and the discovery document and JWKS of the service it
 * talks to, checked against the spec and this client) and prints them, one line each with what to
 * do, then our public JWKS to register (in emulator mode, also the variables that point the app at
 * staging). It says first which app it asked. The app is the one at APP_URL (else
 * http://localhost:$PORT, as `npm start` reads them), or at `--url`. Exit status 1 when a line
 * fails or nothing answers there (with how to start the app), 2 for an argument it does not know.
 *
 *   npm run doctor                                  the app at APP_URL, in English
 *   npm run doctor -- --url http://localhost:3001   the app there
 *   npm run doctor -- --lang nb                     in Norwegian (bokmål)
 */
import { parseAppUrl } from '../lib/server/env';
import { transportCause } from '../lib/server/doctor-checks';
import { isLocale, LOCALES, type Locale } from '../lib/i18n/locale';
import { readJsonObject, send } from '../lib/oidc/http';
import type { DoctorFindings, DoctorStatus } from '../lib/verification/doctor-findings';
import { DOCTOR_MESSAGES } from '../lib/view/doctor-messages';
import { describeFindings, type DoctorReport } from '../lib/view/doctor-words';

/** The app's route that gives its findings as data (app/doctor/findings/route.ts). */
export const FINDINGS_PATH = '/doctor/findings';

/**
 * How long the app may take: its findings may need two requests to a silent service, each given
 * up after 10 s (the core's timeout).
 */
const FINDINGS_TIMEOUT_MS = 30_000;

export interface DoctorOptions {
  locale: Locale;
  /** the app's origin, from --url; else APP_URL's */
  url?: string;
}

/** An http(s) origin, for --url (a path is dropped: the findings are at the origin's /doctor/findings). */
function parseOrigin(value: string | undefined): string {
  let url: URL | undefined;
  try {
    url = new URL(value ?? '');
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new Error("--url must be the app's http(s) address, such as http://localhost:3000");
  return url.origin;
}

export function parseDoctorArguments(args: string[]): DoctorOptions {
  const options: DoctorOptions = { locale: 'en' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name === '--lang') {
      const value = inline ?? args[++i];
      if (!isLocale(value)) throw new Error(`--lang must be one of ${LOCALES.join(', ')}`);
      options.locale = value;
    } else if (name === '--url') {
      options.url = parseOrigin(inline ?? args[++i]);
    } else throw new Error(`unknown argument "${arg}" (use --lang ${LOCALES.join('|')}, --url <the app's address>)`);
  }
  return options;
}

/** The report as printed: a line per check (its fix under it), the summary, our public JWKS. */
export function renderReport(report: DoctorReport, locale: Locale): string {
  const t = DOCTOR_MESSAGES[locale];
  // The marks padded alike, so that the titles line up: "PASS  ", "WARN  " in English.
  const width = Math.max(...Object.values(t.marks).map((mark) => mark.length)) + 2;
  const printed: string[] = [];
  for (const { status, title, detail, fix } of report.lines) {
    printed.push(`${t.marks[status].padEnd(width)}${title}: ${detail}`);
    if (fix) printed.push(`${' '.repeat(width)}→ ${fix}`);
  }
  const counts = (status: DoctorStatus) => report.lines.filter((line) => line.status === status).length;
  printed.push(`\n${t.passed(counts('pass'))}${t.others(counts('warn'), counts('fail'))}`);
  if (report.publicJwks.keys.length > 0) printed.push(`\n${t.publicJwksPrinted}`, JSON.stringify(report.publicJwks, null, 2));
  if (report.environment && report.mode === 'emulator') printed.push(`\n${t.environment.printed}`, report.environment);
  return printed.join('\n');
}

/** What the doctor of the app at `app` found, or what to say when it could not be asked. */
export async function askApp(app: string, locale: Locale): Promise<{ findings: DoctorFindings; url: string } | { problem: string }> {
  const t = DOCTOR_MESSAGES[locale].cli;
  const url = new URL(FINDINGS_PATH, app).href;
  let response: Response;
  try {
    // The findings are public (GET /doctor shows them): plain http is allowed, we send nothing.
    response = await send(url, { headers: { accept: 'application/json' } }, { allowInsecureRequests: true, timeoutMs: FINDINGS_TIMEOUT_MS }, 'The app');
  } catch (error) {
    return { problem: t.unreachable(app, DOCTOR_MESSAGES[locale].causes[transportCause(error)]) };
  }
  const body = response.status === 200 ? await readJsonObject(response, 'The findings').catch(() => undefined) : undefined;
  if (!body || !Array.isArray(body.lines) || typeof body.status !== 'string' || !body.publicJwks) return { problem: t.notFindings(url, response.status) };
  return { findings: body as unknown as DoctorFindings, url };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*[\\/]/, ''));
if (invokedDirectly) {
  let options: DoctorOptions;
  let app: string;
  try {
    options = parseDoctorArguments(process.argv.slice(2));
    app = options.url ?? parseAppUrl(process.env);
  } catch (error) {
    console.error(`doctor: ${(error as Error).message}`);
    process.exit(2);
  }
  const asked = await askApp(app, options.locale);
  if ('problem' in asked) {
    console.error(`doctor: ${asked.problem}`);
    process.exit(1);
  }
  console.log(`${DOCTOR_MESSAGES[options.locale].cli.asked(app, asked.url)}\n`);
  const report = describeFindings(asked.findings, options.locale);
  console.log(renderReport(report, options.locale));
  process.exit(report.status === 'fail' ? 1 : 0);
}
