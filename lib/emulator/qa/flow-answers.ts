/**
 * How the service answers one flow, as a QA tester chose it on that flow's own pages (the
 * authorization page, the identity app): normally, with a fault of the catalogue, or with an error
 * of the authorization response. A fault chosen here is armed for the flow's `state` only
 * (qa/faults.ts `armForFlow`) and is applied exactly as one armed on the panel; an error chosen
 * here replaces the flow's answer on the redirect back (identity-app/decision.ts).
 *
 * The errors are those an authorization response may carry (RFC 6749 §4.1.2.1) that the
 * service's interface specification names: part 7's codes except `invalid_client` (a client
 * authentication error, which RFC 6749 §4.1.2.1 does not list for the redirect), with part 7's
 * meaning as the description; and `access_denied`, which the emulator already answers for a
 * cancelled verification and for a failed face or issuer check, with the very descriptions it
 * gives then. The spec names no code for problems with the document, so none is invented.
 * @see spec part 7; RFC 6749 §4.1.2.1; DECISIONS.md "Answering one flow"
 */
import { FAULTS, isFaultId, type FaultId } from './faults';

/** The errors a flow may be answered with. */
export const FLOW_ERRORS = [
  { id: 'user_cancelled', error: 'access_denied', description: 'the user cancelled the verification' },
  { id: 'face_check_failed', error: 'access_denied', description: 'the face check failed: the face did not match the portrait on the document' },
  {
    id: 'issuer_check_required',
    error: 'access_denied',
    description: "the standard_etsi trust framework requires a valid issuer check, and the document's issuer check is not VALID",
  },
  { id: 'invalid_request', error: 'invalid_request', description: 'Missing or invalid parameters' },
  { id: 'unauthorized_client', error: 'unauthorized_client', description: 'Client not authorized for this request' },
  { id: 'invalid_scope', error: 'invalid_scope', description: 'Invalid scope value' },
  { id: 'server_error', error: 'server_error', description: 'Internal server error' },
  { id: 'temporarily_unavailable', error: 'temporarily_unavailable', description: 'Service temporarily unavailable' },
] as const;

export type FlowError = (typeof FLOW_ERRORS)[number];
export type FlowErrorId = FlowError['id'];

/**
 * The faults a flow may be answered with: every fault of the catalogue whose response comes
 * after the flow's pages. PAR faults spoil the request that creates a flow, so they are the
 * panel's ("arm and start").
 */
export const FLOW_FAULTS: readonly FaultId[] = FAULTS.filter((fault) => fault.target !== 'par_endpoint').map((fault) => fault.id);

/** How the service answers one flow. */
export type FlowAnswer = { kind: 'normal' } | { kind: 'fault'; fault: FaultId } | { kind: 'error'; error: FlowErrorId };

export const NORMAL_ANSWER: FlowAnswer = { kind: 'normal' };

const FLOW_ERRORS_BY_ID: ReadonlyMap<string, FlowError> = new Map(FLOW_ERRORS.map((error) => [error.id, error]));

/** The table row of a flow error. */
export function flowErrorById(id: FlowErrorId): FlowError {
  return FLOW_ERRORS_BY_ID.get(id)!;
}

/** The value of a choice in the chooser's form: `normal`, `fault:<id>` or `error:<id>`. */
export function encodeFlowAnswer(answer: FlowAnswer): string {
  switch (answer.kind) {
    case 'normal':
      return 'normal';
    case 'fault':
      return `fault:${answer.fault}`;
    case 'error':
      return `error:${answer.error}`;
  }
}

/** The choice a form value names, or undefined for anything else. */
export function decodeFlowAnswer(value: string | undefined): FlowAnswer | undefined {
  if (value === 'normal') return NORMAL_ANSWER;
  const [kind, id, ...rest] = (value ?? '').split(':');
  if (rest.length > 0 || id === undefined) return undefined;
  if (kind === 'fault' && isFaultId(id) && FLOW_FAULTS.includes(id)) return { kind: 'fault', fault: id };
  if (kind === 'error' && FLOW_ERRORS_BY_ID.has(id)) return { kind: 'error', error: id as FlowErrorId };
  return undefined;
}
