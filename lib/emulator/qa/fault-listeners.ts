/**
 * The faults as listeners of the emulator's events (events.ts): when an answer is about to be
 * made, the faults armed for it (on the panel, through the control or QA API, or for its flow) are
 * taken from the switchboard and added to the event, and the handler makes them. So no handler
 * calls QA's code, and a fault is still made inside the real answer, never on a path of its own.
 * @see DECISIONS.md "Faults", "Answering one flow"
 */
import type { EmulatorEvents } from '../events';
import type { FaultSwitchboard } from './faults';

/** Has `faults` choose the faults of every answer that `events` announces. */
export function subscribeFaults(events: EmulatorEvents, faults: FaultSwitchboard): void {
  events.on('pushed_authorization_request.answering', async ({ clientId, state, faults: chosen }) => {
    for (const id of await faults.take('par_endpoint', clientId, [], state)) chosen.add(id);
  });
  // A JWKS request names no client and no flow: the variants whose window an ID token opened apply.
  events.on('jwks.answering', async ({ faults: chosen }) => {
    for (const id of await faults.openWindows('jwks')) chosen.add(id);
  });
}
