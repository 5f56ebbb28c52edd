import 'server-only';
/** The doctor's findings (doctor.ts) in a reader's words (doctor-messages.ts). */
import type { Locale } from '@/lib/i18n/locale';
import type { FetchLike } from '@/lib/oidc';
import { DOCTOR_MESSAGES, type DoctorText } from './doctor-messages';
import { examine, type DoctorFindings, type DoctorLine, type DoctorLineText, type DoctorReport } from './doctor';
import type { ServerConfig } from './env';

/** A text of the catalog in `locale`'s words. */
function words<Group extends 'titles' | 'details' | 'fixes'>(group: Group, text: DoctorText<Group>, locale: Locale): string {
  const entry = DOCTOR_MESSAGES[locale][group][text.key] as unknown as string | ((...args: unknown[]) => string);
  return typeof entry === 'function' ? entry(...text.args) : entry;
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

/** Every check, in `locale`'s words (English unless asked: what `npm run doctor` prints by default). */
export async function runDoctor(config: ServerConfig, fetch?: FetchLike, locale: Locale = 'en'): Promise<DoctorReport> {
  return describeFindings(await examine(config, fetch), locale);
}
