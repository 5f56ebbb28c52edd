import 'server-only';
/**
 * The embedded emulator as the failure path's FlowDiagnostics (lib/verification/diagnostics.ts):
 * its QA control API answers what it did to a flow, its catalogue words each fault.
 */
import { describeFault, FAULTS, isFaultId, type Emulator } from '@/lib/emulator';
import type { FlowDiagnostics } from '@/lib/verification/diagnostics';

export function emulatorDiagnostics(emulator: Emulator): FlowDiagnostics {
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
        ...(error ? { error: error.error } : {}),
      };
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
