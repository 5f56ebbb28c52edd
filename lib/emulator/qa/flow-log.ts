/**
 * The flow log: listeners of the emulator's events (events.ts) that write what the emulator saw
 * and answered into each flow's trace (flow-trace.ts), and the JWKS responses into their log, for
 * the QA API. The handlers only say what happened; the details shown, and what is masked, are
 * decided here.
 * @see DECISIONS.md "The QA API and the flow trace"
 */
import { REQUEST_URI_PREFIX } from '../config';
import type { AssertionHeader, EmulatorEventMap, EmulatorEvents } from '../events';
import { masked, type FlowEvent, type FlowTraces } from './flow-trace';

/** Has `traces` keep what `events` tell of every flow. */
export function subscribeFlowLog(events: EmulatorEvents, traces: FlowTraces): void {
  // Only a client that authenticated is told of, so an anonymous request never makes a record. A
  // flow is listed among its client's once its PAR passed every check (accepted, or a PAR fault).
  events.on('pushed_authorization_request.answered', async ({ clientId, state, assertion, answer }) => {
    const event = parEvent(clientId, assertion, answer);
    await Promise.all([traces.record(state, clientId, event), ...(answer.outcome === 'refused' ? [] : [traces.list(state, clientId)])]);
  });
  events.on('jwks.answered', ({ kids, faults }) => traces.recordJwksFetch(kids, faults));
}

/** POST /par's answer as the trace shows it: the request_uri masked, the claims requested by name. */
function parEvent(
  clientId: string,
  assertion: AssertionHeader,
  answer: EmulatorEventMap['pushed_authorization_request.answered']['answer'],
): Omit<FlowEvent, 'at'> {
  const signedWith = { assertion_alg: assertion.alg, assertion_kid: assertion.kid };
  if (answer.outcome === 'refused') {
    const { error } = answer;
    return {
      step: 'par',
      outcome: 'refused',
      summary: `The pushed authorization request was refused with ${error.status} ${error.error}.`,
      details: { status: error.status, error: error.error, error_description: error.description, ...signedWith },
    };
  }
  if (answer.outcome === 'fault') {
    const { fault, error } = answer;
    return {
      step: 'par',
      outcome: 'fault',
      summary: `The fault ${fault} answered the pushed authorization request with ${error.status} ${error.error}.`,
      details: { fault, status: error.status, error: error.error, ...signedWith },
    };
  }
  const { requestUri, expiresIn, request } = answer;
  return {
    step: 'par',
    outcome: 'ok',
    summary: `The pushed authorization request of client ${clientId} was accepted.`,
    details: {
      // The prefix, and the start of the random part: enough to tell two flows apart.
      request_uri: masked(requestUri, REQUEST_URI_PREFIX.length + 8),
      expires_in: expiresIn,
      verified_claims: request.claims.claims.map(({ name }) => name),
      trust_framework: request.claims.trustFramework,
      ...(request.loginHint === undefined ? {} : { login_hint: request.loginHint }),
      ...signedWith,
    },
  };
}
