import 'server-only';
/** The doctor's findings for this app as configured, kept a while (GET /doctor is public). */
import type { Locale } from '@/lib/i18n/locale';
import type { DoctorFindings } from '@/lib/verification/doctor-findings';
import { describeFindings, type DoctorReport } from '@/lib/view/doctor-words';
import { examineThisApp } from './doctor';

/** `make`'s last result while it is younger than `ms`, a new one after (`now`: ms clock). */
export function reusedFor<T>(ms: number, make: () => T, now: () => number = Date.now): () => T {
  let recent: { value: T; at: number } | undefined;
  return () => {
    const at = now();
    if (!recent || at - recent.at >= ms) recent = { value: make(), at };
    return recent.value;
  };
}

/**
 * The doctor's findings for this app as configured, at most one fresh set per 15 seconds (GET
 * /doctor is public: nobody may make us hammer the service through it). Kept as data, so that a
 * set reused for one reader reads in another's language.
 */
export const doctorFindings: () => Promise<DoctorFindings> = reusedFor(15_000, examineThisApp);

/** The doctor's report for this app as configured, in `locale`'s words (the findings: `doctorFindings`). */
export async function doctorReport(locale: Locale): Promise<DoctorReport> {
  return describeFindings(await doctorFindings(), locale);
}
