import 'server-only';
/** The doctor's findings for this app as configured, kept a while (GET /doctor is public). */
import type { Locale } from '@/lib/i18n/locale';
import type { DoctorFindings } from '@/lib/verification/doctor-findings';
import { describeFindings, type DoctorReport } from '@/lib/view/doctor-words';
import { examineThisApp } from './doctor';

/** How a reused result may be kept shorter: when `failed` says so of what it settled to, only `retryAfterMs`. */
export interface Reuse<T> {
  failed?: (value: T) => boolean;
  retryAfterMs?: number;
  /** the clock, in ms */
  now?: () => number;
}

/**
 * `make`'s last result while it is younger than `ms`, a new one after. A result that settled to
 * what `failed` says is a failure (or that rejected) is kept only `retryAfterMs`: a service that
 * could not be reached is asked again sooner, so that its recovery shows within seconds, and
 * still at most once per `retryAfterMs` whoever asks.
 */
export function reusedFor<T>(ms: number, make: () => Promise<T>, { failed, retryAfterMs = ms, now = Date.now }: Reuse<T> = {}): () => Promise<T> {
  let recent: { value: Promise<T>; at: number; failed: boolean } | undefined;
  return () => {
    const at = now();
    if (!recent || at - recent.at >= (recent.failed ? retryAfterMs : ms)) {
      const made = { value: make(), at, failed: false };
      made.value.then(
        (value) => (made.failed = failed?.(value) ?? false),
        () => (made.failed = true),
      );
      recent = made;
    }
    return recent.value;
  };
}

/** How soon a service that could not be reached is asked again (`reusedFor`'s `retryAfterMs`). */
export const UNREACHABLE_RETRY_MS = 2_000;

/**
 * The doctor's findings for this app as configured, at most one fresh set per 15 seconds (GET
 * /doctor is public: nobody may make us hammer the service through it), or per 2 s while the
 * service cannot be reached. Kept as data, so that a set reused for one reader reads in another's
 * language.
 */
export const doctorFindings: () => Promise<DoctorFindings> = reusedFor(15_000, examineThisApp, {
  failed: (findings) => findings.service?.problem !== undefined,
  retryAfterMs: UNREACHABLE_RETRY_MS,
});

/** The doctor's report for this app as configured, in `locale`'s words (the findings: `doctorFindings`). */
export async function doctorReport(locale: Locale): Promise<DoctorReport> {
  return describeFindings(await doctorFindings(), locale);
}
