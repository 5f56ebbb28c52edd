import 'server-only';
/**
 * The embedded emulator as the failure path's FlowDiagnostics (lib/verification/diagnostics.ts):
 * its QA control API answers what it did to a flow and answers a new flow the same way, its
 * catalogue words each fault.
 */
import { describeFault, FAULTS, isFaultId, type Emulator, type FaultId } from '@/lib/emulator';
import type { DeliberateAnswer, FlowDiagnostics } from '@/lib/verification/diagnostics';

/** The faults of a recorded answer that the emulator still knows (a record kept by another version may name others), all of them: reached or not. */
function knownFaults(answer: DeliberateAnswer): FaultId[] {
  return [...answer.faults, ...(answer.unreached ?? [])].filter(isFaultId);
}

const spoilsPush = (id: FaultId) => FAULTS.find((fault) => fault.id === id)?.target === 'par_endpoint';

/** @param clientId our client at the emulator: what it arms is for our flows */
export function emulatorDiagnostics(emulator: Emulator, clientId: string): FlowDiagnostics {
  return {
    async answerTo(state) {
      const { faults, error } = await emulator.control.flowAnswers(state);
      if (faults.length === 0 && !error) return undefined;
      // A JWKS outage taken with the flow's ID token that no JWKS request met: the flow is over
      // (it failed, or the relying party used its cached key), so it never will.
      const unreached = faults.filter((fault) => fault.reached === false).map((fault) => fault.id);
      return {
        faults: faults.filter((fault) => fault.reached !== false).map((fault) => fault.id),
        ...(unreached.length > 0 ? { unreached } : {}),
        ...(faults[0] ? { chosen: faults[0].chosen } : {}),
        ...(error ? { error: error.error, errorDescription: error.description } : {}),
      };
    },
    async answerPushAgain(answer) {
      for (const id of knownFaults(answer).filter(spoilsPush)) await emulator.control.armFault(id, clientId);
    },
    async answerFlowAgain(state, answer) {
      const faults = knownFaults(answer).filter((id) => !spoilsPush(id));
      const error =
        answer.error !== undefined && answer.errorDescription !== undefined ? { error: answer.error, description: answer.errorDescription } : undefined;
      if (faults.length > 0 || error) await emulator.control.answerFlowAgain(state, clientId, { faults, ...(error ? { error } : {}) });
    },
    async alteredFlows() {
      return (await emulator.control.injectedFaults()).flatMap((fault) => (fault.state === undefined ? [] : [fault.state]));
    },
    describeFault(id, locale) {
      if (!isFaultId(id)) return undefined;
      return { ...describeFault(id, locale), acceptance: FAULTS.find((fault) => fault.id === id)?.kind === 'acceptance' };
    },
  };
}
