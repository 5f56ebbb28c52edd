/**
 * `npm run doctor`: checks the configuration, then fetches the service's discovery document and
 * JWKS and checks them against what the spec and this client need (lib/server/doctor.ts), one
 * line each with what to do, and prints our public JWKS to register (in emulator mode, also the
 * variables that point the app at staging). Reads the same environment
 * variables as `npm start`. Exit status 1 when a line fails, 2 for an argument it does not know.
 * Against the embedded emulator (no IDV_BASE_URL) every line passes.
 *
 *   npm run doctor                  in English
 *   npm run doctor -- --lang nb     in Norwegian (bokmål)
 */
import { isLocale, LOCALES, type Locale } from '../lib/i18n/locale';
import { doctorReport } from '../lib/server/doctor-cache';
import type { DoctorStatus } from '../lib/verification/doctor-findings';
import { DOCTOR_MESSAGES } from '../lib/view/doctor-messages';
import type { DoctorReport } from '../lib/view/doctor-words';

export interface DoctorOptions {
  locale: Locale;
}

export function parseDoctorArguments(args: string[]): DoctorOptions {
  const options: DoctorOptions = { locale: 'en' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--lang' || arg.startsWith('--lang=')) {
      const value = arg === '--lang' ? args[++i] : arg.slice('--lang='.length);
      if (!isLocale(value)) throw new Error(`--lang must be one of ${LOCALES.join(', ')}`);
      options.locale = value;
    } else throw new Error(`unknown argument "${arg}" (use --lang ${LOCALES.join('|')})`);
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

const invokedDirectly = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/^.*[\\/]/, ''));
if (invokedDirectly) {
  let options: DoctorOptions;
  try {
    options = parseDoctorArguments(process.argv.slice(2));
  } catch (error) {
    console.error(`doctor: ${(error as Error).message}`);
    process.exit(2);
  }
  const report = await doctorReport(options.locale);
  console.log(renderReport(report, options.locale));
  process.exit(report.status === 'fail' ? 1 : 0);
}
