/**
 * The flow log: listeners of the emulator's events (events.ts) that write what the emulator saw
 * and answered into each flow's trace (flow-trace.ts), and the JWKS responses into their log, for
 * the QA API. The handlers only say what happened; the details shown, and what is masked, are
 * decided here.
 * @see DECISIONS.md "The QA API and the flow trace"
 */
import type { AuthorizationResponseFault } from '../answer-faults';
import { REQUEST_URI_PREFIX } from '../config';
import type { AssertionHeader, EmulatorEventMap, EmulatorEvents, IssuedIdToken } from '../events';
import type { ErrorBody, Interaction, InteractionDecision } from '../state';
import { masked, type FlowEvent, type FlowEventDetail, type FlowTraces } from './flow-trace';

/** Has `traces` keep what `events` tell of every flow. */
export function subscribeFlowLog(events: EmulatorEvents, traces: FlowTraces): void {
  // Only a client that authenticated is told of, so an anonymous request never makes a record. A
  // flow is listed among its client's once its PAR passed every check (accepted, or a PAR fault).
  events.on('pushed_authorization_request.answered', async ({ clientId, state, assertion, answer }) => {
    const event = parEvent(assertion, answer);
    await Promise.all([traces.record(state, clientId, event), ...(answer.outcome === 'refused' ? [] : [traces.list(state, clientId)])]);
  });
  // The flow a request_uri opened (the QA API finds a flow by it), and the step itself.
  events.on('interaction.started', async ({ clientId, state, requestUri, uiLocales }) => {
    await Promise.all([
      traces.rememberRequestUri(requestUri, state, clientId),
      traces.record(state, clientId, {
        step: 'authorization_page',
        outcome: 'ok',
        details: { client_id: clientId, ui_locales: uiLocales ?? 'none' },
      }),
    ]);
  });
  events.on('flow_answer.chosen', ({ clientId, state, answer }) =>
    traces.record(state, clientId, {
      step: 'flow_answer',
      outcome: 'ok',
      details: { chosen_with: 'chooser', faults: answer.kind === 'fault' ? [answer.fault] : [], ...(answer.kind === 'error' ? { error: answer.error } : {}) },
    }),
  );
  events.on('authorization.answered', ({ interaction, decision, chosenError, parameters, faults }) =>
    traces.record(
      interaction.request.state,
      interaction.clientId,
      decisionEvent(decision, chosenError),
      redirectEvent(interaction, parameters, faults, chosenError !== undefined),
    ),
  );
  // The given name QA chose for this flow (the QA API), if any, replaces the persona's.
  events.on('id_token.answering', async (answering) => {
    const givenName = answering.state === undefined ? undefined : await traces.givenName(answering.state, answering.clientId);
    if (givenName !== undefined) answering.givenName = givenName;
  });
  events.on('token.answered', async (answered) => {
    const { state, clientId } = answered.grant;
    if (state !== undefined) await traces.record(state, clientId, ...(await tokenEvents(answered)));
  });
  events.on('jwks.answered', ({ kids, faults }) => traces.recordJwksFetch(kids, faults));
}

