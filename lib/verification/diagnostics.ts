/**
 * What a service run for QA (the embedded emulator) did on purpose to a flow, as the app's
 * failure path asks it, and the same answer again for the failure page's "Try the same request
 * again": a port the server is given (services.ts builds it from the embedded emulator; a real
 * service has none), so that nothing of the app imports the service's own catalogue of faults.
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
  /**
   * Before a new flow's request is pushed: arms the faults of `answer` that spoil a push, for our
   * client and one-shot, as its QA panel arms them (nothing names a flow before its push), so that
   * the request asked for again meets the same answer.
   */
  answerPushAgain(answer: DeliberateAnswer): Promise<void>;
  /** Once the new flow of `state` is pushed: the rest of `answer` (its faults, its error), for that flow alone. */
  answerFlowAgain(state: string, answer: DeliberateAnswer): Promise<void>;
}
