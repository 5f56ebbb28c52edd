/**
 * What a service run for QA (the embedded emulator) did on purpose to a flow, as the app's
 * failure path asks it: a port the server is given (services.ts builds it from the embedded
 * emulator; a real service has none), so that nothing of the app imports the service's own
 * catalogue of faults.
 */
import type { Locale } from '@/lib/i18n/locale';
import type { FailureRecord } from './stored';

/** What was done on purpose to one flow, as a failure record keeps it. */
export type DeliberateAnswer = NonNullable<FailureRecord['emulatorAnswer']>;

export interface FlowDiagnostics {
  /** What was done on purpose to the flow of `state`; undefined when nothing was. */
  answerTo(state: string): Promise<DeliberateAnswer | undefined>;
  /**
   * The `state`s of the flows the service altered last, newest first: a fault that changed the
   * redirect's `state` leaves the app without its flow's own, so it looks for one of these.
   */
  alteredFlows(): Promise<string[]>;
  /**
   * A fault's words in `locale`, and whether a correct relying party accepts what it does (so it
   * did not cause the failure); undefined for an id the service does not know (a record kept by
   * another version).
   */
  describeFault(id: string, locale: Locale): { label: string; effect: string; acceptance: boolean } | undefined;
}