/** POST /par's answer as the trace shows it: the request_uri masked, the claims requested by name. */
function parEvent(assertion: AssertionHeader, answer: EmulatorEventMap['pushed_authorization_request.answered']['answer']): Omit<FlowEvent, 'at'> {
  const signedWith = { assertion_alg: assertion.alg, assertion_kid: assertion.kid };
  if (answer.outcome === 'refused') {
    const { error } = answer;
    return {
      step: 'par',
      outcome: 'refused',
      details: { status: error.status, error: error.error, error_description: error.description, ...signedWith },
    };
  }
  if (answer.outcome === 'fault') {
    const { fault, error } = answer;
    return {
      step: 'par',
      outcome: 'fault',
      details: { fault, status: error.status, error: error.error, ...signedWith },
    };
  }
  const { requestUri, expiresIn, request } = answer;
  return {
    step: 'par',
    outcome: 'ok',
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

/** The decision as the trace shows it; `replacedBy`: the error QA chose instead. */
function decisionEvent(decision: InteractionDecision, replacedBy?: ErrorBody): Omit<FlowEvent, 'at'> {
  const replaced: Record<string, string> = replacedBy ? { replaced_by_flow_answer: replacedBy.error } : {};
  if (decision.outcome === 'approved') {
    return {
      step: 'decision',
      outcome: 'ok',
      details: { persona: decision.personaId, auth_time: decision.authTime, ...replaced },
    };
  }
  return {
    step: 'decision',
    outcome: 'refused',
    details: { error: decision.error.error, error_description: decision.error.description, ...replaced },
  };
}

/** The redirect as the flow trace shows it: the parameters it carried, the code masked. */
function redirectEvent(
  interaction: Interaction,
  response: URLSearchParams,
  faults: ReadonlySet<AuthorizationResponseFault>,
  chosen: boolean,
): Omit<FlowEvent, 'at'> {
  const state = response.get('state');
  const stateFault = faults.has('wrong_state') ? 'wrong_state' : faults.has('missing_state') ? 'missing_state' : undefined;
  const code = response.get('code');
  const error = response.get('error');
  const carried = [...new Set(response.keys())];
  const applied = [...faults];
  return {
    step: 'redirect',
    outcome: applied.length > 0 || chosen ? 'fault' : error === null ? 'ok' : 'refused',
    details: {
      redirect_uri: interaction.request.redirectUri,
      parameters: carried,
      ...(code === null ? {} : { code: masked(code, 4) }),
      ...(error === null ? {} : { error, error_description: response.get('error_description') ?? '' }),
      state: state ?? 'omitted',
      ...(stateFault ? { state_changed_by: stateFault } : {}),
      iss: response.get('iss') ?? 'omitted',
      faults: applied,
    },
  };
}

/** The token request, the ID token issued (if one was) and the response, as the trace shows them. */
async function tokenEvents({ assertion, faults, heldMs, issued, response, error }: EmulatorEventMap['token.answered']): Promise<Omit<FlowEvent, 'at'>[]> {
  const applied = [...faults];
  const result: Record<string, FlowEventDetail> = error
    ? { status: error.status, error: error.error, error_description: error.description }
    : { status: response.status };
  const token: Omit<FlowEvent, 'at'> = {
    step: 'token',
    outcome: applied.length > 0 ? 'fault' : error ? 'refused' : 'ok',
    details: {
      assertion_alg: assertion.alg,
      assertion_kid: assertion.kid,
      ...result,
      faults: applied,
      ...(heldMs === undefined ? {} : { held_ms: heldMs }),
    },
  };
  const members = await responseMembers(response);
  const tokenResponse: Omit<FlowEvent, 'at'> = {
    step: 'token_response',
    outcome: applied.length > 0 ? 'fault' : error ? 'refused' : 'ok',
    details: { status: response.status, content_type: response.headers.get('content-type') ?? 'none', members },
  };
  return [token, ...(issued ? [idTokenEvent(issued)] : []), tokenResponse];
}

/** The members of a JSON response, or none for a response that is not JSON. */
async function responseMembers(response: Response): Promise<string[]> {
  try {
    const body: unknown = await response.clone().json();
    return typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
  } catch {
    return [];
  }
}

/** The ID token as the flow trace shows it: its headers and claims, the nonce masked, never the token. */
function idTokenEvent({ signatureHeader, payload, encryptionHeader, faults }: IssuedIdToken): Omit<FlowEvent, 'at'> {
  const verified = payload.verified_claims as { claims?: Record<string, unknown> } | undefined;
  const givenName = verified?.claims?.given_name;
  const text = (value: unknown): FlowEventDetail =>
    value === undefined
      ? 'omitted'
      : typeof value === 'string' || typeof value === 'number'
        ? value
        : Array.isArray(value)
          ? value.map(String)
          : JSON.stringify(value);
  return {
    step: 'id_token',
    outcome: faults.length > 0 ? 'fault' : 'ok',
    details: {
      alg: signatureHeader.alg,
      kid: signatureHeader.kid ?? 'omitted',
      typ: signatureHeader.typ ?? 'omitted',
      claims: Object.keys(payload),
      iss: text(payload.iss),
      aud: text(payload.aud),
      exp: text(payload.exp),
      iat: text(payload.iat),
      nonce: typeof payload.nonce === 'string' ? masked(payload.nonce, 4) : 'omitted',
      sub: text(payload.sub),
      verified_claims: Object.keys(verified?.claims ?? {}),
      given_name: typeof givenName === 'string' ? givenName : 'not issued',
      ...(encryptionHeader
        ? { jwe_alg: encryptionHeader.alg, jwe_enc: encryptionHeader.enc, jwe_kid: encryptionHeader.kid ?? 'omitted' }
        : { encryption: 'not encrypted' }),
      faults,
    },
  };
}
