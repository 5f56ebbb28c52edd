/**
 * The doctor's findings (lib/verification/doctor-findings.ts) in a reader's words
 * (doctor-messages.ts): what GET /doctor shows and `npm run doctor` prints.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { DoctorDetail, DoctorFindings, DoctorFix, DoctorLine, DoctorStatus, DoctorTitle } from '@/lib/verification/doctor-findings';
import { DOCTOR_MESSAGES } from './doctor-messages';

/** A line in one language's words. */
export interface DoctorLineText {
  id: string;
  title: string;
  status: DoctorStatus;
  detail: string;
  fix?: string;
}

/** The findings in one language's words: what the page shows and `npm run doctor` prints. */
export interface DoctorReport {
  lines: DoctorLineText[];
  /** our public keys, to register with the service */
  publicJwks: DoctorFindings['publicJwks'];
  /** fail when any line fails, warn when any warns */
  status: DoctorStatus;
  mode?: 'emulator' | 'provider';
  /** the variables for staging as lines of an env file, with a comment above each: what the card shows and Copy copies */
  environment?: string;
}

/** A title, detail or fix in `locale`'s words: the catalog's entry for its code, given its values. */
function words(group: 'titles' | 'details' | 'fixes', { code, values }: DoctorTitle | DoctorDetail | DoctorFix, locale: Locale): string {
  const entry = (DOCTOR_MESSAGES[locale][group] as Record<string, string | ((...values: unknown[]) => string)>)[code]!;
  return typeof entry === 'function' ? entry(...values) : entry;
}

/** A line in `locale`'s words. */
export function describeLine({ id, title: heading, status, detail: found, fix }: DoctorLine, locale: Locale): DoctorLineText {
  return { id, title: words('titles', heading, locale), status, detail: words('details', found, locale), ...(fix ? { fix: words('fixes', fix, locale) } : {}) };
}

/** The findings in `locale`'s words. */
export function describeFindings(findings: DoctorFindings, locale: Locale): DoctorReport {
  return {
    lines: findings.lines.map((found) => describeLine(found, locale)),
    publicJwks: findings.publicJwks,
    status: findings.status,
    ...(findings.service ? { mode: findings.service.mode } : {}),
    ...(findings.environment ? { environment: environmentText(findings.environment, locale) } : {}),
  };
}

/**
 * The variables as an env file (compose's .env, `docker run --env-file`), each under a comment in
 * `locale`'s words; placeholders in angle brackets. Never a private key or a secret: the app's
 * own are placeholders too.
 */
export function environmentText({ variables, redirectUri }: NonNullable<DoctorFindings['environment']>, locale: Locale): string {
  const t = DOCTOR_MESSAGES[locale].environment;
  const notes: Record<string, string> = { ...t.notes, APP_URL: t.notes.APP_URL(redirectUri) };
  const printed: string[] = [];
  for (const variable of variables) {
    // A pair under one comment: the encryption key's is the signing key's.
    if (variable.name !== 'IDV_ENCRYPTION_KEY' && notes[variable.name]) printed.push(`# ${notes[variable.name]}`);
    printed.push(
      'value' in variable
        ? `${variable.name}=${variable.value}`
        : `${variable.commented ? '# ' : ''}${variable.name}=<${t.placeholders[variable.placeholder]}>`,
    );
  }
  return printed.join('\n');
}
