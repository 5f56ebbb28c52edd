import 'server-only';
/**
 * Failure records, for the failure page's detail and trace, kept so that no flood of bad input can
 * crowd out real work (ARCHITECTURE.md "Security choices"):
 * - only for a request that carries a browser binding (no one else could ever read the record);
 * - at most `perAddress` records per client address and `overall` for everyone in each window,
 *   counted in the shared store: beyond them the failure page still shows the code, without
 *   the recorded detail;
 * - each record bounded (the core's message, the service's description, its trace), never the raw input;
 * - in their own space: a memory budget of their own in memory (services.ts), and on Redis at most
 *   `overall` records of at most `MAX_RECORD_BYTES`.
 */
import { isLimitReached, serialise, type Limiter, type Store } from '@/lib/store/store';
import type { RecordStore } from './result-store';
import type { FailureRecord } from '@/lib/verification/stored';

/** A failure page is read within minutes; its record goes after 15. */
export const FAILURE_TTL_SECONDS = 15 * 60;

export interface FailureLimits {
  /** records per client address per window */
  perAddress: number;
  /** records for all addresses together per window */
  overall: number;
  windowSeconds: number;
}

export const FAILURE_LIMITS: FailureLimits = { perAddress: 30, overall: 1000, windowSeconds: FAILURE_TTL_SECONDS };

/** The most a record's JSON may hold; a longer trace is dropped, the code and detail kept. */
export const MAX_RECORD_BYTES = 16 * 1024;
/** Characters kept of the core's message and of the service's error_description. */
export const MAX_MESSAGE_CHARACTERS = 300;
export const MAX_DESCRIPTION_CHARACTERS = 500;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The record as it is kept: its texts clipped, and without its trace when it would not fit. */
export function boundedRecord(record: FailureRecord): FailureRecord {
  const bounded: FailureRecord = {
    ...record,
    ...(record.detail?.kind === 'core_message' ? { detail: { ...record.detail, message: clip(record.detail.message, MAX_MESSAGE_CHARACTERS) } } : {}),
    ...(record.description === undefined ? {} : { description: clip(record.description, MAX_DESCRIPTION_CHARACTERS) }),
  };
  if (serialise(bounded).length <= MAX_RECORD_BYTES) return bounded;
  return { ...bounded, trace: [] };
}

export interface FailureRecorder {
  /**
   * Keeps `record` for the failure page if it belongs to a browser and the limits allow; true
   * when it was kept. A full or unreachable store rejects with its StoreError.
   * @param more what else to record, looked up only once the limits allowed the record (so
   *   that a flood of failures costs no more than its records)
   */
  keep(record: FailureRecord, address: string, more?: () => Promise<Partial<FailureRecord>>): Promise<boolean>;
}

/** Records in `records`, counted by limiters in `counters` (with Redis, across every instance). */
export function createFailureRecorder(records: RecordStore<FailureRecord>, counters: Store, limits: FailureLimits = FAILURE_LIMITS): FailureRecorder {
  const perAddress = counters.limiter('failure-address', limits.perAddress, limits.windowSeconds);
  const overall = counters.limiter('failure-overall', limits.overall, limits.windowSeconds);
  const allowed = async (limiter: Limiter, key: string) => {
    try {
      await limiter.consume(key);
      return true;
    } catch (error) {
      if (isLimitReached(error)) return false;
      throw error;
    }
  };
  return {
    async keep(record, address, more) {
      if (record.browser === undefined) return false;
      if (!(await allowed(perAddress, address)) || !(await allowed(overall, 'all'))) return false;
      const whole = more ? { ...record, ...(await more()) } : record;
      await records.setOwned(record.browser, record.id, boundedRecord(whole), FAILURE_TTL_SECONDS);
      return true;
    },
  };
}
