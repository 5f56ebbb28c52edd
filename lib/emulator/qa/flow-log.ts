/**
 * The flow log: listeners of the emulator's events (events.ts) that write what the emulator saw
 * and answered into each flow's trace (flow-trace.ts), and the JWKS responses into their log, for
 * the QA API. The handlers only say what happened; the details shown, and what is masked, are
 * decided here.
 * @see DECISIONS.md "The QA API and the flow trace"
 */
import type { EmulatorEvents } from '../events';
import type { FlowTraces } from './flow-trace';

/** Has `traces` keep what `events` tell of every flow. */
export function subscribeFlowLog(events: EmulatorEvents, traces: FlowTraces): void {
  events.on('jwks.answered', ({ kids, faults }) => traces.recordJwksFetch(kids, faults));
}
